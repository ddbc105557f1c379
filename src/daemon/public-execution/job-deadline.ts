/**
 * A public execution job's deadline across the thread boundary. The pool gives each job the wall-clock time its
 * budget ends (`stopAt`); the worker runs it under that deadline (the AVM stops itself: src/core/avm/deadline.ts)
 * and answers a job that passed it with DEADLINE_PASSED, so that the worker goes on to its next job instead of
 * being terminated and replaced. The pool's own abort stays as a backstop, BACKSTOP_GRACE_MS later, for a job that
 * does not stop (work outside the AVM's loops): that one terminates its worker, as before.
 */

/** What the pool sends a worker. */
export interface DeadlinedJob<J> {
  readonly job: J;
  /** Ms since the epoch (Date.now()) at which the job's public execution stops. */
  readonly stopAt: number;
}

/** The message of the error a worker throws for a job that passed its deadline (errors cross threads by message). */
export const DEADLINE_PASSED = 'public execution passed its deadline';

/** How long after its deadline a job that has not stopped by itself is aborted (its worker terminated). */
export const BACKSTOP_GRACE_MS = 1_000;

export function passedDeadline(err: unknown): boolean {
  return err instanceof Error && err.message === DEADLINE_PASSED;
}
