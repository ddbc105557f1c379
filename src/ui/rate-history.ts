/** What the dashboard counts per second: blocks and txs mined, and txs added to, dropped from, refused by the pool. */
export type RateKey = 'blocks' | 'txs' | 'adds' | 'drops' | 'rejects';

interface RateBucket {
  /** Local time in whole seconds. */
  readonly second: number;
  readonly counts: Readonly<Partial<Record<RateKey, number>>>;
}

/**
 * Counts per second of local time (when events arrived), kept for the last few minutes: the rates and the
 * sparklines come from it. Immutable, so the dashboard's reducer can return a new one per event.
 */
export interface RateHistory {
  /** When counting started (the first snapshot), ms; rates need a couple of seconds of history. */
  readonly since: number | undefined;
  readonly buckets: readonly RateBucket[];
}

export const EMPTY_RATES: RateHistory = { since: undefined, buckets: [] };

const KEEP_SECONDS = 300;
/** Rolling window of the figures beside the sparklines, as Lighthouse's speedometer. */
const WINDOW_SECONDS = 10;

export function startRates(h: RateHistory, atMs: number): RateHistory {
  return h.since === undefined ? { ...h, since: atMs } : h;
}

export function addCounts(h: RateHistory, atMs: number, counts: Partial<Record<RateKey, number>>): RateHistory {
  const second = Math.floor(atMs / 1000);
  const buckets = h.buckets.filter((b) => b.second > second - KEEP_SECONDS);
  const last = buckets.at(-1);
  if (last && last.second === second) {
    const merged: Partial<Record<RateKey, number>> = { ...last.counts };
    for (const [k, v] of Object.entries(counts) as [RateKey, number][]) merged[k] = (merged[k] ?? 0) + v;
    buckets[buckets.length - 1] = { second, counts: merged };
  } else {
    buckets.push({ second, counts: { ...counts } });
  }
  return { since: h.since ?? atMs, buckets };
}

/** Counts of the last `seconds` whole seconds before now, oldest first (the current second is still filling). */
export function rateSeries(h: RateHistory, nowMs: number, seconds: number, key: RateKey): number[] {
  const end = Math.floor(nowMs / 1000) - 1;
  const out = new Array<number>(Math.max(0, seconds)).fill(0);
  for (const b of h.buckets) {
    const i = b.second - (end - seconds + 1);
    if (i >= 0 && i < seconds) out[i] = b.counts[key] ?? 0;
  }
  return out;
}

/** Per-second average over the last ten whole seconds (fewer right after connecting); undefined before two. */
export function averageRate(h: RateHistory, nowMs: number, key: RateKey): number | undefined {
  if (h.since === undefined) return undefined;
  const known = Math.floor(nowMs / 1000) - 1 - Math.floor(h.since / 1000);
  const window = Math.min(WINDOW_SECONDS, known);
  if (window < 2) return undefined;
  const sum = rateSeries(h, nowMs, window, key).reduce((a, b) => a + b, 0);
  return sum / window;
}
