import { Tx } from '../../core/tx/tx.js';
import { rpcErrors } from '../../rpc/errors.js';
import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import type { FeeModel } from '../fees/fee-model.js';
import type { Mempool } from './mempool.js';
import { allowedSetupFunctionToJson } from './tx-checks/allowed-setup-function.js';
import { TX_ERROR } from './tx-checks/tx-error-texts.js';

/** Largest number of pending txs one node_getPendingTxs call returns (spec part 8). */
const MAX_PENDING_TXS_PAGE = 100;

/**
 * The mempool's methods of the method table: sending and validating txs, pending tx queries, receipts, min
 * fees and the setup allow list. Spread into buildRpcHandlers (src/daemon/rpc-handlers.ts).
 */
export function mempoolRpcHandlers(mempool: Mempool, feeModel: FeeModel): RpcHandlers {
  return {
    node_sendTx: async (json) => {
      const tx = decodeTx(json, 'node_sendTx');
      const result = mempool.sendTx(tx);
      if (result.outcome === 'invalid') throw rpcErrors.txInvalid(result.reasons);
      if (result.outcome === 'rejected') throw rpcErrors.txRejected(result.rejection);
      // A follower forwards it: the upstream's answer is the caller's.
      await mempool.forwardTx(tx);
    },

    node_isValidTx: async (json, options) => {
      const tx = decodeTx(json, 'node_isValidTx');
      return mempool.isValidTx(tx, {
        isSimulation: options?.isSimulation ?? false,
        skipFeeEnforcement: options?.skipFeeEnforcement ?? false,
      });
    },

    node_simulatePublicCalls: async (json) => {
      decodeTx(json, 'node_simulatePublicCalls');
      throw rpcErrors.unsupported(TX_ERROR.PUBLIC_CALLS_UNSUPPORTED);
    },

    node_getPendingTxs: async (limit, after) =>
      mempool.pendingTxs(Math.min(limit, MAX_PENDING_TXS_PAGE), after).map((tx) => tx.toJSON()),

    node_getPendingTxCount: async () => mempool.pendingTxCount(),

    node_getTxByHash: async (txHash) => mempool.txByHash(txHash)?.toJSON(),

    node_getTxReceipt: async (txHash) => mempool.txReceipt(txHash),

    node_getCurrentMinFees: async () => feeModel.minFeesForNextBlock(),
    node_getTxsByHash: async (txHashes) => mempool.txsByHash(txHashes).map((t) => t.toJSON()),
    node_getMaxPriorityFees: async () => mempool.maxPriorityFees(),

    node_getAllowedPublicSetup: async () => mempool.allowedPublicSetup().map(allowedSetupFunctionToJson),
  };
}

/** The Tx param from its wire JSON; a malformed one is invalid params naming the field (DESIGN section 4). */
function decodeTx(json: Record<string, unknown>, method: string): Tx {
  try {
    return Tx.fromJSON(json, 'tx');
  } catch (err) {
    throw rpcErrors.invalidParams(`Invalid param 0 (tx) of ${method}: ${(err as Error).message}`);
  }
}
