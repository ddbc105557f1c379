/**
 * Steps of big answers (batch members, chunks of a streamed answer), one per event-loop turn across every
 * request: a step queued with `setImmediate` would run beside all the others queued in the same turn, so 24
 * batches would run 24 members before the loop polls its sockets again. Here the loop polls (other clients'
 * requests, /status) between any two steps, whatever the number of big answers in flight.
 */
export interface QueuedStep {
  /** The step has not run yet and now never will (its owner went on without it). */
  cancel(): void;
}

const queue: { run: () => void; cancelled: boolean }[] = [];
let scheduled = false;

/** Runs `run` in a later event-loop turn, after the steps queued before it, one step per turn. */
export function nextTurn(run: () => void): QueuedStep {
  const step = { run, cancelled: false };
  queue.push(step);
  schedule();
  return {
    cancel: () => {
      step.cancelled = true;
    },
  };
}

function schedule(): void {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  setImmediate(runOne);
}

function runOne(): void {
  scheduled = false;
  let step = queue.shift();
  while (step?.cancelled) step = queue.shift();
  try {
    step?.run();
  } finally {
    schedule();
  }
}
