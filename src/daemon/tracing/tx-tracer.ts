import type { TxTrace } from '../../core/trace/tx-trace.js';
import type { Tx } from '../../core/tx/tx.js';
import type { TxHash } from '../../core/tx-hash.js';
import { rpcErrors } from '../../rpc/errors.js';
import type { ChainState } from '../chain/chain-state.js';
import type { Mempool } from '../mempool/mempool.js';
import type { PublicExecutionPool } from '../public-execution/public-execution-pool.js';
import type { TraceAnswer } from '../public-execution/trace-jobs.js';
import type { PublicCallSimulator } from '../public-processor/public-call-simulator.js';
import type { TraceOptions } from './trace-tx.js';
import type { TracingConfig } from './tracing-settings.js';

/** What a caller asks for: an instruction trace, and its bounds (each at most the node's). */
export interface TraceRequest {
  readonly opcodes?: boolean;
  readonly maxSteps?: number;
  readonly maxBytes?: number;
  readonly skipFeeEnforcement?: boolean;
}

/**
 * nodeDev_traceTx and nodeDev_traceCall (docs/debugging.md). The main thread only finds the tx and names the
 * state; the re-execution runs in the public execution pool (trace-jobs.ts), under the callers' budgets (queue,
 * wall clock, heap), so a trace never holds the event loop. A mined tx is traced on the state before it (its
 * block's parent plus what the block did before it); an unmined tx as node_simulatePublicCalls runs it.
 */
export class TxTracer {
  constructor(
    private readonly chain: ChainState,
    private readonly mempool: Mempool,
    private readonly simulator: PublicCallSimulator,
    private readonly pool: PublicExecutionPool,
    private readonly config: TracingConfig,
  ) {}

  /** The trace of a mined tx, or undefined when the node knows no such mined tx. */
  async traceMined(txHash: TxHash, request: TraceRequest): Promise<TxTrace | undefined> {
    const location = this.chain.chain.store.locateTx(txHash.value);
    if (!location) return undefined;
    const tx = this.mempool.txByHash(txHash);
    if (!tx) {
      throw rpcErrors.blockNotAvailable(
        `Tx ${txHash} was mined in block ${location.blockNumber}, but its body is no longer kept (mined txs stay ` +
          'readable for --mined-tx-retention-blocks blocks); trace it from a file with `l2node tx trace <file>`',
      );
    }
    return this.traced(
      await this.pool.traceMinedTx({
        tx: tx.toBuffer(),
        blockNumber: location.blockNumber,
        txIndex: location.txIndex,
        options: this.options(request),
      }),
    );
  }

  /** The trace of a tx that is not mined, run as the next block would run it. */
  async traceCall(tx: Tx, request: TraceRequest): Promise<TxTrace> {
    const atBlock = this.chain.chain.latestBlockNumber;
    return this.traced(
      await this.pool.traceUnminedTx({
        tx: tx.toBuffer(),
        globals: this.simulator.nextBlockGlobals(atBlock).toJSON(),
        atBlock,
        options: this.options(request),
      }),
    );
  }

  /**
   * A job's answer as the wire gives it: an instruction trace past its bounds is LIMIT_EXCEEDED naming the bound;
   * state no longer kept is BLOCK_NOT_AVAILABLE; a tx the processor refuses is TX_INVALID, as
   * node_simulatePublicCalls answers.
   */
  private traced(answer: TraceAnswer): TxTrace {
    switch (answer.kind) {
      case 'traced':
        return answer.trace;
      case 'limit': {
        const steps = answer.bound === 'steps';
        throw rpcErrors.limitExceeded(
          answer.message,
          steps ? 'trace-max-steps' : 'trace-max-bytes',
          steps ? this.config.traceMaxSteps : this.config.traceMaxBytes,
        );
      }
      case 'unavailable':
        throw rpcErrors.blockNotAvailable(answer.message);
      case 'invalid':
        throw rpcErrors.txInvalid([answer.message]);
    }
  }

  private options(request: TraceRequest): TraceOptions {
    const opcodes = request.opcodes
      ? {
          maxSteps: Math.min(request.maxSteps ?? this.config.traceMaxSteps, this.config.traceMaxSteps),
          maxBytes: Math.min(request.maxBytes ?? this.config.traceMaxBytes, this.config.traceMaxBytes),
        }
      : undefined;
    return {
      ...(opcodes ? { opcodes } : {}),
      ...(request.skipFeeEnforcement ? { skipFeeEnforcement: true } : {}),
    };
  }
}
