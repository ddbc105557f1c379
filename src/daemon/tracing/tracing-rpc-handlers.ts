import { InsufficientFeePerGasError } from '../../core/gas/transaction-fee.js';
import { rpcErrors } from '../../rpc/errors.js';
import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import { PublicTxInvalidError } from '../public-processor/public-tx-invalid-error.js';
import { BlockNotAvailableError } from '../world-state/world-state-errors.js';
import { TraceLimitExceededError } from './call-tree-tracer.js';
import type { TracingConfig } from './tracing-settings.js';
import { TraceUnavailableError, type TxTracer } from './tx-tracer.js';

/**
 * nodeDev_traceTx and nodeDev_traceCall. An instruction trace past its bounds is LIMIT_EXCEEDED naming the
 * bound; a mined tx whose body or state is no longer kept is BLOCK_NOT_AVAILABLE; a tx the processor refuses
 * is TX_INVALID, as node_simulatePublicCalls answers.
 */
export function tracingRpcHandlers(tracer: TxTracer, config: TracingConfig) {
  const refusals = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof TraceLimitExceededError) {
        const steps = err.bound === 'steps';
        throw rpcErrors.limitExceeded(
          err.message,
          steps ? 'trace-max-steps' : 'trace-max-bytes',
          steps ? config.traceMaxSteps : config.traceMaxBytes,
        );
      }
      if (err instanceof TraceUnavailableError || err instanceof BlockNotAvailableError) {
        throw rpcErrors.blockNotAvailable(err.message);
      }
      if (err instanceof PublicTxInvalidError || err instanceof InsufficientFeePerGasError) {
        throw rpcErrors.txInvalid([err.message]);
      }
      throw err;
    }
  };
  return {
    nodeDev_traceTx: async (txHash, options) => refusals(() => tracer.traceMined(txHash, options ?? {})),
    nodeDev_traceCall: async (tx, options) => refusals(() => tracer.traceCall(tx, options ?? {})),
  } satisfies Partial<RpcHandlers>;
}
