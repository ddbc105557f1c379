import { GlobalVariables } from '../../core/block/global-variables.js';
import { Fr } from '../../core/fr.js';
import { PublicSimulationOutput } from '../../core/tx/public-simulation-output.js';
import type { Tx } from '../../core/tx/tx.js';
import type { ChainState } from '../chain/chain-state.js';
import type { NodeConfig } from '../config/settings.js';
import type { FeeModel } from '../fees/fee-model.js';
import { chainStoreContracts } from './chain-store-contracts.js';
import { processPrivateOnlyTx } from './private-only-tx.js';
import { toPublicSimulationOutput } from './public-simulation-output.js';
import { processPublicTx } from './public-tx-processor.js';

/**
 * node_simulatePublicCalls (4.1.2 AztecNodeService.simulatePublicCalls): the tx run by the same processor the
 * block builder uses, on the latest state, with the global variables the next block would have (next number, the
 * current slot, the fee model's min fees), debug logs collected. Nothing is kept. A tx the processor refuses
 * throws (PublicTxInvalidError, or InsufficientFeePerGasError when its max fees are below the min fees).
 */
export class PublicCallSimulator {
  constructor(
    private readonly chain: ChainState,
    private readonly config: NodeConfig,
    private readonly feeModel: FeeModel,
  ) {}

  simulate(tx: Tx, skipFeeEnforcement: boolean): PublicSimulationOutput {
    const globals = this.nextBlockGlobals();
    const fork = this.chain.worldState.fork();
    try {
      if (tx.hasPublicCalls()) {
        const processed = processPublicTx({
          state: fork,
          contracts: chainStoreContracts(this.chain.store),
          globals,
          tx,
          options: { skipFeeEnforcement, collectDebugLogs: true },
        });
        return toPublicSimulationOutput(processed);
      }
      const { txEffect, gasUsed } = processPrivateOnlyTx(fork, globals, tx);
      return new PublicSimulationOutput(undefined, globals, txEffect, [], gasUsed, []);
    } finally {
      fork.close();
    }
  }

  /** The global variables the next block would have (traces of unmined txs run with them too). */
  nextBlockGlobals(): GlobalVariables {
    const slots = this.chain.slots;
    const slot = slots.currentSlot();
    return new GlobalVariables(
      new Fr(BigInt(this.config.l1ChainId)),
      new Fr(BigInt(this.config.rollupVersion)),
      this.chain.chain.latestBlockNumber + 1,
      slot,
      slots.slotTimestamp(slot),
      this.config.coinbase,
      this.config.feeRecipient,
      this.feeModel.minFeesForNextBlock(),
    );
  }
}
