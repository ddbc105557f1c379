import { BlockHash } from '../../core/block-hash.js';
import { Tx } from '../../core/tx/tx.js';
import { TxHash } from '../../core/tx-hash.js';
import type { SqliteDatabase } from '../store/node-database.js';
import type { MinedTx } from './mined-tx-lookup.js';
import { comparePriority, decodePendingTxMeta, encodePendingTxMeta, type PendingTx } from './pending-tx.js';
import { TxPoolRepository } from './tx-pool-repository.js';
import type { TxRejection } from './tx-rejection.js';

/** Why the pool let go of a tx; a receipt of a dropped tx names it (see TxReceiptBuilder). */
export type TxDropReason =
  | 'replaced'
  | 'evicted'
  | 'insufficient_balance'
  | 'expired'
  | 'nullifier_spent'
  | 'anchor_reorged'
  | 'invalid_after_reorg'
  | 'block_building_failed'
  /** A follower's upstream refused it: the caller got the upstream's error, the receipt says dropped. */
  | 'rejected_upstream';

export interface DroppedTx {
  readonly txHash: TxHash;
  readonly reason: TxDropReason;
  readonly detail: string;
}

export type TxPoolAddResult =
  | { readonly outcome: 'added'; readonly dropped: readonly DroppedTx[] }
  | { readonly outcome: 'duplicate' }
  | { readonly outcome: 'rejected'; readonly rejection: TxRejection };

/** What the pool knows about a hash. */
export type TxPoolRecord =
  | { readonly status: 'pending'; readonly tx: PendingTx }
  | { readonly status: 'mined'; readonly mined: MinedTx }
  | { readonly status: 'dropped'; readonly reason: TxDropReason; readonly detail: string; readonly droppedAt: number };

export interface TxPoolOptions {
  /** Most pending txs (0: no limit); read on every add, so a runtime change applies at once. */
  readonly maxPendingTxCount: () => number;
  /** Percent a tx must beat another by to replace or evict it (at least +1). */
  readonly priceBumpPercentage: () => number;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
  /** How many dropped-tx records are kept for receipts (the oldest are forgotten first). */
  readonly droppedRecordsKept?: number;
}

const DEFAULT_DROPPED_RECORDS = 10_000;

/**
 * The pool of pending txs (docs/aztec-facts.md section 5.3): kept in SQLite (mempool_tx) and indexed in
 * memory by hash, priority, nullifier and fee payer. Ordering: priority fee, then tx hash, highest first.
 *
 * Adding applies the pre-add rules of 4.1.2's RPC path, each with its structured rejection
 * (docs/aztec-facts.md section 1.7): a tx sharing a nullifier with pending ones must beat each by the price bump and replaces
 * them (NULLIFIER_CONFLICT); the fee payer's balance must cover this tx after its higher-priority pending
 * ones, and lower-priority ones it no longer covers are evicted (INSUFFICIENT_FEE_PAYER_BALANCE); in a full
 * pool the tx must beat the lowest by the price bump and evicts it (LOW_PRIORITY_FEE).
 *
 * The index follows the database, never the reverse: every write changes a token in mempool_meta in the same
 * transaction, and every use first compares it with the index's. A transaction that rolled back (a block whose
 * apply failed after the pool's part ran) leaves another token behind, and the index is rebuilt from SQLite.
 */
export class TxPool {
  private readonly store: TxPoolRepository;
  private readonly now: () => number;
  private readonly droppedKept: number;
  private token: number | undefined;
  private readonly byHash = new Map<bigint, PendingTx>();
  /** Highest priority first. */
  private ordered: PendingTx[] = [];
  private readonly byNullifier = new Map<bigint, PendingTx>();
  private readonly byFeePayer = new Map<bigint, Set<PendingTx>>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: TxPoolOptions,
  ) {
    this.store = new TxPoolRepository(db);
    this.now = options.now ?? Date.now;
    this.droppedKept = options.droppedRecordsKept ?? DEFAULT_DROPPED_RECORDS;
    if (this.store.getToken() === undefined) this.db.transaction(() => this.store.bumpToken())();
    this.sync();
  }

  // ---- queries ----

  get pendingCount(): number {
    this.sync();
    return this.ordered.length;
  }

  /** Pending txs, highest priority first (a snapshot). */
  pendingByPriority(): readonly PendingTx[] {
    this.sync();
    return this.ordered.slice();
  }

  /** Up to `limit` pending txs after `after` (exclusive) in priority order; [] when `after` is not pending. */
  pendingPage(limit: number, after?: TxHash): readonly PendingTx[] {
    this.sync();
    let start = 0;
    if (after) {
      const p = this.byHash.get(after.value);
      if (!p) return [];
      start = this.positionOf(p) + 1;
    }
    return this.ordered.slice(start, start + limit);
  }

  getPending(txHash: TxHash): PendingTx | undefined {
    this.sync();
    return this.byHash.get(txHash.value);
  }

  /** Pending txs of a fee payer. */
  pendingOfFeePayer(feePayer: bigint): readonly PendingTx[] {
    this.sync();
    return [...(this.byFeePayer.get(feePayer) ?? [])];
  }

  /** The tx itself, pending or mined, read from the database. */
  loadTx(txHash: TxHash): Tx | undefined {
    const row = this.store.getTx(txHash.toBuffer());
    return row && Tx.fromBuffer(row.tx);
  }

  record(txHash: TxHash): TxPoolRecord | undefined {
    this.sync();
    const pending = this.byHash.get(txHash.value);
    if (pending) return { status: 'pending', tx: pending };
    const key = txHash.toBuffer();
    const row = this.store.getTx(key);
    if (row?.mined) return { status: 'mined', mined: decodeMined(row.mined) };
    const dropped = this.store.getDropped(key);
    if (dropped) {
      return {
        status: 'dropped',
        reason: dropped.reason as TxDropReason,
        detail: dropped.detail,
        droppedAt: dropped.dropped_at,
      };
    }
    return undefined;
  }

  // ---- writes ----

  /**
   * Adds a validated tx, or says why not. `incoming` is the tx's pending form, `tx` the tx stored;
   * `feePayerBalance` reads the committed FeeJuice balance at a fee payer's balance slot.
   */
  add(tx: Tx, incoming: PendingTx, feePayerBalance: (balanceSlot: bigint) => bigint): TxPoolAddResult {
    this.sync();
    if (this.byHash.has(incoming.hashValue)) return { outcome: 'duplicate' };
    // Mined and still kept: the same tx again, accepted silently as 4.1.2 does.
    const existing = this.store.getTx(incoming.txHash.toBuffer());
    if (existing && existing.mined_block !== null) return { outcome: 'duplicate' };
    this.trimToLimit();

    const drops = new Map<bigint, DroppedTx>();
    const incomingHash = incoming.txHash.toString();

    // Nullifier conflicts: beat every pending tx sharing a nullifier by the price bump, and replace it.
    for (const n of incoming.nullifiers) {
      const other = this.byNullifier.get(n);
      if (!other || drops.has(other.hashValue)) continue;
      const minimum = this.bumped(other.priorityFee);
      if (incoming.priorityFee < minimum) {
        const conflicting = other.txHash.toString();
        return reject({
          code: 'NULLIFIER_CONFLICT',
          message: `Nullifier conflict with existing tx ${conflicting}. Minimum required fee: ${minimum}, got: ${incoming.priorityFee}`,
          conflictingTxHash: conflicting,
          minimumPriceBumpFee: minimum.toString(),
          txPriorityFee: incoming.priorityFee.toString(),
        });
      }
      drops.set(other.hashValue, {
        txHash: other.txHash,
        reason: 'replaced',
        detail: `replaced by ${incomingHash}, which spends the same nullifier with a higher priority fee`,
      });
    }

    // The fee payer's balance, walked in priority order over its pending txs and this one.
    const payerTxs = [...(this.byFeePayer.get(incoming.feePayer) ?? [])].filter((p) => !drops.has(p.hashValue));
    payerTxs.push(incoming);
    payerTxs.sort(comparePriority);
    const initialBalance = feePayerBalance(incoming.feePayerBalanceSlot);
    let balance = initialBalance;
    for (const p of payerTxs) {
      const available = balance + p.claimAmount;
      if (available >= p.feeLimit) {
        balance = available - p.feeLimit;
        continue;
      }
      if (p === incoming) {
        return reject({
          code: 'INSUFFICIENT_FEE_PAYER_BALANCE',
          message: `Fee payer ${hex64(incoming.feePayer)} has insufficient balance. Balance at transaction: ${available}, required: ${incoming.feeLimit}`,
          currentBalance: initialBalance.toString(),
          availableBalance: available.toString(),
          feeLimit: incoming.feeLimit.toString(),
        });
      }
      drops.set(p.hashValue, {
        txHash: p.txHash,
        reason: 'insufficient_balance',
        detail: `evicted by ${incomingHash}: fee payer ${hex64(p.feePayer)} cannot pay both, and ${incomingHash} ${whyFirst(incoming, p)}`,
      });
    }

    // A full pool: beat the lowest pending tx by the price bump, and evict it.
    const max = this.options.maxPendingTxCount();
    // Every tx in `drops` is pending (found through the index), so it frees a place.
    if (max > 0 && this.ordered.length - drops.size >= max) {
      const lowest = this.lowestExcept(drops);
      if (lowest) {
        const minimum = this.bumped(lowest.priorityFee);
        if (incoming.priorityFee < minimum) {
          return reject({
            code: 'LOW_PRIORITY_FEE',
            message: `Tx does not meet minimum priority fee. Required: ${minimum}, got: ${incoming.priorityFee}`,
            minimumPriorityFee: minimum.toString(),
            txPriorityFee: incoming.priorityFee.toString(),
          });
        }
        drops.set(lowest.hashValue, {
          txHash: lowest.txHash,
          reason: 'evicted',
          detail: `evicted by ${incomingHash}: the pool was full (${max} txs) and it had the lowest priority fee`,
        });
      }
    }

    const dropped = [...drops.values()];
    this.write(() => {
      this.store.insert(incoming.txHash.toBuffer(), tx.toBuffer(), encodePendingTxMeta(incoming), incoming.receivedAt);
      for (const d of dropped) this.storeDrop(d);
    });
    for (const d of dropped) this.unindex(d.txHash.value);
    this.index(incoming);
    return { outcome: 'added', dropped };
  }

  /** Removes pending txs, recording why. Hashes that are not pending are ignored. */
  drop(drops: readonly DroppedTx[]): DroppedTx[] {
    this.sync();
    const done = drops.filter((d) => this.byHash.has(d.txHash.value));
    if (done.length === 0) return [];
    this.write(() => {
      for (const d of done) this.storeDrop(d);
    });
    for (const d of done) this.unindex(d.txHash.value);
    return done;
  }

  /** Marks pending txs mined; they leave the pending index but stay readable until pruned. */
  markMined(mined: readonly { txHash: TxHash; mined: MinedTx }[]): TxHash[] {
    this.sync();
    const done = mined.filter((m) => this.byHash.has(m.txHash.value));
    if (done.length === 0) return [];
    this.write(() => {
      for (const m of done) this.store.markMined(m.txHash.toBuffer(), m.mined.blockNumber, encodeMined(m.mined));
    });
    for (const m of done) this.unindex(m.txHash.value);
    return done.map((m) => m.txHash);
  }

  /** Hashes of txs the pool saw mined in blocks above `blockNumber`. */
  minedAbove(blockNumber: number): TxHash[] {
    return this.store.minedAbove(blockNumber).map((h) => new TxHash(BigInt(`0x${h.toString('hex')}`)));
  }

  /**
   * Puts mined txs back to pending (their block was unwound). `txs` are their pending forms, already
   * revalidated; a tx conflicting on a nullifier with a pending one keeps its place only if it has the
   * higher priority (the other is dropped). Returns the txs that could not come back, to be dropped.
   */
  returnToPending(txs: readonly PendingTx[], notBack: readonly DroppedTx[]): DroppedTx[] {
    this.sync();
    const back: PendingTx[] = [];
    const backByNullifier = new Map<bigint, PendingTx>();
    const drops = new Map<bigint, DroppedTx>();
    for (const d of notBack) drops.set(d.txHash.value, d);
    // Highest priority first: a returning tx only ever loses to a higher one already placed.
    for (const p of [...txs].sort(comparePriority)) {
      const winner = p.nullifiers
        .map((n) => backByNullifier.get(n) ?? this.byNullifier.get(n))
        .find((o) => o !== undefined && !drops.has(o.hashValue) && comparePriority(o, p) < 0);
      if (winner) {
        drops.set(p.hashValue, {
          txHash: p.txHash,
          reason: 'invalid_after_reorg',
          detail: `its block was unwound and ${winner.txHash.toString()} spends the same nullifier and ${whyFirst(winner, p)}`,
        });
        continue;
      }
      for (const n of p.nullifiers) {
        const loser = this.byNullifier.get(n);
        if (loser && !drops.has(loser.hashValue)) {
          drops.set(loser.hashValue, {
            txHash: loser.txHash,
            reason: 'replaced',
            detail: `replaced by ${p.txHash.toString()}, back from an unwound block with the same nullifier; it ${whyFirst(p, loser)}`,
          });
        }
        backByNullifier.set(n, p);
      }
      back.push(p);
    }
    const dropped = [...drops.values()];
    this.write(() => {
      for (const p of back) this.store.unmarkMined(p.txHash.toBuffer());
      for (const d of dropped) this.storeDrop(d);
    });
    for (const d of dropped) this.unindex(d.txHash.value);
    for (const p of back) this.index(p);
    return dropped;
  }

  /** Forgets mined txs of blocks up to `blockNumber` (receipts then come from the chain store alone). */
  pruneMined(blockNumber: number): void {
    this.write(() => this.store.pruneMined(blockNumber));
  }

  /** Forgets every tx: pending, mined and the dropped records (a forced rollback clears pool data). */
  clear(): void {
    this.write(() => this.store.clear());
    // The index is rebuilt from the (now empty) tables.
    this.token = undefined;
    this.sync();
  }

  /** After a runtime decrease of maxPendingTxCount: the lowest txs above the limit go. Returns them. */
  trimToLimit(): DroppedTx[] {
    this.sync();
    const max = this.options.maxPendingTxCount();
    if (max <= 0 || this.ordered.length <= max) return [];
    const excess = this.ordered.slice(max).map(
      (p): DroppedTx => ({
        txHash: p.txHash,
        reason: 'evicted',
        detail: `evicted: the pool limit is now ${max} txs and it had one of the lowest priority fees`,
      }),
    );
    return this.drop(excess);
  }

  // ---- internals ----

  private bumped(fee: bigint): bigint {
    const bump = (fee * BigInt(this.options.priceBumpPercentage())) / 100n;
    return fee + (bump > 1n ? bump : 1n);
  }

  private lowestExcept(drops: Map<bigint, DroppedTx>): PendingTx | undefined {
    for (let i = this.ordered.length - 1; i >= 0; i--) {
      const p = this.ordered[i] as PendingTx;
      if (!drops.has(p.hashValue)) return p;
    }
    return undefined;
  }

  private storeDrop(d: DroppedTx): void {
    const key = d.txHash.toBuffer();
    this.store.delete(key);
    this.store.putDropped(key, d.reason, d.detail, this.now(), this.droppedKept);
  }

  /** Runs database writes in one transaction (a savepoint inside a caller's) with a new token. */
  private write(fn: () => void): void {
    this.db.transaction(() => {
      fn();
      this.token = this.store.bumpToken();
    })();
  }

  /** Rebuilds the index when the database changed under it (a rolled-back transaction, another writer). */
  private sync(): void {
    const token = this.store.getToken();
    if (token === this.token) return;
    this.byHash.clear();
    this.byNullifier.clear();
    this.byFeePayer.clear();
    const all = this.store.pendingRows().map((r) => decodePendingTxMeta(r.hash, r.meta, r.received_at));
    all.sort(comparePriority);
    this.ordered = [];
    for (const p of all) this.index(p);
    this.token = token;
  }

  private index(p: PendingTx): void {
    this.byHash.set(p.hashValue, p);
    this.ordered.splice(this.insertionPoint(p), 0, p);
    for (const n of p.nullifiers) this.byNullifier.set(n, p);
    let set = this.byFeePayer.get(p.feePayer);
    if (!set) {
      set = new Set();
      this.byFeePayer.set(p.feePayer, set);
    }
    set.add(p);
  }

  private unindex(hashValue: bigint): void {
    const p = this.byHash.get(hashValue);
    if (!p) return;
    this.byHash.delete(hashValue);
    this.ordered.splice(this.positionOf(p), 1);
    for (const n of p.nullifiers) if (this.byNullifier.get(n) === p) this.byNullifier.delete(n);
    const set = this.byFeePayer.get(p.feePayer);
    set?.delete(p);
    if (set?.size === 0) this.byFeePayer.delete(p.feePayer);
  }

  /** Index of the first entry that comes after `p` (binary search). */
  private insertionPoint(p: PendingTx): number {
    let lo = 0;
    let hi = this.ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (comparePriority(this.ordered[mid] as PendingTx, p) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private positionOf(p: PendingTx): number {
    const i = this.insertionPoint(p) - 1;
    if (this.ordered[i] !== p) throw new Error(`TxPool index out of order at ${p.txHash.toString()}`);
    return i;
  }
}

function reject(rejection: TxRejection): TxPoolAddResult {
  return { outcome: 'rejected', rejection };
}

function hex64(v: bigint): string {
  return `0x${v.toString(16).padStart(64, '0')}`;
}

interface MinedJson {
  blockNumber: number;
  blockHash: string;
  txIndex: number;
  revertCode: number;
  transactionFee: string;
  slotNumber: number;
}

function encodeMined(m: MinedTx): string {
  const json: MinedJson = {
    blockNumber: m.blockNumber,
    blockHash: m.blockHash.toString(),
    txIndex: m.txIndex,
    revertCode: m.revertCode,
    transactionFee: m.transactionFee.toString(),
    slotNumber: m.slotNumber,
  };
  return JSON.stringify(json);
}

function decodeMined(text: string): MinedTx {
  const j = JSON.parse(text) as MinedJson;
  return {
    blockNumber: j.blockNumber,
    blockHash: BlockHash.fromString(j.blockHash),
    txIndex: j.txIndex,
    revertCode: j.revertCode as MinedTx['revertCode'],
    transactionFee: BigInt(j.transactionFee),
    slotNumber: j.slotNumber,
  };
}

/**
 * Why `winner` orders before `loser` (4.1.2's pool order: priority fee, then tx hash, both highest first), in
 * words for a drop detail: at equal fees the tie-break decides, and the detail must say so.
 */
function whyFirst(winner: PendingTx, loser: PendingTx): string {
  return winner.priorityFee > loser.priorityFee
    ? 'has the higher priority fee'
    : `has the same priority fee (${winner.priorityFee}) and the higher tx hash, which orders first`;
}
