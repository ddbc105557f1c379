import { InsufficientFeePerGasError } from '../../core/gas/transaction-fee.js';
import { rpcErrors } from '../../rpc/errors.js';
import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import type { PublicCallSimulator } from './public-call-simulator.js';
import { PublicTxInvalidError } from './public-tx-invalid-error.js';

/** The public processor's method: node_simulatePublicCalls. A tx it cannot process is refused as invalid. */
export function publicProcessorRpcHandlers(simulator: PublicCallSimulator) {
  return {
    node_simulatePublicCalls: async (tx, skipFeeEnforcement) => {
      try {
        return await simulator.simulate(tx, skipFeeEnforcement ?? false);
      } catch (err) {
        if (err instanceof PublicTxInvalidError || err instanceof InsufficientFeePerGasError) {
          throw rpcErrors.txInvalid([err.message]);
        }
        throw err;
      }
    },
  } satisfies Partial<RpcHandlers>;
}
