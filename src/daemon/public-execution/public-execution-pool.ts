import type { Piscina } from 'piscina';
import { rpcErrors } from '../../rpc/errors.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { BlockTxRunner } from '../sequencer/block-builder.js';
import type { GenesisPublicData } from '../world-state/genesis-state.js';
import { upstreamNeedOf } from '../world-state/world-state-errors.js';
import { BACKSTOP_GRACE_MS, type DeadlinedJob, passedDeadline } from './job-deadline.js';
import type {
  BlockTxAnswer,
  BlockTxJob,
  BlockTxOutcome,
  SimulatePublicCallsAnswer,
  SimulatePublicCallsJob,
} from './public-execution-jobs.js';
import { type PublicExecutionConfig, publicExecutionWorkers } from './public-execution-settings.js';
import type { PublicExecutionWorkerData } from './public-execution-worker.js';
import type { TraceAnswer, TraceMinedTxJob, TraceUnminedTxJob } from './trace-jobs.js';
import type { ValidateTxAnswer, ValidateTxJob } from './tx-validation-job.js';

export interface PublicExecutionPoolOptions {
  readonly config: PublicExecutionConfig;
  /** The database file the workers open (read only), known once the database is open. */
  readonly databaseFile: () => string;
  readonly genesisPublicData: readonly GenesisPublicData[];
  /** Whether the node builds blocks: then one more worker is kept for the sequencer alone. */
  readonly sequencer: boolean;
  readonly log: Logger;
}

const WORKER_FILE = new URL('./public-execution-worker.js', import.meta.url).href;

/**
 * Where public execution runs (docs/architecture.md section 4.11): worker threads, so that the AVM, which is
 * synchronous and may run seconds on a max-gas tx, never holds the event loop. Two piscina pools:
 *
 * - callers' jobs (simulations, validation): --public-execution-workers threads, a bounded queue
 *   (--public-execution-max-queue; a full queue answers at once), a wall-clock budget per job
 *   (--public-simulation-timeout-ms, waiting included; a job past it is aborted, which terminates its worker, and
 *   piscina starts a fresh one) and a heap cap per worker (--public-execution-memory-mb);
 * - the sequencer's block txs: one thread of its own, so a flood of callers never delays a block, with the
 *   block's build time as the budget of each tx.
 *
 * Every job is one of the functions of public-execution-jobs.ts; a new kind of job (a trace, gossip validation)
 * is a new function there and a method here.
 */
export class PublicExecutionPool implements Service {
  readonly name = 'public execution';
  private callers: Piscina | undefined;
  private blocks: Piscina | undefined;
  /** The pools' making (piscina's import), started by the first job. */
  private poolsMade: Promise<void> | undefined;
  /** Set from start until stop: a job after stop finds no pool. */
  private stopped = true;
  /** Each pool's warm-up, started by its first job. */
  private callersReady: Promise<void> | undefined;
  private blocksReady: Promise<void> | undefined;
  /** Caller jobs running or waiting; bounded here (piscina's own maxQueue lets a burst through while a worker is busy). */
  private callerJobs = 0;
  /** How many caller workers run (set at start). */
  private workers = 1;
  /** Whether the sequencer's worker may have been replaced since its last job (it warms up before the next). */
  private blocksWorkerReplaced = false;
  /** Running totals for the metrics: worker threads started (`callers`/`blocks`), jobs over budget (`pool|stop`). */
  readonly stats = { workersStarted: new Map<string, number>(), overBudget: new Map<string, number>() };

  constructor(private readonly o: PublicExecutionPoolOptions) {}

  async start(): Promise<void> {
    this.workers = publicExecutionWorkers(this.o.config);
    this.stopped = false;
  }

  /**
   * The pools, made with the first job: piscina loads then, not on a start (about 10 ms of a dev start's CPU,
   * bench/startup), and their threads start with each pool's first job (see warm). Until the node stops.
   */
  private pools(): Promise<void> {
    this.poolsMade ??= import('piscina').then(({ Piscina }) => {
      if (!this.stopped) this.makePools(Piscina);
    });
    return this.poolsMade;
  }

  private makePools(Pool: typeof Piscina): void {
    const { config } = this.o;
    const workerData: PublicExecutionWorkerData = {
      databaseFile: this.o.databaseFile(),
      genesisPublicData: this.o.genesisPublicData,
    };
    const resourceLimits = { maxOldGenerationSizeMb: config.publicExecutionMemoryMb };
    this.callers = new Pool({
      filename: WORKER_FILE,
      name: 'simulatePublicCalls',
      // Threads start with the first job (see warm): a node that runs no public call never loads the AVM.
      minThreads: 0,
      maxThreads: this.workers,
      concurrentTasksPerWorker: 1,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits,
      workerData,
    });
    this.blocks = this.o.sequencer
      ? new Pool({
          filename: WORKER_FILE,
          name: 'processBlockTx',
          minThreads: 0,
          maxThreads: 1,
          concurrentTasksPerWorker: 1,
          idleTimeout: Number.POSITIVE_INFINITY,
          resourceLimits,
          workerData,
        })
      : undefined;
    // A worker that fails with no job on it (piscina then emits 'error') is replaced; the node goes on.
    for (const [which, pool] of [
      ['callers', this.callers],
      ['blocks', this.blocks],
    ] as const) {
      pool?.on('error', (err: Error) =>
        this.o.log.error({ err: err.message }, `public execution worker failed: ${err.message}`),
      );
      pool?.on('workerCreate', () =>
        this.stats.workersStarted.set(which, (this.stats.workersStarted.get(which) ?? 0) + 1),
      );
    }
  }

  /**
   * Starts a pool's workers and waits until each has warmed up (imports, its database connection, genesis): on
   * its first job, not at start, so a node (or a test) that never runs a public call pays nothing for them, and a
   * first job's budget does not include the warm-up. A worker that cannot open the database is reported.
   */
  private warm(pool: Piscina, which: 'callers' | 'blocks'): Promise<void> {
    const known = which === 'callers' ? this.callersReady : this.blocksReady;
    if (known) return known;
    const started = performance.now();
    const ready = Promise.all(
      Array.from({ length: pool.maxThreads }, () => pool.run(undefined, { name: 'ready' })),
    ).then(
      () => {
        this.o.log.info(
          { workers: pool.maxThreads, pool: which },
          `public execution: ${pool.maxThreads} ${which === 'callers' ? 'caller' : 'sequencer'} worker(s) ready in ` +
            `${Math.round(performance.now() - started)} ms`,
        );
      },
      (err: Error) => {
        if (which === 'callers') this.callersReady = undefined;
        else this.blocksReady = undefined;
        this.o.log.error({ err: err.message }, `public execution workers failed to start: ${err.message}`);
        throw err;
      },
    );
    if (which === 'callers') this.callersReady = ready;
    else this.blocksReady = ready;
    return ready;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.poolsMade?.catch(() => undefined);
    this.poolsMade = undefined;
    const pools = [this.callers, this.blocks];
    this.callers = undefined;
    this.blocks = undefined;
    this.callersReady = undefined;
    this.blocksReady = undefined;
    await Promise.all(pools.map((p) => p?.destroy()));
  }

  /** node_simulatePublicCalls's run, within the callers' budgets. */
  simulatePublicCalls(job: SimulatePublicCallsJob): Promise<SimulatePublicCallsAnswer> {
    return this.runForCaller('simulatePublicCalls', job);
  }

  /** nodeDev_traceTx's re-execution of a mined tx, within the callers' budgets. */
  traceMinedTx(job: TraceMinedTxJob): Promise<TraceAnswer> {
    return this.runForCaller('traceMinedTx', job);
  }

  /** nodeDev_traceCall's run of an unmined tx, within the callers' budgets. */
  traceUnminedTx(job: TraceUnminedTxJob): Promise<TraceAnswer> {
    return this.runForCaller('traceUnminedTx', job);
  }

  /** The validation of a tx with public calls (node_isValidTx, node_sendTx, gossip), within the callers' budgets. */
  validateTx(job: ValidateTxJob): Promise<ValidateTxAnswer> {
    return this.runForCaller('validateTx', job);
  }

  /**
   * One public tx of a block being built, on the sequencer's worker, given `budgetMs`. Answers `timeout` when
   * the tx did not finish within it (its worker is replaced).
   */
  async processBlockTx(job: BlockTxJob, budgetMs: number): Promise<BlockTxOutcome> {
    if (!this.stopped) await this.pools();
    const pool = this.blocks;
    if (!pool) throw new Error('public execution: this node has no sequencer worker (it is not running)');
    await this.warm(pool, 'blocks');
    // A worker replaced after a terminated or failed job warms up first: the tx's budget starts once it is ready.
    // (Not before every tx: that was one more round trip to the worker per tx of a block.)
    if (this.blocksWorkerReplaced) {
      await pool.run(undefined, { name: 'ready' });
      this.blocksWorkerReplaced = false;
    }
    try {
      return (await pool.run(deadlined(job, budgetMs), {
        name: 'processBlockTx',
        signal: AbortSignal.timeout(Math.max(1, Math.ceil(budgetMs)) + BACKSTOP_GRACE_MS),
      })) as BlockTxAnswer;
    } catch (err) {
      if (passedDeadline(err)) return this.overBudget('blocks', 'deadline', { kind: 'timeout' });
      // Any other failure may have cost the worker its life (termination, its heap cap, a crash).
      this.blocksWorkerReplaced = true;
      if (isAbort(err)) return this.overBudget('blocks', 'terminated', { kind: 'timeout' });
      const need = upstreamNeedOf(err);
      if (need) throw need;
      if (isOutOfMemory(err)) {
        return {
          kind: 'drop',
          reason: `its public execution needs more than the worker heap cap of ${this.o.config.publicExecutionMemoryMb} MB (--public-execution-memory-mb)`,
        };
      }
      throw err;
    }
  }

  /** The block builder's runner for the sequencer's worker. */
  blockTxRunner(): BlockTxRunner {
    return { run: (job, budgetMs) => this.processBlockTx(job, budgetMs) };
  }

  /** How many caller jobs wait for a worker now (metrics). */
  get queued(): number {
    return Math.max(0, this.callerJobs - this.workers);
  }

  /** A job over its budget, counted by pool and by how it stopped (by itself at its deadline, or terminated). */
  private overBudget<T>(pool: 'callers' | 'blocks', stop: 'deadline' | 'terminated', answer: T): T {
    const key = `${pool}|${stop}`;
    this.stats.overBudget.set(key, (this.stats.overBudget.get(key) ?? 0) + 1);
    if (stop === 'terminated') {
      this.o.log.warn(
        { pool },
        `public execution: a ${pool === 'callers' ? 'caller' : 'sequencer'} job did not stop ${BACKSTOP_GRACE_MS} ms ` +
          'past its budget; its worker was terminated and is replaced',
      );
    }
    return answer;
  }

  private async runForCaller<A>(name: string, job: unknown): Promise<A> {
    if (!this.stopped) await this.pools();
    const pool = this.callers;
    if (!pool) throw rpcErrors.notReady('stopping');
    const { config } = this.o;
    if (this.callerJobs >= this.workers + config.publicExecutionMaxQueue) {
      throw queueFull(config.publicExecutionMaxQueue);
    }
    this.callerJobs++;
    // The budget counts the wait for a worker: it starts now. A job that waited past it stops at its first check.
    const task = deadlined(job, config.publicSimulationTimeoutMs);
    try {
      await this.warm(pool, 'callers');
      return (await pool.run(task, {
        name,
        signal: AbortSignal.timeout(config.publicSimulationTimeoutMs + BACKSTOP_GRACE_MS),
      })) as A;
    } catch (err) {
      const stop = passedDeadline(err) ? 'deadline' : isAbort(err) ? 'terminated' : undefined;
      if (stop) {
        throw this.overBudget(
          'callers',
          stop,
          rpcErrors.limitExceeded(
            `Public execution did not finish within its budget of ${config.publicSimulationTimeoutMs} ms ` +
              '(--public-simulation-timeout-ms; waiting for a worker included); retry later, or raise the budget',
            'public-simulation-timeout-ms',
            config.publicSimulationTimeoutMs,
          ),
        );
      }
      if (isQueueFull(err)) throw queueFull(config.publicExecutionMaxQueue);
      const need = upstreamNeedOf(err);
      if (need) throw need;
      if (isOutOfMemory(err)) {
        throw rpcErrors.limitExceeded(
          `The tx's public execution needs more than the worker heap cap of ${config.publicExecutionMemoryMb} MB ` +
            '(--public-execution-memory-mb)',
          'public-execution-memory-mb',
          config.publicExecutionMemoryMb,
        );
      }
      throw err;
    } finally {
      this.callerJobs--;
    }
  }
}

/** A job with the wall-clock time its budget ends. */
function deadlined<J>(job: J, budgetMs: number): DeadlinedJob<J> {
  return { job, stopAt: Date.now() + budgetMs };
}

function queueFull(maxQueue: number) {
  return rpcErrors.limitExceeded(
    `Public execution is busy: every worker runs and ${maxQueue} executions already wait for one ` +
      '(--public-execution-max-queue); retry later',
    'public-execution-max-queue',
    maxQueue,
  );
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

function isQueueFull(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.message === 'Task queue is at limit' || err.message === 'No task queue available and all Workers are busy')
  );
}

function isOutOfMemory(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}
