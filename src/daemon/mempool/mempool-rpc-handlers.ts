import type { TxReceipt } from '../../core/tx/tx-receipt.js';
import { rpcErrors } from '../../rpc/errors.js';
import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import type { FeeModel } from '../fees/fee-model.js';
import type { Mempool } from './mempool.js';
import { allowedSetupFunctionToJson } from './tx-checks/allowed-setup-function.js';

/** Largest number of pending txs one node_getPendingTxs call returns (spec part 8). */
const MAX_PENDING_TXS_PAGE = 100;

/**
 * The mempool's methods of the method table: sending and validating txs, pending tx queries, receipts, min
 * fees and the setup allow list. Spread into buildRpcHandlers (src/daemon/rpc-handlers.ts).
 */
export function mempoolRpcHandlers(
  mempool: Mempool,
  feeModel: FeeModel,
  /** Adds what other services know of a mined tx (its debug prints, docs/debugging.md). */
  decorateReceipt: (receipt: TxReceipt) => TxReceipt = (receipt) => receipt,
) {
  return {
    node_sendTx: async (tx) => {
      const result = await mempool.sendTx(tx);
      if (result.outcome === 'invalid') throw rpcErrors.txInvalid(result.reasons, result.details);
      if (result.outcome === 'rejected') throw rpcErrors.txRejected(result.rejection);
      // A follower forwards it: the upstream's answer is the caller's.
      await mempool.forwardTx(tx);
    },

    node_isValidTx: async (tx, options) =>
      mempool.isValidTx(tx, {
        isSimulation: options?.isSimulation ?? false,
        skipFeeEnforcement: options?.skipFeeEnforcement ?? false,
      }),

    node_getPendingTxs: async (limit, after) => mempool.pendingTxs(Math.min(limit, MAX_PENDING_TXS_PAGE), after),

    node_getPendingTxCount: async () => mempool.pendingTxCount(),

    node_getTxByHash: async (txHash) => mempool.txByHash(txHash),

    node_getTxReceipt: async (txHash) => decorateReceipt(mempool.txReceipt(txHash)),

    node_getCurrentMinFees: async () => feeModel.minFeesForNextBlock(),
    node_getTxsByHash: async (txHashes) => mempool.txsByHash(txHashes),
    node_getMaxPriorityFees: async () => mempool.maxPriorityFees(),

    node_getAllowedPublicSetup: async () => mempool.allowedPublicSetup().map(allowedSetupFunctionToJson),
  } satisfies Partial<RpcHandlers>;
}
