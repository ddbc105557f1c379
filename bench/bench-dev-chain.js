// A dev chain for benchmarks that build blocks: the node's own chain state and sequencer on a manual clock and a
// database file, fed from a plain list of txs (mined ones leave the list), plus a tx builder anchored at
// its genesis. Shared by bench/chain and bench/sync so both measure the same block-building path.
import pino from 'pino';
import { BlockHeader } from '../dist/core/block/block-header.js';
import { Fr } from '../dist/core/fr.js';
import { GasFees } from '../dist/core/gas/gas-fees.js';
import { TxBuilder } from '../dist/core/tx/tx-builder.js';
import { ChainState } from '../dist/daemon/chain/chain-state.js';
import { resolveConfig } from '../dist/daemon/config/resolve-config.js';
import { ManualClock } from '../dist/daemon/lifecycle/manual-clock.js';
import { PublicExecutionPool } from '../dist/daemon/public-execution/public-execution-pool.js';
import { configuredSequencer } from '../dist/daemon/sequencer/configured-sequencer.js';
import { genesisPublicData } from '../dist/daemon/sequencer/genesis-funding.js';
import { inThreadBlockTxRunner } from '../dist/daemon/sequencer/in-thread-block-tx-runner.js';
import { openNodeDatabase } from '../dist/daemon/store/node-database.js';

/**
 * @param {Record<string, string>} flags settings as `l2node start` flags
 * @param {string} dbPath the database file
 */
export async function startBenchDevChain(flags, dbPath) {
  const { config } = resolveConfig(flags, {});
  const clock = new ManualClock();
  const db = openNodeDatabase(dbPath);
  const pending = [];
  const log = pino({ level: 'silent' });
  const state = ChainState.open({ db, config, clock, log });
  const pendingTxs = {
    pendingTxsByPriority: () => pending,
    dropTx: (_hash, reason) => {
      throw new Error(`bench tx dropped: ${reason}`);
    },
    onTxAdded: () => {},
  };
  // Public txs run on this thread (blocks build synchronously), or in the node's sequencer worker after
  // runPublicTxsInWorker(true) (blocks then build asynchronously: wait for them), switched between blocks.
  const inThread = inThreadBlockTxRunner(state);
  let pool;
  let current = inThread;
  const runner = {
    run: (job, budgetMs) => current.run(job, budgetMs),
    get inThread() {
      return current.inThread;
    },
  };
  const runPublicTxsInWorker = async (on) => {
    if (on && !pool) {
      pool = new PublicExecutionPool({
        config,
        databaseFile: () => dbPath,
        genesisPublicData: genesisPublicData(config),
        sequencer: true,
        log,
      });
      await pool.start();
    }
    current = on ? pool.blockTxRunner() : inThread;
  };
  const stopWorkers = async () => pool?.stop();
  const sequencer = configuredSequencer(
    config,
    state,
    pendingTxs,
    () => new GasFees(0n, 1000n),
    log,
    undefined,
    runner,
  );
  const service = Object.assign(state, { sequencer });
  service.chain.addObserver({
    onBlockApplied: (b) => {
      const mined = new Set(b.body.txEffects.map((e) => e.txHash.toString()));
      for (let i = pending.length - 1; i >= 0; i--) if (mined.has(pending[i].txHash.toString())) pending.splice(i, 1);
    },
    onBlocksUnwound: () => {},
  });
  const builder = new TxBuilder({
    chainId: 31337n,
    rollupVersion: 1n,
    vkTreeRoot: Fr.ZERO,
    protocolContractsHash: Fr.ZERO,
    anchorBlockHeader: BlockHeader.empty({ state: service.worldState.getInitialStateReference() }),
  });
  return { config, clock, db, pending, service, builder, runPublicTxsInWorker, stopWorkers };
}
