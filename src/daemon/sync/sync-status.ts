import type { StreamSyncProgress } from '../../rpc/node-stream-event.js';

/**
 * Where a follower stands: `syncing` while behind its upstream, `synced` at its tip, `paused` by
 * nodeAdmin_pauseSync, `refused` when the upstream served something that does not verify, `diverged` when the
 * upstream's chain left this node's finalized blocks, `unreachable` when the upstream does not answer.
 */
export type SyncState = 'starting' | 'syncing' | 'synced' | 'paused' | 'refused' | 'diverged' | 'unreachable';

/** Why the sync is stuck on its upstream, as shown in GET /status and the event stream. */
export type SyncProblem = NonNullable<StreamSyncProgress['problem']>;

/**
 * The figures of the status line, GET /status (`sync`) and the `sync` chain event: the event stream's
 * `StreamSyncProgress` (the one declaration of its figures), with the state narrowed to what the follower sets.
 * Figures that cannot be measured yet are left out, never shown as "unknown" (docs/aztec-facts.md section 8.2).
 */
export type SyncStatus = StreamSyncProgress & { readonly state: SyncState };
