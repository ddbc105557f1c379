import type { ChainState } from '../chain/chain-state.js';
import { processBlockTx } from '../public-execution/public-execution-jobs.js';
import type { BlockTxRunner } from './block-builder.js';

/**
 * Runs a block's public txs on the calling thread, by the workers' own job: for tests and benchmarks that build
 * blocks synchronously. The node never uses it (its sequencer runs them in the public execution pool), so its
 * main thread does not load the AVM.
 */
export function inThreadBlockTxRunner(chain: ChainState): BlockTxRunner {
  const state = { worldState: chain.worldState, store: chain.chain.store };
  return { run: (job) => processBlockTx(state, job), inThread: true };
}
