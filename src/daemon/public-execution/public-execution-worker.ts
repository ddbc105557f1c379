import { workerData } from 'node:worker_threads';
import { AvmDeadlineError, withAvmDeadline } from '../../core/avm/deadline.js';
import { ChainStore } from '../store/chain-store.js';
import { openNodeDatabase } from '../store/node-database.js';
import type { GenesisPublicData } from '../world-state/genesis-state.js';
import { WorldState } from '../world-state/world-state.js';
import { UpstreamStateNeededError, upstreamNeedMessage } from '../world-state/world-state-errors.js';
import { DEADLINE_PASSED, type DeadlinedJob } from './job-deadline.js';
import {
  type BlockTxAnswer,
  type BlockTxJob,
  processBlockTx as processBlockTxOn,
  type SimulatePublicCallsAnswer,
  type SimulatePublicCallsJob,
  simulatePublicCalls as simulatePublicCallsOn,
  type WorkerState,
} from './public-execution-jobs.js';
import {
  type TraceAnswer,
  type TraceMinedTxJob,
  type TraceUnminedTxJob,
  traceMinedTx as traceMinedTxOn,
  traceUnminedTx as traceUnminedTxOn,
} from './trace-jobs.js';
import { type ValidateTxAnswer, type ValidateTxJob, validateTxInWorker } from './tx-validation-job.js';

/** What each worker is started with. */
export interface PublicExecutionWorkerData {
  /** The node's database file; opened read-only, on this worker's own connection. */
  readonly databaseFile: string;
  /** The genesis the node's world state was opened with (the world state checks it against the database). */
  readonly genesisPublicData: readonly GenesisPublicData[];
}

/**
 * A public execution worker (piscina): it warms once, when the pool starts it (the Poseidon2 engine, the
 * database connection, the world state's genesis), then runs one job at a time, synchronously, as the AVM is
 * built to run. Its reads are those of the main thread, on the block the job names.
 */
const data = workerData as PublicExecutionWorkerData;
const db = openNodeDatabase(data.databaseFile, { readonly: true });
const state: WorkerState = {
  worldState: WorldState.open(db, { genesisPublicData: data.genesisPublicData }),
  store: new ChainStore(db),
};

export function simulatePublicCalls(task: DeadlinedJob<SimulatePublicCallsJob>): SimulatePublicCallsAnswer {
  return runJob(task, (job) => simulatePublicCallsOn(state, job));
}

export function processBlockTx(task: DeadlinedJob<BlockTxJob>): BlockTxAnswer {
  return runJob(task, (job) => processBlockTxOn(state, job));
}

export function traceMinedTx(task: DeadlinedJob<TraceMinedTxJob>): TraceAnswer {
  return runJob(task, (job) => traceMinedTxOn(state, job));
}

export function traceUnminedTx(task: DeadlinedJob<TraceUnminedTxJob>): TraceAnswer {
  return runJob(task, (job) => traceUnminedTxOn(state, job));
}

export function validateTx(task: DeadlinedJob<ValidateTxJob>): ValidateTxAnswer {
  return runJob(task, (job) => validateTxInWorker(state, job));
}

/**
 * Runs a job under its deadline. What leaves the worker as an error crosses the thread boundary by its message:
 * a job past its deadline as DEADLINE_PASSED (the pool answers the budget's error; this worker stays), and a lazy
 * fork's read of upstream state not fetched yet as its need, which the pool turns back into
 * UpstreamStateNeededError so that the main thread fetches it and runs the job again.
 */
function runJob<J, A>(task: DeadlinedJob<J>, job: (job: J) => A): A {
  try {
    return withAvmDeadline(task.stopAt, () => job(task.job));
  } catch (err) {
    if (err instanceof AvmDeadlineError) throw new Error(DEADLINE_PASSED);
    if (err instanceof UpstreamStateNeededError) throw new Error(upstreamNeedMessage(err.need));
    throw err;
  }
}

/** A job that only proves the worker is up (the pool waits for it at start, so the first caller waits for nothing). */
export function ready(): true {
  return true;
}
