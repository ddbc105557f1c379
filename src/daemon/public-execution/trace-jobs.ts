import { isProtocolContractAddress } from '../../core/avm/index.js';
import { GlobalVariables, type GlobalVariablesJson } from '../../core/block/global-variables.js';
import { CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS } from '../../core/constants.js';
import { InsufficientFeePerGasError } from '../../core/gas/transaction-fee.js';
import { siloNullifier } from '../../core/hash/siloing.js';
import type { TxTrace } from '../../core/trace/tx-trace.js';
import { Tx } from '../../core/tx/tx.js';
import { applyTxEffectToFork } from '../public-processor/apply-tx-effect.js';
import { BlockContracts } from '../public-processor/block-contracts.js';
import { chainStoreContracts } from '../public-processor/chain-store-contracts.js';
import { PublicTxInvalidError } from '../public-processor/public-tx-invalid-error.js';
import type { PublishedContracts } from '../public-processor/tx-contract-source.js';
import { TraceLimitExceededError } from '../tracing/call-tree-tracer.js';
import { type TraceOptions, traceTx } from '../tracing/trace-tx.js';
import { BlockNotAvailableError } from '../world-state/world-state-errors.js';
import type { WorldStateFork } from '../world-state/world-state-fork.js';
import type { WorldStateView } from '../world-state/world-state-view.js';
import type { WorkerState } from './public-execution-jobs.js';

/**
 * The trace jobs of the public execution pool (nodeDev_traceTx, nodeDev_traceCall; docs/debugging.md). Like the
 * other jobs they name the committed block they run at and carry plain data; errors come back as answers, since
 * an error's class does not cross between threads.
 */

/** nodeDev_traceTx: the mined tx `tx`, at `txIndex` of block `blockNumber`, on the state just before it. */
export interface TraceMinedTxJob {
  readonly tx: Uint8Array;
  readonly blockNumber: number;
  readonly txIndex: number;
  readonly options: TraceOptions;
}

/** nodeDev_traceCall: an unmined tx on block `atBlock`, with the next block's global variables. */
export interface TraceUnminedTxJob {
  readonly tx: Uint8Array;
  readonly globals: GlobalVariablesJson;
  readonly atBlock: number;
  readonly options: TraceOptions;
}

export type TraceAnswer =
  | { readonly kind: 'traced'; readonly trace: TxTrace }
  /** The processor refused the tx (PublicTxInvalidError, or max fees below the block's). */
  | { readonly kind: 'invalid'; readonly message: string }
  /** The instruction trace went past a bound. */
  | { readonly kind: 'limit'; readonly bound: 'steps' | 'bytes'; readonly message: string }
  /** The state or block the trace needs is no longer kept. */
  | { readonly kind: 'unavailable'; readonly message: string };

/**
 * Re-executes a mined tx on the state before it: its block's parent, the checkpoint's L1-to-L2 messages when
 * the block is a checkpoint's first, the state cheat codes' writes the block applied, then the effects of the
 * block's earlier txs, with the block's global variables: exactly what the block builder ran it on.
 */
export function traceMinedTx(state: WorkerState, job: TraceMinedTxJob): TraceAnswer {
  const { store } = state;
  const block = store.getBlock(job.blockNumber);
  if (!block) return { kind: 'unavailable', message: `Block ${job.blockNumber} is no longer stored` };
  return answer(() => {
    const fork = state.worldState.fork(job.blockNumber - 1);
    try {
      if (block.indexWithinCheckpoint === 0) {
        fork.appendCheckpointMessages(store.checkpointL1ToL2Messages(block.checkpointNumber) ?? []);
      }
      const overrides = store.stateOverrides.ofBlock(job.blockNumber);
      if (overrides.length > 0) fork.writePublicData(overrides);
      const contracts = new BlockContracts(contractsAsOf(chainStoreContracts(store), fork));
      for (const effect of block.body.txEffects.slice(0, job.txIndex)) {
        applyTxEffectToFork(fork, effect);
        contracts.addTxEffect(effect);
      }
      return traceOn(fork, contracts, block.header.globalVariables, job, {
        blockNumber: job.blockNumber,
        txIndex: job.txIndex,
      });
    } finally {
      fork.close();
    }
  });
}

/** Runs an unmined tx as node_simulatePublicCalls runs it, with a tracer. */
export function traceUnminedTx(state: WorkerState, job: TraceUnminedTxJob): TraceAnswer {
  return answer(() => {
    const fork = state.worldState.fork(job.atBlock);
    try {
      return traceOn(fork, chainStoreContracts(state.store), GlobalVariables.fromJSON(job.globals), job);
    } finally {
      fork.close();
    }
  });
}

function traceOn(
  fork: WorldStateFork,
  contracts: PublishedContracts,
  globals: GlobalVariables,
  job: { readonly tx: Uint8Array; readonly options: TraceOptions },
  location?: { readonly blockNumber: number; readonly txIndex: number },
): TxTrace {
  return traceTx({
    state: fork,
    contracts,
    globals,
    tx: Tx.fromBuffer(job.tx),
    ...(location ? { location } : {}),
    options: job.options,
  });
}

/** The job's refusals as answers (classes do not survive the thread boundary); anything else is a failure. */
function answer(run: () => TxTrace): TraceAnswer {
  try {
    return { kind: 'traced', trace: run() };
  } catch (err) {
    if (err instanceof TraceLimitExceededError) return { kind: 'limit', bound: err.bound, message: err.message };
    if (err instanceof PublicTxInvalidError || err instanceof InsufficientFeePerGasError) {
      return { kind: 'invalid', message: err.message };
    }
    if (err instanceof BlockNotAvailableError) return { kind: 'unavailable', message: err.message };
    throw err;
  }
}

/**
 * The contracts as a past block saw them: the store knows every instance deployed since, so an instance whose
 * deployment nullifier is not yet in the state being traced is hidden, as it was when the block was built.
 */
function contractsAsOf(published: PublishedContracts, state: WorldStateView): PublishedContracts {
  return {
    getContractInstanceAt: (address, timestamp) => {
      if (
        !isProtocolContractAddress(address) &&
        !state.hasNullifier(siloNullifier(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, address))
      ) {
        return undefined;
      }
      return published.getContractInstanceAt(address, timestamp);
    },
    getContractClass: (classId) => published.getContractClass(classId),
    getFunctionName: (selector) => published.getFunctionName(selector),
  };
}
