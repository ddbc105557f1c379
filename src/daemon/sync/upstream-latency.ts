/** How long the upstream takes to answer, as GET /status shows it (`follower.upstreamLatency`). */
export interface UpstreamLatencyReading {
  /** Recent calls' average (exponentially weighted), in ms. */
  readonly averageMs: number;
  /** The last call's, in ms. */
  readonly lastMs: number;
  /** True while the average is at or over SLOW_UPSTREAM_MS: the follower keeps up only as fast as it answers. */
  readonly slow: boolean;
}

/**
 * An upstream whose calls take this long on average is called slow (logged once, flagged in GET /status): a
 * healthy node on the same network answers in milliseconds; 2 s per call lets a follower fall seconds behind a
 * chain that builds a block a second.
 */
export const SLOW_UPSTREAM_MS = 2_000;
/** Weight of the newest call in the average. */
const WEIGHT = 0.3;

/** Times the upstream's calls (each JSON-RPC request, answered or failed). */
export class UpstreamLatency {
  private average: number | undefined;
  private last: number | undefined;

  record(ms: number): void {
    this.last = ms;
    this.average = this.average === undefined ? ms : this.average + WEIGHT * (ms - this.average);
  }

  reading(): UpstreamLatencyReading | undefined {
    if (this.average === undefined || this.last === undefined) return undefined;
    const averageMs = Math.round(this.average);
    return { averageMs, lastMs: Math.round(this.last), slow: averageMs >= SLOW_UPSTREAM_MS };
  }
}
