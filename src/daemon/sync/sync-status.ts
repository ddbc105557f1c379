/**
 * Where a follower stands: `syncing` while behind its upstream, `synced` at its tip, `paused` by
 * nodeAdmin_pauseSync, `refused` when the upstream served something that does not verify, `diverged` when the
 * upstream's chain left this node's finalized blocks, `unreachable` when the upstream does not answer.
 */
export type SyncState = 'starting' | 'syncing' | 'synced' | 'paused' | 'refused' | 'diverged' | 'unreachable';

/** Why the sync is stuck on its upstream, as shown in GET /status and the event stream. */
export interface SyncProblem {
  /** What was refused ("block 12", "checkpoint 5"), or what failed ("upstream"). */
  readonly subject: string;
  readonly message: string;
  /** ISO time it was first seen (it stays until the upstream serves something that verifies). */
  readonly since: string;
}

/**
 * The figures of the status line, GET /status (`sync`) and the `sync` chain event. Figures that cannot be
 * measured yet are left out, never shown as "unknown" (docs/aztec-facts.md section 8.2).
 */
export interface SyncStatus {
  readonly state: SyncState;
  readonly upstream: string;
  /** This node's latest block. */
  readonly blockNumber: number;
  /** The upstream's latest block, once polled. */
  readonly targetBlockNumber?: number;
  /** Blocks behind the upstream, once polled. */
  readonly behind?: number;
  /** Percent of the upstream's chain this node has (0 to 100), once polled. */
  readonly percent?: number;
  /** Blocks applied per second over the last seconds, once measurable. */
  readonly blocksPerSecond?: number;
  /** Seconds to the target at that rate, when behind and measurable. */
  readonly etaSeconds?: number;
  /** ISO time of the last successful poll. */
  readonly lastPollAt?: string;
  readonly problem?: SyncProblem;
}
