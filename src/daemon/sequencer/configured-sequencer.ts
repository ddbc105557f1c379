import type { GasFees } from '../../core/gas/gas-fees.js';
import type { ChainConfig } from '../chain/chain-settings.js';
import type { ChainState } from '../chain/chain-state.js';
import type { Logger } from '../logging/logger.js';
import { chainStoreContracts } from '../public-processor/chain-store-contracts.js';
import type { DebugPrintStore } from '../tracing/debug-print-store.js';
import type { PendingTxSource } from './pending-tx-source.js';
import { Sequencer } from './sequencer.js';
import type { SequencerConfig } from './sequencer-settings.js';

/**
 * The dev sequencer over an open chain, as the settings configure it (the node, and the tests and benchmarks
 * that build blocks the node's way). Getters, not copies: nodeAdmin_setConfig changes these on the config
 * object and the next block uses them.
 */
export function configuredSequencer(
  config: SequencerConfig & ChainConfig,
  chain: ChainState,
  pendingTxs: PendingTxSource,
  minFees: () => GasFees,
  log: Logger,
  /** True when a failed step was a full disk (the node's storage health reports it once). */
  isStorageFailure?: (err: unknown) => boolean,
  /** Where the built blocks' debug prints go (docs/debugging.md). */
  debugPrints?: DebugPrintStore,
): Sequencer {
  return new Sequencer({
    chain: chain.chain,
    isStorageFailure,
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
    contracts: chainStoreContracts(chain.chain.store),
    log,
    ...(debugPrints ? { debugPrints } : {}),
  });
}
