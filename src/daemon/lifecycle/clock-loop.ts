import type { Cancel, Clock } from './clock.js';

/**
 * The run state and the one pending wake-up of a service that works in steps on the node's clock (the
 * sequencer's slots, the validators' per-slot duties). `start` runs the first step at once; each step asks for
 * the next with `wakeIn`; `stop` cancels the wake-up and waits for the work the service still has in flight,
 * so nothing runs after it returns.
 */
export class ClockLoop {
  #running = false;
  #wakeUp: Cancel | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly step: () => void,
  ) {}

  /** Between start() and stop(). */
  get running(): boolean {
    return this.#running;
  }

  start(): void {
    this.#running = true;
    this.step();
  }

  /** Runs the next step `delayMs` from now, in place of any wake-up already due. */
  wakeIn(delayMs: number): void {
    this.#wakeUp?.();
    this.#wakeUp = this.clock.schedule(delayMs, this.step);
  }

  /** Drops the pending wake-up (the service pauses); start() or wakeIn() brings one back. */
  cancel(): void {
    this.#wakeUp?.();
    this.#wakeUp = undefined;
  }

  async stop(inFlight: Promise<void> | undefined): Promise<void> {
    this.#running = false;
    this.cancel();
    await inFlight;
  }
}
