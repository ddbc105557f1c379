import type { GasFees } from '../../core/gas/gas-fees.js';
import type { ChainConfig } from '../chain/chain-settings.js';
import type { ChainState } from '../chain/chain-state.js';
import type { Logger } from '../logging/logger.js';
import type { PublicExecutionConfig } from '../public-execution/public-execution-settings.js';
import type { DebugPrintStore } from '../tracing/debug-print-store.js';
import type { BlockTxRunner } from './block-builder.js';
import type { PendingTxSource } from './pending-tx-source.js';
import { Sequencer, type UpstreamStateRunner } from './sequencer.js';
import type { SequencerConfig } from './sequencer-settings.js';

/**
 * The dev sequencer over an open chain, as the settings configure it (the node, and the tests and benchmarks
 * that build blocks the node's way). Getters, not copies: nodeAdmin_setConfig changes these on the config
 * object and the next block uses them.
 */
export function configuredSequencer(
  config: SequencerConfig & ChainConfig & Partial<Pick<PublicExecutionConfig, 'blockBuildTimeMs'>>,
  chain: ChainState,
  pendingTxs: PendingTxSource,
  minFees: () => GasFees,
  log: Logger,
  /** True when a failed step was a full disk (the node's storage health reports it once). */
  isStorageFailure: ((err: unknown) => boolean) | undefined,
  /**
   * Where the public txs run: the node passes its public execution pool's sequencer worker (with the block build
   * time as deadline); tests and benchmarks pass inThreadBlockTxRunner (this thread, synchronously, no deadline).
   * Passed in, never imported here: the node's main thread must not load the AVM (issue 27).
   */
  blockTxs: BlockTxRunner,
  /** Why no block may be built (damaged stored data); see SequencerOptions.halted. */
  halted?: () => string | undefined,
  /** Where the built blocks' debug prints go (docs/debugging.md). */
  debugPrints?: DebugPrintStore,
  /** A lazy fork's upstream state (--fork-mode lazy): what a block needs of it is fetched, then it builds again. */
  upstreamState?: UpstreamStateRunner,
): Sequencer {
  return new Sequencer({
    chain: chain.chain,
    isStorageFailure,
    halted,
    slots: chain.slots,
    pendingTxs,
    mode: config.sequencerMode,
    limits: {
      get maxTxs() {
        return config.maxTxsPerBlock;
      },
      get maxL2Gas() {
        return config.maxL2BlockGas;
      },
    },
    get minTxsPerBlock() {
      return config.minTxsPerBlock;
    },
    chainId: config.l1ChainId,
    rollupVersion: config.rollupVersion,
    get coinbase() {
      return config.coinbase;
    },
    get feeRecipient() {
      return config.feeRecipient;
    },
    minFees,
    blockTxs,
    // The block interval unless set: a block's txs are processed within its share of the slot.
    blockBuildTimeMs: () =>
      blockTxs.inThread ? undefined : (config.blockBuildTimeMs ?? (config.slotDuration * 1000) / config.blocksPerSlot),
    log,
    ...(debugPrints ? { debugPrints } : {}),
    ...(upstreamState ? { upstreamState } : {}),
  });
}
