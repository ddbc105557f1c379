import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import type { TxTracer } from './tx-tracer.js';

/** nodeDev_traceTx and nodeDev_traceCall (docs/debugging.md); the tracer maps refusals to their RPC errors. */
export function tracingRpcHandlers(tracer: TxTracer) {
  return {
    nodeDev_traceTx: async (txHash, options) => tracer.traceMined(txHash, options ?? {}),
    nodeDev_traceCall: async (tx, options) => tracer.traceCall(tx, options ?? {}),
  } satisfies Partial<RpcHandlers>;
}
