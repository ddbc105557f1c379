import { EventEmitter } from 'node:events';
import type { L2Block } from '../../core/block/l2-block.js';
import type { SyncStatus } from '../sync/sync-status.js';
import type { L2Tips } from './l2-tips.js';

/** What the chain announces after each change has committed (never before). */
export interface ChainEventMap {
  /** A block was applied (built here or synced); `durationMs`: applyBlock's time, checks and commit included. */
  block: { readonly block: L2Block; readonly tips: L2Tips; readonly durationMs: number };
  /** Blocks above `targetBlockNumber` were removed. */
  unwound: { readonly targetBlockNumber: number; readonly removed: number; readonly tips: L2Tips };
  /** Any tip moved: a block, a checkpoint on L1, a proof, finality, an unwind. */
  tips: L2Tips;
  /** A follower's sync progress or state changed (src/daemon/sync): the status line's figures. */
  sync: SyncStatus;
}

export type ChainEventName = keyof ChainEventMap;
export type ChainListener<K extends ChainEventName> = (event: ChainEventMap[K]) => void;

/**
 * A small typed event emitter for the chain's changes (the dashboard and the ws stream subscribe). A listener
 * that throws is reported through `onListenerError` and does not stop the others: a committed block stays
 * committed whatever a listener does.
 */
export class ChainEvents {
  private readonly emitter = new EventEmitter();

  constructor(private readonly onListenerError: (event: ChainEventName, err: unknown) => void = () => {}) {
    this.emitter.setMaxListeners(0);
  }

  on<K extends ChainEventName>(event: K, listener: ChainListener<K>): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }

  emit<K extends ChainEventName>(event: K, payload: ChainEventMap[K]): void {
    for (const listener of this.emitter.listeners(event) as ChainListener<K>[]) {
      try {
        listener(payload);
      } catch (err) {
        this.onListenerError(event, err);
      }
    }
  }
}
