import { workerData } from 'node:worker_threads';
import { ChainStore } from '../store/chain-store.js';
import { openNodeDatabase } from '../store/node-database.js';
import type { GenesisPublicData } from '../world-state/genesis-state.js';
import { WorldState } from '../world-state/world-state.js';
import { UpstreamStateNeededError, upstreamNeedMessage } from '../world-state/world-state-errors.js';
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

export function simulatePublicCalls(job: SimulatePublicCallsJob): SimulatePublicCallsAnswer {
  return carryingNeeds(() => simulatePublicCallsOn(state, job));
}

export function processBlockTx(job: BlockTxJob): BlockTxAnswer {
  return carryingNeeds(() => processBlockTxOn(state, job));
}

export function traceMinedTx(job: TraceMinedTxJob): TraceAnswer {
  return carryingNeeds(() => traceMinedTxOn(state, job));
}

export function traceUnminedTx(job: TraceUnminedTxJob): TraceAnswer {
  return carryingNeeds(() => traceUnminedTxOn(state, job));
}

export function validateTx(job: ValidateTxJob): ValidateTxAnswer {
  return carryingNeeds(() => validateTxInWorker(state, job));
}

/**
 * Runs a job; a lazy fork's read of upstream state not fetched yet leaves the worker as an error the pool turns
 * back into UpstreamStateNeededError, so the main thread fetches it and runs the job again.
 */
function carryingNeeds<T>(job: () => T): T {
  try {
    return job();
  } catch (err) {
    if (err instanceof UpstreamStateNeededError) throw new Error(upstreamNeedMessage(err.need));
    throw err;
  }
}

/** A job that only proves the worker is up (the pool waits for it at start, so the first caller waits for nothing). */
export function ready(): true {
  return true;
}
