import { flattenCalls, type TxTrace } from '../core/trace/tx-trace.js';

/** What the dashboard's block view shows of one tx's trace (nodeDev_traceTx), fetched on demand. */
export interface TxTraceSummary {
  readonly txHash: string;
  readonly executionResult: string;
  /** Public calls, nested ones included. */
  readonly calls: number;
  readonly l2Gas: number;
  readonly daGas: number;
  /** The revert message and the failing call (its name when the node knows it, else its selector). */
  readonly revert?: string;
}

/** The trace summaries of one block's txs, or why they could not be read. */
export type BlockTraces =
  | { readonly blockNumber: number; readonly status: 'loading' }
  | { readonly blockNumber: number; readonly status: 'done'; readonly txs: readonly TxTraceSummary[] }
  | { readonly blockNumber: number; readonly status: 'failed'; readonly error: string };

export function summarizeTrace(trace: TxTrace): TxTraceSummary {
  const reason = trace.revertReason;
  const failing = reason?.failingFunctions.at(-1);
  const where = failing ? (failing.functionName ?? failing.selector ?? failing.contractAddress) : undefined;
  return {
    txHash: trace.txHash,
    executionResult: trace.executionResult,
    calls: flattenCalls(trace.calls).length,
    l2Gas: trace.gasUsed.totalGas.l2Gas,
    daGas: trace.gasUsed.totalGas.daGas,
    ...(reason ? { revert: `${reason.message}${where ? ` (in ${where})` : ''}` } : {}),
  };
}
