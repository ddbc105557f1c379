import type { SyncState, SyncStatus } from './sync-status.js';

/** How far back the rate looks: long enough to smooth batches, short enough to follow a change of pace. */
const WINDOW_MS = 10_000;

/**
 * Measures a follower's progress: a rolling blocks-per-second rate (samples of the last WINDOW_MS, as
 * Lighthouse's speedometer does), the target and the ETA, and renders the status line. A figure that cannot be
 * measured yet (no target, fewer than two samples, no progress) is left out: the line never says "unknown".
 */
export class SyncProgress {
  private readonly samples: { at: number; block: number }[] = [];
  private target: number | undefined;

  constructor(private readonly now: () => number) {}

  /** The chain is at `block` now. */
  record(block: number): void {
    const at = this.now();
    this.samples.push({ at, block });
    while (this.samples.length > 2 && (this.samples[1] as { at: number }).at <= at - WINDOW_MS) this.samples.shift();
  }

  /** The upstream tip last seen, once polled. */
  get targetBlock(): number | undefined {
    return this.target;
  }

  setTarget(target: number): void {
    this.target = target;
  }

  /** Forgets the rate (after an unwind or a pause, the old samples say nothing about the pace). */
  resetRate(): void {
    this.samples.length = 0;
  }

  /** Blocks per second over the window, when two samples at least 200 ms apart show progress. */
  rate(): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < 200 || last.block <= first.block) return undefined;
    return ((last.block - first.block) * 1000) / (last.at - first.at);
  }

  status(base: { state: SyncState; upstream: string; blockNumber: number }): SyncStatus {
    const target = this.target;
    if (target === undefined) return base;
    const behind = Math.max(0, target - base.blockNumber);
    const rate = this.rate();
    const out: {
      -readonly [K in keyof SyncStatus]: SyncStatus[K];
    } = {
      ...base,
      targetBlockNumber: target,
      behind,
      percent: target === 0 ? 100 : Math.min(100, Math.floor((base.blockNumber * 1000) / target) / 10),
    };
    if (rate !== undefined) {
      out.blocksPerSecond = Math.round(rate * 10) / 10;
      if (behind > 0) out.etaSeconds = Math.ceil(behind / rate);
    }
    return out;
  }
}

/** The one-line progress report: "block 1200 of 2000 (60%), 350.2 blocks/s, ETA 3s" ("--" where not measurable). */
export function syncStatusLine(s: SyncStatus): string {
  if (s.targetBlockNumber === undefined) return `sync from ${s.upstream}: at block ${s.blockNumber}, target --`;
  const rate = s.blocksPerSecond === undefined ? '-- blocks/s' : `${s.blocksPerSecond} blocks/s`;
  const eta = s.etaSeconds === undefined ? '--' : formatDuration(s.etaSeconds);
  return (
    `sync from ${s.upstream}: block ${s.blockNumber} of ${s.targetBlockNumber} (${s.percent}%), ` +
    `${s.behind} behind, ${rate}, ETA ${eta}`
  );
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
