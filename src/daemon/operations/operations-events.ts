import { EventEmitter } from 'node:events';
import type { SnapshotStatus } from '../snapshots/snapshot-status.js';
import type { ProductionStatus } from './production-status.js';

/** What the operations of the admin interface announce (the dashboard and the ws stream subscribe). */
export interface OperationsEventMap {
  /** nodeAdmin_setConfig changed these keys; values in their NodeAdminConfig JSON form. */
  config: { readonly changed: Readonly<Record<string, unknown>> };
  /** Block production or sync was paused or resumed. */
  sync: ProductionStatus;
  /** nodeAdmin_rollbackTo finished. */
  rollback: {
    readonly targetBlockNumber: number;
    readonly removedBlocks: number;
    /** Txs the removed blocks held, and how many of them are pending again. */
    readonly removedTxs: number;
    readonly returnedTxs: number;
    /** World state and pool data were cleared and re-derived from the stored blocks (force below finality). */
    readonly rederived: boolean;
  };
  /** A snapshot upload moved on (phase, progress, result). */
  snapshot: SnapshotStatus;
}

export type OperationsEventName = keyof OperationsEventMap;
export type OperationsListener<K extends OperationsEventName> = (event: OperationsEventMap[K]) => void;

/**
 * A small typed event emitter, as ChainEvents: a listener that throws is reported through `onListenerError`
 * and does not stop the others, nor the operation that emitted.
 */
export class OperationsEvents {
  private readonly emitter = new EventEmitter();

  constructor(private readonly onListenerError: (event: OperationsEventName, err: unknown) => void = () => {}) {
    this.emitter.setMaxListeners(0);
  }

  on<K extends OperationsEventName>(event: K, listener: OperationsListener<K>): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }

  emit<K extends OperationsEventName>(event: K, payload: OperationsEventMap[K]): void {
    for (const listener of this.emitter.listeners(event) as OperationsListener<K>[]) {
      try {
        listener(payload);
      } catch (err) {
        this.onListenerError(event, err);
      }
    }
  }
}
