import type { NodeState } from '../lifecycle/node-state.js';
import type { PauseReason } from './sync-control.js';

/**
 * Whether the node produces or follows blocks, as GET /status (`sync`), `l2node status` and the dashboard show it:
 * the block producer (sequencer or follower) seen through the node lifecycle and the pauses. The follower has
 * a richer status of its own (sync/sync-status.ts).
 */
export type ProductionState = 'starting' | 'syncing' | 'synced' | 'paused' | 'stopping';

export interface ProductionStatus {
  readonly state: ProductionState;
  /** What feeds blocks into the chain (`sequencer`, or the follower's block source), once known. */
  readonly producer: string | null;
  /** Who holds production paused: the operator (nodeAdmin_pauseSync), a rollback, a snapshot copy. */
  readonly pausedBy: readonly PauseReason[];
  /** Latest block of the chain store. */
  readonly blockNumber: number;
  /** A follower: the upstream tip it syncs to, and how many blocks it is behind. */
  readonly target?: number;
  readonly distance?: number;
}

export interface ProductionStatusInput {
  readonly nodeState: NodeState;
  readonly producer: { readonly name: string; readonly paused: boolean; syncTarget?(): number | undefined } | undefined;
  readonly pausedBy: readonly PauseReason[];
  readonly blockNumber: number;
}

/**
 * The honest sync state: starting and stopping follow the node's lifecycle; a paused producer is paused
 * whatever the distance; a producer behind its target is syncing (with the distance), otherwise synced.
 */
export function productionStatus(input: ProductionStatusInput): ProductionStatus {
  const { nodeState, producer, pausedBy, blockNumber } = input;
  const base = { producer: producer?.name ?? null, pausedBy, blockNumber };
  const target = producer?.syncTarget?.();
  const behind = target === undefined ? {} : { target, distance: Math.max(0, target - blockNumber) };
  if (nodeState === 'starting') return { state: 'starting', ...base, ...behind };
  if (nodeState === 'stopping' || nodeState === 'stopped') return { state: 'stopping', ...base, ...behind };
  if (pausedBy.length > 0 || producer?.paused) return { state: 'paused', ...base, ...behind };
  if (behind.distance !== undefined && behind.distance > 0) return { state: 'syncing', ...base, ...behind };
  return { state: 'synced', ...base, ...behind };
}
