import { GlobalVariables, type GlobalVariablesJson } from '../../core/block/global-variables.js';
import { InsufficientFeePerGasError } from '../../core/gas/transaction-fee.js';
import { PublicSimulationOutput, type PublicSimulationOutputJson } from '../../core/tx/public-simulation-output.js';
import { Tx } from '../../core/tx/tx.js';
import { TxEffect } from '../../core/tx/tx-effect.js';
import { applyTxEffectToFork } from '../public-processor/apply-tx-effect.js';
import { BlockContracts } from '../public-processor/block-contracts.js';
import { chainStoreContracts } from '../public-processor/chain-store-contracts.js';
import { processPrivateOnlyTx } from '../public-processor/private-only-tx.js';
import { toPublicSimulationOutput } from '../public-processor/public-simulation-output.js';
import { PublicTxInvalidError } from '../public-processor/public-tx-invalid-error.js';
import { processPublicTx } from '../public-processor/public-tx-processor.js';
import type { ChainStore } from '../store/chain-store.js';
import { type DebugPrintJson, debugPrintsToJson } from '../tracing/debug-print-store.js';
import type { WorldState } from '../world-state/world-state.js';
import type { PublicDataWrite, WorldStateFork } from '../world-state/world-state-fork.js';
import { receivedTx } from './received-tx.js';

/**
 * The jobs of the public execution pool (docs/architecture.md section 4.11). Each names the committed block it
 * runs at, so the answer does not depend on when a worker picks it up, and carries only plain data (bytes and
 * JSON), which is what crosses between threads.
 */

/** node_simulatePublicCalls: the tx on block `atBlock`, with the next block's global variables. */
export interface SimulatePublicCallsJob {
  /** Tx.toBufferForTransfer: the hash slot is zero when `hashKnown` is false (see receivedTx). */
  readonly tx: Uint8Array;
  readonly hashKnown: boolean;
  readonly globals: GlobalVariablesJson;
  readonly atBlock: number;
  readonly skipFeeEnforcement: boolean;
}

export type SimulatePublicCallsAnswer =
  | { readonly kind: 'simulated'; readonly output: PublicSimulationOutputJson }
  /** The processor refused the tx (PublicTxInvalidError, or max fees below the block's). */
  | { readonly kind: 'invalid'; readonly message: string };

/**
 * One public tx of a block being built: it runs on the parent block plus what the block did before it (the
 * checkpoint's L1-to-L2 messages on a first block, the effects of the txs already included), which the job
 * carries, so any worker can take it. `blockKey` names one build attempt: a worker keeps the fork of its last
 * attempt and applies only the effects it has not seen.
 */
export interface BlockTxJob {
  readonly blockKey: string;
  readonly parentBlock: number;
  /** The checkpoint's messages when the block is its first (appended before any tx), else undefined. */
  readonly l1ToL2Messages: readonly bigint[] | undefined;
  /** The state cheat codes' public data writes the block applies before its txs (docs/cheat-codes.md). */
  readonly stateOverrides?: readonly PublicDataWrite[];
  /** The effects of the block's txs so far, in order. */
  readonly earlier: readonly Uint8Array[];
  readonly tx: Uint8Array;
  readonly globals: GlobalVariablesJson;
  /** Record the tx's debug_log prints (--debug-logs); without it DEBUGLOG only charges its gas. */
  readonly collectDebugLogs?: boolean;
}

export type BlockTxAnswer =
  | {
      readonly kind: 'included';
      readonly effect: Uint8Array;
      readonly mana: number;
      /** The tx's debug prints, named where the node knows the function (only with collectDebugLogs). */
      readonly debugPrints?: readonly DebugPrintJson[];
    }
  /** Max fees below the block's: a later block may take it. */
  | { readonly kind: 'skip' }
  /** No block can take it. */
  | { readonly kind: 'drop'; readonly reason: string };

/** A block tx's outcome as the block builder sees it: the runner may also have stopped it at its budget. */
export type BlockTxOutcome = BlockTxAnswer | { readonly kind: 'timeout' };

/** What a worker opens once and keeps: the world state and chain store on its own read-only connection. */
export interface WorkerState {
  readonly worldState: WorldState;
  readonly store: ChainStore;
}

export function simulatePublicCalls(state: WorkerState, job: SimulatePublicCallsJob): SimulatePublicCallsAnswer {
  const tx = receivedTx(job.tx, job.hashKnown);
  const globals = GlobalVariables.fromJSON(job.globals);
  const fork = state.worldState.fork(job.atBlock);
  try {
    if (tx.hasPublicCalls()) {
      const processed = processPublicTx({
        state: fork,
        contracts: chainStoreContracts(state.store),
        globals,
        tx,
        options: { skipFeeEnforcement: job.skipFeeEnforcement, collectDebugLogs: true },
      });
      return { kind: 'simulated', output: toPublicSimulationOutput(processed).toJSON() };
    }
    const { txEffect, gasUsed } = processPrivateOnlyTx(fork, globals, tx);
    return {
      kind: 'simulated',
      output: new PublicSimulationOutput(undefined, globals, txEffect, [], gasUsed, []).toJSON(),
    };
  } catch (err) {
    if (err instanceof PublicTxInvalidError || err instanceof InsufficientFeePerGasError) {
      return { kind: 'invalid', message: err.message };
    }
    throw err;
  } finally {
    fork.close();
  }
}

/** The fork of the block attempt a worker worked on last, with the block's contracts and what it applied. */
interface BlockInProgress {
  readonly key: string;
  readonly fork: WorldStateFork;
  readonly contracts: BlockContracts;
  applied: number;
}

let current: BlockInProgress | undefined;

export function processBlockTx(state: WorkerState, job: BlockTxJob): BlockTxAnswer {
  let block: BlockInProgress;
  try {
    block = blockInProgress(state, job);
  } catch (err) {
    current = undefined;
    throw err;
  }
  const tx = Tx.fromBuffer(job.tx);
  const globals = GlobalVariables.fromJSON(job.globals);
  try {
    const processed = processPublicTx({
      state: block.fork,
      contracts: block.contracts,
      globals,
      tx,
      ...(job.collectDebugLogs ? { options: { collectDebugLogs: true } } : {}),
    });
    const answer = {
      kind: 'included',
      effect: processed.txEffect.toBuffer(),
      mana: processed.gasUsed.totalGas.l2Gas,
    } as const;
    if (processed.debugLogs.length === 0) return answer;
    return { ...answer, debugPrints: debugPrintsToJson(processed, block.contracts) };
  } catch (err) {
    if (err instanceof InsufficientFeePerGasError) return { kind: 'skip' };
    if (err instanceof PublicTxInvalidError) return { kind: 'drop', reason: err.message };
    // A tx stopped midway (its deadline, an upstream read on a lazy fork): the next job starts from a fresh fork
    // rather than trust one a half-run tx touched.
    current?.fork.close();
    current = undefined;
    throw err;
  }
}

/** The job's block as it stands before its tx: the kept fork brought up to date, or a new one. */
function blockInProgress(state: WorkerState, job: BlockTxJob): BlockInProgress {
  if (!current || current.key !== job.blockKey || current.applied > job.earlier.length || current.fork.closed) {
    current?.fork.close();
    const fork = state.worldState.fork(job.parentBlock);
    if (job.l1ToL2Messages) fork.appendCheckpointMessages(job.l1ToL2Messages);
    if (job.stateOverrides?.length) fork.writePublicData(job.stateOverrides);
    current = { key: job.blockKey, fork, contracts: new BlockContracts(chainStoreContracts(state.store)), applied: 0 };
  }
  for (; current.applied < job.earlier.length; current.applied++) {
    const effect = TxEffect.fromBuffer(job.earlier[current.applied] as Uint8Array);
    applyTxEffectToFork(current.fork, effect);
    current.contracts.addTxEffect(effect);
  }
  return current;
}
