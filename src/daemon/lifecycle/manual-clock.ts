import type { Cancel, Clock } from './clock.js';

interface Pending {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

/**
 * A clock that moves only when told (tests, benchmarks): `advance` runs every call that falls due on the way,
 * in time order, each at its own time, including calls scheduled by those calls.
 */
export class ManualClock implements Clock {
  private time: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.time = startMs;
  }

  now(): number {
    return this.time;
  }

  schedule(delayMs: number, fn: () => void): Cancel {
    const entry: Pending = { at: this.time + Math.max(0, delayMs), seq: this.seq++, fn };
    this.pending.push(entry);
    return () => {
      this.pending = this.pending.filter((p) => p !== entry);
    };
  }

  /** Moves time forward by `ms`, running what falls due. */
  advance(ms: number): void {
    this.advanceTo(this.time + ms);
  }

  advanceTo(target: number): void {
    for (;;) {
      const next = this.pending.filter((p) => p.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.pending = this.pending.filter((p) => p !== next);
      this.time = Math.max(this.time, next.at);
      next.fn();
    }
    this.time = Math.max(this.time, target);
  }

  /** Calls waiting to run. */
  get scheduledCount(): number {
    return this.pending.length;
  }
}
