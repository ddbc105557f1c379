import { GlobalVariables } from '../../core/block/global-variables.js';
import { Fr } from '../../core/fr.js';
import { PublicSimulationOutput } from '../../core/tx/public-simulation-output.js';
import type { Tx } from '../../core/tx/tx.js';
import type { ChainState } from '../chain/chain-state.js';
import type { NodeConfig } from '../config/settings.js';
import type { FeeModel } from '../fees/fee-model.js';
import type { PublicExecutionPool } from '../public-execution/public-execution-pool.js';
import { PublicTxInvalidError } from './public-tx-invalid-error.js';

/**
 * node_simulatePublicCalls (4.1.2 AztecNodeService.simulatePublicCalls): the tx run by the same processor the
 * block builder uses, on the latest state, with the global variables the next block would have (next number, the
 * current slot, the fee model's min fees), debug logs collected. Nothing is kept. It runs in a public execution
 * worker (src/daemon/public-execution) within the callers' budgets. A tx the processor refuses throws
 * PublicTxInvalidError (also when its max fees are below the min fees).
 */
export class PublicCallSimulator {
  constructor(
    private readonly chain: ChainState,
    private readonly config: NodeConfig,
    private readonly feeModel: FeeModel,
    private readonly pool: PublicExecutionPool,
  ) {}

  async simulate(tx: Tx, skipFeeEnforcement: boolean): Promise<PublicSimulationOutput> {
    const atBlock = this.chain.chain.latestBlockNumber;
    const answer = await this.pool.simulatePublicCalls({
      // The worker hashes the tx when it has no hash yet: never the event loop.
      tx: tx.toBufferForTransfer(),
      hashKnown: tx.hasKnownHash,
      globals: this.nextBlockGlobals(atBlock).toJSON(),
      atBlock,
      skipFeeEnforcement,
    });
    if (answer.kind === 'invalid') throw new PublicTxInvalidError(answer.message);
    return PublicSimulationOutput.fromJSON(answer.output);
  }

  /** The global variables the next block would have after block `atBlock` (traces of unmined txs run with them too). */
  nextBlockGlobals(atBlock: number): GlobalVariables {
    const slots = this.chain.slots;
    const slot = slots.currentSlot();
    return new GlobalVariables(
      new Fr(BigInt(this.config.l1ChainId)),
      new Fr(BigInt(this.config.rollupVersion)),
      atBlock + 1,
      slot,
      slots.slotTimestamp(slot),
      this.config.coinbase,
      this.config.feeRecipient,
      this.feeModel.minFeesForNextBlock(),
    );
  }
}
