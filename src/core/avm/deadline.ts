/**
 * A wall-clock deadline for the AVM runs of one synchronous job (a simulation, a block's tx, a trace).
 *
 * Gas bounds what a tx may do, not how long it takes: a max-gas loop of POSEIDON2 runs seconds. A worker thread
 * that runs such a job past its budget could only be stopped by terminating it, and a new worker then pays its
 * warm-up (its modules, its database connection, the genesis state) while the old isolate's memory goes back to
 * the allocator. So the interpreter stops itself: every loop of a program passes a backward jump (JUMP, a taken
 * JUMPI, an INTERNALCALL to an earlier pc), and a nested call starts a frame; each of those ticks a counter, and
 * every TICKS_PER_CHECK ticks the clock is read. Straight-line code between two ticks is bounded by one bytecode's
 * length, so the stop comes within milliseconds of the deadline; the AVM's results are unchanged (the check runs
 * beside the instructions, not in their gas or effects).
 *
 * The deadline is module state, not a parameter: the AVM runs synchronously and a worker runs one job at a time,
 * so the job's deadline holds exactly while `withAvmDeadline` runs it. Code that sets none runs without one.
 */

/** Ticks between two reads of the clock: a loop of the cheapest instructions reads it every few microseconds. */
const TICKS_PER_CHECK = 256;

/**
 * Thrown when a job's AVM runs pass its deadline. Not an exceptional halt: it aborts the whole job (no frame
 * reverts, no gas is charged for it), and the caller answers its budget's error.
 */
export class AvmDeadlineError extends Error {
  override name = 'AvmDeadlineError';
}

let stopAt = Number.POSITIVE_INFINITY;
let ticksLeft = TICKS_PER_CHECK;

/** Runs `job` (synchronous) with its AVM runs stopped at `deadline` (ms since the epoch, as Date.now()). */
export function withAvmDeadline<T>(deadline: number, job: () => T): T {
  const outer = stopAt;
  stopAt = Math.min(deadline, outer);
  ticksLeft = TICKS_PER_CHECK;
  try {
    checkAvmDeadline();
    return job();
  } finally {
    stopAt = outer;
  }
}

/** One backward jump or nested call: reads the clock every TICKS_PER_CHECK of them. */
export function tickAvmDeadline(): void {
  if (--ticksLeft > 0) return;
  ticksLeft = TICKS_PER_CHECK;
  checkAvmDeadline();
}

function checkAvmDeadline(): void {
  if (stopAt !== Number.POSITIVE_INFINITY && Date.now() >= stopAt) {
    throw new AvmDeadlineError(`public execution passed its deadline (${new Date(stopAt).toISOString()})`);
  }
}
