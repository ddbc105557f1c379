import pino from 'pino';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import type { L2Block } from '../../../../src/core/block/l2-block.js';
import { Fr } from '../../../../src/core/fr.js';
import { GasFees } from '../../../../src/core/gas/gas-fees.js';
import type { Tx } from '../../../../src/core/tx/tx.js';
import { TxBuilder, type TxBuildOptions } from '../../../../src/core/tx/tx-builder.js';
import type { TxHash } from '../../../../src/core/tx-hash.js';
import type { BlockObserver } from '../../../../src/daemon/chain/block-observer.js';
import { ChainState } from '../../../../src/daemon/chain/chain-state.js';
import { resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import type { NodeConfig } from '../../../../src/daemon/config/settings.js';
import { ManualClock } from '../../../../src/daemon/lifecycle/manual-clock.js';
import { configuredSequencer } from '../../../../src/daemon/sequencer/configured-sequencer.js';
import { inThreadBlockTxRunner } from '../../../../src/daemon/sequencer/in-thread-block-tx-runner.js';
import type { PendingTxSource } from '../../../../src/daemon/sequencer/pending-tx-source.js';
import { defaultPrefundedAccounts } from '../../../../src/daemon/sequencer/prefunded-accounts.js';
import type { Sequencer } from '../../../../src/daemon/sequencer/sequencer.js';
import { openNodeDatabase, type SqliteDatabase } from '../../../../src/daemon/store/node-database.js';

/** A plain list of pending txs (highest priority fee first), dropping the ones the chain mines. */
export class ListTxSource implements PendingTxSource, BlockObserver {
  readonly txs: Tx[] = [];
  readonly dropped: { hash: string; reason: string }[] = [];

  add(...txs: Tx[]): void {
    this.txs.push(...txs);
    const fee = (t: Tx) => t.gasSettings.maxPriorityFeesPerGas.feePerL2Gas;
    this.txs.sort((a, b) => (fee(b) > fee(a) ? 1 : fee(b) < fee(a) ? -1 : 0));
  }

  onTxAdded(): void {}

  pendingTxsByPriority(): Iterable<Tx> {
    return [...this.txs];
  }

  dropTx(txHash: TxHash, reason: string): void {
    this.dropped.push({ hash: txHash.toString(), reason });
    this.remove((t) => t.txHash.equals(txHash));
  }

  onBlockApplied(block: L2Block): void {
    const mined = new Set(block.body.txEffects.map((e) => e.txHash.toString()));
    this.remove((t) => mined.has(t.txHash.toString()));
  }

  onBlocksUnwound(): void {}

  private remove(match: (t: Tx) => boolean): void {
    for (let i = this.txs.length - 1; i >= 0; i--) if (match(this.txs[i] as Tx)) this.txs.splice(i, 1);
  }
}

export const MIN_FEES = new GasFees(0n, 10n);

export type DevChainService = ChainState & { readonly sequencer: Sequencer };

/** The chain state and a sequencer over it, wired as the node wires them (src/daemon/node.ts), with `pendingTxs` as pool. */
export function openDevChain(
  db: SqliteDatabase,
  config: NodeConfig,
  clock: ManualClock,
  pendingTxs: PendingTxSource,
  minFees = () => MIN_FEES,
): DevChainService {
  const log = pino({ level: 'silent' });
  const state = ChainState.open({ db, config, clock, log });
  const sequencer = configuredSequencer(
    config,
    state,
    pendingTxs,
    minFees,
    log,
    undefined,
    inThreadBlockTxRunner(state),
  );
  return Object.assign(state, { sequencer });
}
export const MAX_FEES = new GasFees(0n, 20n);

export interface DevChain {
  readonly clock: ManualClock;
  readonly db: SqliteDatabase;
  /** The chain as the node opens it, with the sequencer the node builds on it. */
  readonly service: DevChainService;
  readonly source: ListTxSource;
  readonly config: NodeConfig;
  /** A tx paid by the first prefunded account, anchored to the latest block. */
  tx(options?: Partial<TxBuildOptions>): Tx;
  /** Moves the clock forward by whole block intervals. */
  advanceBlocks(n?: number): void;
  close(): Promise<void>;
}

/** A dev chain on an in-memory database and a manual clock, with a plain tx list as its mempool. */
export async function startDevChain(
  flags: Record<string, string> = {},
  path: string | null = null,
  clock = new ManualClock(),
): Promise<DevChain> {
  const { config } = resolveConfig(
    {
      // The cases describe slot timing; instant mode has its own (dev-chain-instant.test.ts).
      'sequencer-mode': 'interval',
      'slot-duration': '4',
      'blocks-per-slot': '2',
      'epoch-duration': '2',
      'proof-delay': '2',
      'finality-delay': '2',
      ...flags,
    },
    {},
  );
  const db = openNodeDatabase(path);
  const source = new ListTxSource();
  const service = openDevChain(db, config, clock, source);
  service.chain.addObserver(source);
  await service.sequencer.start();
  const payer = defaultPrefundedAccounts()[0]?.address;
  return {
    clock,
    db,
    service,
    source,
    config,
    tx(options = {}) {
      const store = service.chain.store;
      const latest = store.latestBlockNumber();
      const anchor =
        latest === 0
          ? BlockHeader.empty({ state: service.worldState.getInitialStateReference() })
          : (store.getHeader(latest) as BlockHeader);
      const builder = new TxBuilder({
        chainId: BigInt(config.l1ChainId),
        rollupVersion: BigInt(config.rollupVersion),
        vkTreeRoot: Fr.ZERO,
        protocolContractsHash: Fr.ZERO,
        anchorBlockHeader: anchor,
      });
      return builder.build({
        feePayer: payer as never,
        maxFeesPerGas: MAX_FEES,
        now: BigInt(Math.floor(clock.now() / 1000)),
        ...options,
      });
    },
    advanceBlocks(n = 1) {
      clock.advance(n * service.slots.blockIntervalMs);
    },
    async close() {
      await service.sequencer.stop();
      db.close();
    },
  };
}
