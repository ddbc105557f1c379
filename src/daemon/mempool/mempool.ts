import type { L2Block } from '../../core/block/l2-block.js';
import { MAX_PROCESSABLE_L2_GAS } from '../../core/constants.js';
import { GasFees } from '../../core/gas/gas-fees.js';
import type { Tx } from '../../core/tx/tx.js';
import type { TxReceipt } from '../../core/tx/tx-receipt.js';
import type { TxHash } from '../../core/tx-hash.js';
import type { BlockObserver } from '../chain/block-observer.js';
import type { ChainConfig } from '../chain/chain-settings.js';
import type { Logger } from '../logging/logger.js';
import type { PoolChange } from '../node-events.js';
import type { PendingTxSource } from '../sequencer/pending-tx-source.js';
import type { SqliteDatabase } from '../store/node-database.js';
import type { CommittedStateReader } from './committed-state-reader.js';
import type { MempoolConfig } from './mempool-settings.js';
import type { MinedTx, MinedTxLookup } from './mined-tx-lookup.js';
import type { TxValidationOffload } from './offloaded-tx-validation.js';
import { comparePriority, type PendingTx, pendingTxFromMeta } from './pending-tx.js';
import type { AllowedSetupFunction } from './tx-checks/allowed-setup-function.js';
import { DEFAULT_ALLOWED_SETUP_FUNCTIONS } from './tx-checks/default-allowed-setup.js';
import { setupRefusalDetails } from './tx-checks/phases-validator.js';
import type { TxValidationContext } from './tx-checks/tx-validation-context.js';
import type { TxValidationResult } from './tx-checks/tx-validation-result.js';
import {
  POOL_ENTRY_TX_VALIDATORS,
  SEND_TX_VALIDATORS,
  type TxValidationOptions,
  validateTx,
} from './tx-checks/tx-validator.js';
import { TxMeta } from './tx-meta.js';
import { type DroppedTx, TxPool, type TxPoolAddResult } from './tx-pool.js';
import { TxReceiptBuilder } from './tx-receipt-builder.js';
import type { TxRejection } from './tx-rejection.js';

/** The settings the mempool reads, live (maxPendingTxCount may change at runtime): its group and the chain's identity. */
export type MempoolSettings = Readonly<MempoolConfig & ChainConfig>;

export interface MempoolOptions {
  readonly db: SqliteDatabase;
  readonly state: CommittedStateReader;
  readonly settings: MempoolSettings;
  /** The min fees of the next block (the fee model). */
  readonly minFees: () => GasFees;
  /** Milliseconds since the epoch (the node's clock). */
  readonly now?: () => number;
  /** Seconds: the timestamp a tx must not have expired at; default the clock's now. */
  readonly validationTimestamp?: () => bigint;
  /** The most L2 gas a tx may ask for; default 4.1.2's MAX_PROCESSABLE_L2_GAS. */
  readonly maxL2Gas?: number;
  /** The chain store's tx lookup and tips (see MinedTxLookup); without it receipts know only the pool. */
  readonly minedTxLookup?: MinedTxLookup;
  /**
   * Setup functions this chain allows besides 4.1.2's defaults and the settings' extension: on a dev chain
   * with 4.1.2's local network genesis, the Token entries that network adds (token-allowed-setup.ts).
   */
  readonly chainAllowedSetup?: readonly AllowedSetupFunction[];
  /** The current class of a contract instance, for allow-list entries by class; unknown without a chain store. */
  readonly contractClassIdOf?: (address: bigint) => bigint | undefined;
  /** A public function's name by selector (registered signatures, protocol contracts), for messages. */
  readonly functionNameOf?: (selector: number) => string | undefined;
  readonly epochDuration?: number;
  /** How many blocks mined txs stay readable in the pool (node_getTxByHash). */
  readonly minedRetentionBlocks?: number;
  /** Told of every tx added, dropped or refused (the dashboard's event stream counts them). */
  readonly onPoolChange?: (change: PoolChange) => void;
  /**
   * Follower mode: sends a tx the pool took on to the upstream. Throws the upstream's refusal (an RpcError
   * with its code and data), after which the tx leaves the pool.
   */
  readonly forwardTx?: (tx: Tx) => Promise<void>;
  /** Where txs with public calls are validated (the public execution workers); without it, in this thread. */
  readonly offload?: TxValidationOffload;
  readonly log?: Logger;
}

export type SendTxResult =
  | { readonly outcome: 'accepted' }
  | { readonly outcome: 'duplicate' }
  | { readonly outcome: 'invalid'; readonly reasons: readonly string[]; readonly details?: readonly string[] }
  | { readonly outcome: 'rejected'; readonly rejection: TxRejection };

/** Mined txs stay readable in the pool for this many blocks (4.1.2 keeps them until finalized). */
const DEFAULT_MINED_RETENTION_BLOCKS = 128;

/**
 * The mempool (docs/architecture.md section 3.3): validates txs against the committed state (the RPC
 * validator set, docs/aztec-facts.md section 5.1), keeps the valid ones in the pool, answers the tx queries and
 * receipts, and follows the chain: as a BlockObserver it marks a block's txs mined, drops pending txs the
 * block made invalid (spent nullifiers, expired, fee payer no longer able to pay) and takes unwound blocks'
 * txs back; as a PendingTxSource it feeds the sequencer.
 */
export class Mempool implements BlockObserver, PendingTxSource {
  readonly pool: TxPool;
  private readonly receipts: TxReceiptBuilder;
  private readonly now: () => number;
  private readonly minedRetention: number;
  private readonly txAddedListeners: (() => void)[] = [];

  constructor(private readonly o: MempoolOptions) {
    this.now = o.now ?? Date.now;
    this.minedRetention = o.minedRetentionBlocks ?? DEFAULT_MINED_RETENTION_BLOCKS;
    this.pool = new TxPool(o.db, {
      maxPendingTxCount: () => o.settings.maxPendingTxCount,
      priceBumpPercentage: () => o.settings.priceBumpPercentage,
      now: this.now,
    });
    this.receipts = new TxReceiptBuilder(this.pool, o.minedTxLookup, o.epochDuration);
  }

  /**
   * The setup allow list: 4.1.2's defaults, the chain's own (a local network's Token entries), then the
   * settings' extension (node_getAllowedPublicSetup).
   */
  allowedPublicSetup(): readonly AllowedSetupFunction[] {
    return [
      ...DEFAULT_ALLOWED_SETUP_FUNCTIONS,
      ...(this.o.chainAllowedSetup ?? []),
      ...this.o.settings.txPublicSetupAllowListExtend,
    ];
  }

  /**
   * The context a tx is validated in now: the latest committed block, the block after it, the clock, the
   * current min fees. State reads are cached per context (the fee payer's balance is read by the gas
   * validator and again by the pool).
   */
  validationContext(): TxValidationContext {
    const s = this.o.settings;
    const state = this.o.state.atLatest();
    const balances = new Map<bigint, bigint>();
    return {
      l1ChainId: BigInt(s.l1ChainId),
      rollupVersion: BigInt(s.rollupVersion),
      vkTreeRoot: s.vkTreeRoot.value,
      protocolContractsHash: s.protocolContractsHash.value,
      blockNumber: state.blockNumber + 1,
      timestamp: this.o.validationTimestamp?.() ?? BigInt(Math.floor(this.now() / 1000)),
      gasFees: this.o.minFees(),
      maxL2Gas: this.o.maxL2Gas ?? MAX_PROCESSABLE_L2_GAS,
      setupAllowList: this.allowedPublicSetup(),
      realProofs: false,
      nullifiersExist: (n) => state.nullifiersExist(n),
      archiveHasBlockHash: (h) => state.archiveHasBlockHash(h),
      publicDataAt: (slot) => {
        let v = balances.get(slot);
        if (v === undefined) {
          v = state.publicDataAt(slot);
          balances.set(slot, v);
        }
        return v;
      },
      contractClassIdOf: (address) => this.o.contractClassIdOf?.(address),
      functionNameOf: (selector) => this.o.functionNameOf?.(selector),
    };
  }

  /** node_isValidTx. */
  async isValidTx(tx: Tx, options: TxValidationOptions = {}): Promise<TxValidationResult> {
    const ctx = this.validationContext();
    if (this.o.offload && tx.hasPublicCalls()) return (await this.o.offload.validate(tx, ctx, options, 'rpc')).result;
    return this.validate(TxMeta.of(tx), ctx, options);
  }

  /**
   * node_sendTx (and a gossiped tx): validates (all checks; skipped counts as not valid, as in 4.1.2), then adds
   * to the pool. A tx the pool already has is accepted again silently.
   */
  async sendTx(tx: Tx): Promise<SendTxResult> {
    let ctx = this.validationContext();
    const { result, details } = await this.validateForPool(tx, ctx);
    if (result.result !== 'valid') {
      this.o.onPoolChange?.({ kind: 'rejected', code: 'TX_INVALID' });
      return { outcome: 'invalid', reasons: result.reason, ...(details.length ? { details } : {}) };
    }
    const meta = TxMeta.of(tx);
    // Validated elsewhere, on the block that was latest then: a block applied meanwhile may have spent its
    // nullifiers or expired it, and the pool would not hear of it (it follows blocks applied after a tx joins).
    if (ctx.blockNumber - 1 !== this.o.state.latestBlockNumber()) {
      ctx = this.validationContext();
      const again = validateTx(meta, ctx, {}, POOL_ENTRY_TX_VALIDATORS);
      if (again.result !== 'valid') {
        this.o.onPoolChange?.({ kind: 'rejected', code: 'TX_INVALID' });
        return { outcome: 'invalid', reasons: again.reason };
      }
    }
    const added: TxPoolAddResult = this.pool.add(tx, pendingTxFromMeta(meta, this.now()), (slot) =>
      ctx.publicDataAt(slot),
    );
    if (added.outcome === 'duplicate') return { outcome: 'duplicate' };
    if (added.outcome === 'rejected') {
      this.o.onPoolChange?.({ kind: 'rejected', code: added.rejection.code });
      return { outcome: 'rejected', rejection: added.rejection };
    }
    this.o.onPoolChange?.({ kind: 'added' });
    this.logDrops(added.dropped);
    this.o.log?.debug({ txHash: meta.hashKey, priorityFee: meta.priorityFee.toString() }, 'tx added to the pool');
    for (const listener of this.txAddedListeners) listener();
    return { outcome: 'accepted' };
  }

  /** node_sendTx's validation: a tx with public calls in the offload (when there is one), else here. */
  private async validateForPool(
    tx: Tx,
    ctx: TxValidationContext,
  ): Promise<{ result: TxValidationResult; details: readonly string[] }> {
    if (this.o.offload && tx.hasPublicCalls()) return this.o.offload.validate(tx, ctx, {}, 'sendTx');
    const meta = TxMeta.of(tx);
    const result = this.validate(meta, ctx, {}, SEND_TX_VALIDATORS);
    return { result, details: result.result === 'invalid' ? setupRefusalDetails(meta, ctx) : [] };
  }

  /** Evicts the lowest pending txs above maxPendingTxCount (called when the limit is lowered at runtime). */
  applyPoolLimit(): number {
    const evicted = this.pool.trimToLimit();
    this.logDrops(evicted);
    return evicted.length;
  }

  /** Forgets every tx the pool holds (a rollback below finality re-derives state from the stored blocks). */
  clearPool(): void {
    const pending = this.pool.pendingCount;
    this.pool.clear();
    this.o.log?.warn({ pending }, `mempool cleared: ${pending} pending txs forgotten`);
  }

  // ---- queries ----

  pendingTxCount(): number {
    return this.pool.pendingCount;
  }

  /** node_getPendingTxs: a page of pending txs in priority order. */
  pendingTxs(limit: number, after?: TxHash): Tx[] {
    return this.load(this.pool.pendingPage(limit, after));
  }

  /** node_getTxByHash: a pending tx, or one mined and not yet pruned from the pool. */
  txByHash(txHash: TxHash): Tx | undefined {
    return this.pool.loadTx(txHash);
  }

  /** 4.1.2's getTxsByHash: the txs found, in the order asked. */
  txsByHash(txHashes: readonly TxHash[]): Tx[] {
    return txHashes.flatMap((h) => {
      const tx = this.pool.loadTx(h);
      return tx ? [tx] : [];
    });
  }

  /** 4.1.2's getMaxPriorityFees: the max priority fees of the top pending tx, or zero. */
  maxPriorityFees(): GasFees {
    const [top] = this.pool.pendingPage(1);
    const tx = top && this.pool.loadTx(top.txHash);
    return tx ? tx.gasSettings.maxPriorityFeesPerGas : GasFees.ZERO;
  }

  /** node_getTxReceipt. */
  txReceipt(txHash: TxHash): TxReceipt {
    return this.receipts.receipt(txHash);
  }

  /** The receipt of a tx mined as `mined` says, which this node's store does not hold (a lazy fork's upstream's). */
  minedReceipt(txHash: TxHash, mined: MinedTx): TxReceipt {
    return this.receipts.minedReceipt(txHash, mined, this.o.minedTxLookup?.tips());
  }

  // ---- PendingTxSource ----

  *pendingTxsByPriority(): Iterable<Tx> {
    for (const p of this.pool.pendingByPriority()) {
      // Read when the sequencer gets to it: a tx dropped meanwhile is skipped.
      const tx = this.pool.getPending(p.txHash) && this.pool.loadTx(p.txHash);
      if (tx) yield tx;
    }
  }

  dropTx(txHash: TxHash, reason: string): void {
    const dropped = this.pool.drop([{ txHash, reason: 'block_building_failed', detail: reason }]);
    this.logDrops(dropped);
  }

  /** A follower's upstream refused a tx this pool took: it leaves the pool and its receipt says why. */
  /** After the pool took a tx: a follower forwards it upstream; a refusal drops it here and reaches the caller. */
  async forwardTx(tx: Tx): Promise<void> {
    const forward = this.o.forwardTx;
    if (!forward) return;
    try {
      await forward(tx);
    } catch (err) {
      this.logDrops(
        this.pool.drop([{ txHash: tx.txHash, reason: 'rejected_upstream', detail: (err as Error).message }]),
      );
      throw err;
    }
  }

  onTxAdded(listener: () => void): void {
    this.txAddedListeners.push(listener);
  }

  // ---- BlockObserver (inside applyBlock's transaction) ----

  onBlockApplied(block: L2Block): void {
    const blockHash = block.hash();
    const effects = block.body.txEffects;
    this.pool.markMined(
      effects.map((e, txIndex) => ({
        txHash: e.txHash,
        mined: {
          blockNumber: block.number,
          blockHash,
          txIndex,
          revertCode: e.revertCode,
          transactionFee: e.transactionFee.value,
          slotNumber: block.slot,
        } satisfies MinedTx,
      })),
    );

    const spentBy = new Map<bigint, TxHash>();
    const writtenSlots = new Set<bigint>();
    for (const e of effects) {
      for (const n of e.nullifiers) spentBy.set(n.value, e.txHash);
      for (const w of e.publicDataWrites) writtenSlots.add(w.leafSlot.value);
    }
    const drops: DroppedTx[] = [];
    const payersToCheck = new Set<bigint>();
    for (const p of this.pool.pendingByPriority()) {
      const spent = p.nullifiers.find((n) => spentBy.has(n));
      if (spent !== undefined) {
        drops.push({
          txHash: p.txHash,
          reason: 'nullifier_spent',
          detail: `tx ${spentBy.get(spent)?.toString()} in block ${block.number} spent one of its nullifiers`,
        });
      } else if (p.expirationTimestamp <= block.timestamp) {
        drops.push({
          txHash: p.txHash,
          reason: 'expired',
          detail: `it expired at ${p.expirationTimestamp}, block ${block.number} has timestamp ${block.timestamp}`,
        });
      } else if (writtenSlots.has(p.feePayerBalanceSlot)) {
        payersToCheck.add(p.feePayer);
      }
    }
    const dropped = this.pool.drop(drops);
    const evicted = this.pool.drop(this.unaffordable(payersToCheck, block.number));
    this.logDrops([...dropped, ...evicted]);
    if (block.number > this.minedRetention) this.pool.pruneMined(block.number - this.minedRetention);
  }

  onBlocksUnwound(targetBlockNumber: number, removed: readonly L2Block[]): void {
    const removedHashes = new Set(removed.map((b) => b.hash().value));
    const anchored = this.pool
      .pendingByPriority()
      .filter((p) => removedHashes.has(p.anchorBlockHash))
      .map(
        (p): DroppedTx => ({
          txHash: p.txHash,
          reason: 'anchor_reorged',
          detail: `the block it is anchored to was unwound (the chain went back to block ${targetBlockNumber})`,
        }),
      );
    const droppedAnchored = this.pool.drop(anchored);

    const ctx = this.validationContext();
    const back: PendingTx[] = [];
    const notBack: DroppedTx[] = [];
    for (const txHash of this.pool.minedAbove(targetBlockNumber)) {
      const tx = this.pool.loadTx(txHash);
      if (!tx) continue;
      const meta = TxMeta.of(tx);
      const result = validateTx(meta, ctx, {}, POOL_ENTRY_TX_VALIDATORS);
      if (result.result === 'valid') back.push(pendingTxFromMeta(meta, this.now()));
      else {
        notBack.push({
          txHash,
          reason: 'invalid_after_reorg',
          detail: `its block was unwound and it is no longer valid: ${result.reason.join(', ')}`,
        });
      }
    }
    const dropped = this.pool.returnToPending(back, notBack);
    this.logDrops([...droppedAnchored, ...dropped]);
    this.o.log?.info(
      { targetBlockNumber, minedTxsBack: back.length, dropped: droppedAnchored.length + dropped.length },
      'mempool followed an unwind',
    );
  }

  // ---- internals ----

  private validate(
    meta: TxMeta,
    ctx: TxValidationContext,
    options: TxValidationOptions,
    validators?: Parameters<typeof validateTx>[3],
  ): TxValidationResult {
    return validateTx(meta, ctx, options, validators, (name, err) =>
      this.o.log?.error({ validator: name, txHash: meta.hashKey, err: (err as Error).message }, 'validator failed'),
    );
  }

  /** Pending txs of these fee payers that their balance after a block no longer covers, lowest priority last. */
  private unaffordable(feePayers: ReadonlySet<bigint>, blockNumber: number): DroppedTx[] {
    if (feePayers.size === 0) return [];
    const state = this.o.state.atLatest();
    const out: DroppedTx[] = [];
    for (const payer of feePayers) {
      const txs = [...this.pool.pendingOfFeePayer(payer)].sort(comparePriority);
      let balance = state.publicDataAt((txs[0] as PendingTx).feePayerBalanceSlot);
      for (const p of txs) {
        const available = balance + p.claimAmount;
        if (available >= p.feeLimit) balance = available - p.feeLimit;
        else {
          out.push({
            txHash: p.txHash,
            reason: 'insufficient_balance',
            detail: `after block ${blockNumber} its fee payer's balance no longer covers it and the txs ordered before it (higher priority fee, or the same fee and a higher tx hash)`,
          });
        }
      }
    }
    return out;
  }

  private load(pending: readonly PendingTx[]): Tx[] {
    return pending.flatMap((p) => {
      const tx = this.pool.loadTx(p.txHash);
      return tx ? [tx] : [];
    });
  }

  private logDrops(drops: readonly DroppedTx[]): void {
    if (drops.length > 0) this.o.onPoolChange?.({ kind: 'dropped', reasons: drops.map((d) => d.reason) });
    for (const d of drops) {
      this.o.log?.info({ txHash: d.txHash.toString(), reason: d.reason, detail: d.detail }, 'tx dropped from the pool');
    }
  }
}
