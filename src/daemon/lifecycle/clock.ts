/** Cancels a scheduled call; calling it again, or after the call ran, does nothing. */
export type Cancel = () => void;

/**
 * The node's one source of time (docs/architecture.md section 4.7): slot timing, block timestamps and delays all read it, so
 * tests replace it with a ManualClock and drive the chain without sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once, `delayMs` of this clock's time from now. */
  schedule(delayMs: number, fn: () => void): Cancel;
}

/** Wall-clock time and real timers; the timers do not keep the process alive on their own. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  schedule(delayMs: number, fn: () => void): Cancel {
    const timer = setTimeout(fn, Math.max(0, delayMs));
    timer.unref();
    return () => clearTimeout(timer);
  }
}
