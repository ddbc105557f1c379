/**
 * One fair scheduler, with a time slice, for the steps of big answers (the members of batches) across every
 * request. A step queued with `setImmediate` would run beside all the others queued in the same turn,
 * so 24 batches would run 24 members before the loop polls its sockets again; and a batch that starts its first
 * member at once, in the callback that read its request, does the same when 24 requests arrive in one poll (fair
 * turns make 24 batches end, and their clients send the next ones, together: 24 x 5 ms of node_getBlocks(1,100)
 * held the loop for 120 ms and more). Here big work runs in slices of SLICE_MS: the queue's head gets one slice per
 * event-loop turn, and work that arrives while others wait goes behind them, so the loop polls its sockets (other
 * clients' requests, /status) after at most about one slice and one step, whatever the number of big answers.
 */
export interface QueuedStep {
  /** The step has not run yet and now never will (its owner went on without it). */
  cancel(): void;
}

/** The time big work may hold the event loop in one turn before others get theirs (a step that began finishes). */
export const SLICE_MS = 4;

const queue: { run: () => void; state: 'queued' | 'cancelled' | 'ran' }[] = [];
/** Steps queued that have neither run nor been cancelled. */
let waiting = 0;
let scheduled = false;
/** When the current slice ends (performance.now()); undefined between slices. */
let sliceEnds: number | undefined;

/** Runs `run` in a later event-loop turn, after the steps queued before it, one step per turn. */
export function nextTurn(run: () => void): QueuedStep {
  const step: (typeof queue)[number] = { run, state: 'queued' };
  queue.push(step);
  waiting++;
  schedule();
  return {
    cancel: () => {
      if (step.state !== 'queued') return;
      step.state = 'cancelled';
      waiting--;
    },
  };
}

/**
 * True when big work that is not a queued step (a batch's first member, read from its request) may run now: no
 * step is waiting (else it goes behind them, with nextTurn) and this turn's slice has time left. Opens a slice when
 * none is open.
 */
export function mayStartNow(): boolean {
  if (waiting > 0) return false;
  if (sliceEnds === undefined) openSlice(SLICE_MS);
  return inSlice();
}

/** True while the current slice has time left: the step that holds it may go on with its next piece of work. */
export function inSlice(): boolean {
  return sliceEnds !== undefined && performance.now() < sliceEnds;
}

function openSlice(ms: number): void {
  sliceEnds = performance.now() + ms;
  // Closed at the next check phase: work arriving in a later turn, with nothing queued, gets a slice of its own.
  setImmediate(closeSlice);
}

function closeSlice(): void {
  sliceEnds = undefined;
}

function schedule(): void {
  if (scheduled || waiting === 0) return;
  scheduled = true;
  setImmediate(runOne);
}

function runOne(): void {
  scheduled = false;
  let step = queue.shift();
  while (step && step.state !== 'queued') step = queue.shift();
  if (!step) return;
  step.state = 'ran';
  waiting--;
  openSlice(SLICE_MS);
  try {
    step.run();
  } finally {
    schedule();
  }
}
