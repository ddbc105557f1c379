/** A lag above this (ms) in the window makes GET /status report the node degraded. */
export const DEGRADED_LAG_MS = 250;
const TICK_MS = 100;
const WINDOW_MS = 10_000;

/**
 * How late the event loop has been lately: a timer due every 100 ms records how late it fires. A loop held by
 * synchronous work cannot answer anything while it is held, so a stall shows afterwards: as the largest delay of
 * the last 10 s in GET /status (`eventLoopLagMs`, and a `degraded` reason above 250 ms). prom-client's default
 * series (`nodejs_eventloop_lag_seconds` and its percentiles) carry the same to Prometheus.
 */
export class EventLoopLag {
  private readonly samples: { at: number; lagMs: number }[] = [];
  private timer: NodeJS.Timeout | undefined;

  start(): void {
    if (this.timer) return;
    let last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      this.samples.push({ at: now, lagMs: Math.max(0, now - last - TICK_MS) });
      last = now;
      while ((this.samples[0]?.at ?? now) < now - WINDOW_MS) this.samples.shift();
    }, TICK_MS);
    // It measures the process; it never keeps it alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The largest lag of the last 10 s, in whole ms. */
  recentMaxMs(): number {
    let max = 0;
    for (const s of this.samples) max = Math.max(max, s.lagMs);
    return Math.round(max);
  }

  /** Why the node is degraded, or undefined. */
  degradedReason(): string | undefined {
    const lag = this.recentMaxMs();
    return lag > DEGRADED_LAG_MS
      ? `the event loop was held for ${lag} ms in the last ${WINDOW_MS / 1000} s (more than ${DEGRADED_LAG_MS} ms): requests waited that long`
      : undefined;
  }
}
