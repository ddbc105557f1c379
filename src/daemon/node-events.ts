import { EventEmitter } from 'node:events';

/** What happened in the mempool; the event stream sums these into running totals. */
export type PoolChange =
  | { readonly kind: 'added' }
  /** Txs left the pool unmined (evicted, replaced, nullifier_spent, expired...), one reason per tx. */
  | { readonly kind: 'dropped'; readonly reasons: readonly string[] }
  /** node_sendTx refused a tx: a rejection code (LOW_PRIORITY_FEE...) or TX_INVALID. */
  | { readonly kind: 'rejected'; readonly code: string };

/** What the sentinel concluded about one slot of the committee. */
export interface ValidatorSlotResult {
  readonly slot: number;
  /** 0x + 40 hex. */
  readonly proposer: string;
  /** The proposer's status (checkpoint-mined, checkpoint-proposed, checkpoint-missed, blocks-missed). */
  readonly status: string;
  readonly attestationsSent: number;
  readonly attestationsMissed: number;
}

/**
 * Node-level events that no service's own emitter carries (the chain has ChainEvents, the admin operations
 * OperationsEvents): the mempool's changes and the sentinel's slot results.
 */
export interface NodeEventMap {
  pool: PoolChange;
  validatorSlot: ValidatorSlotResult;
}

export type NodeEventName = keyof NodeEventMap;
export type NodeEventListener<K extends NodeEventName> = (event: NodeEventMap[K]) => void;

/**
 * A small typed event emitter, as ChainEvents: a listener that throws is reported through `onListenerError` and
 * stops neither the others nor the service that emitted (a tx stays pooled, a slot stays judged).
 */
export class NodeEvents {
  private readonly emitter = new EventEmitter();

  constructor(private readonly onListenerError: (event: NodeEventName, err: unknown) => void = () => {}) {
    this.emitter.setMaxListeners(0);
  }

  on<K extends NodeEventName>(event: K, listener: NodeEventListener<K>): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }

  emit<K extends NodeEventName>(event: K, payload: NodeEventMap[K]): void {
    for (const listener of this.emitter.listeners(event) as NodeEventListener<K>[]) {
      try {
        listener(payload);
      } catch (err) {
        this.onListenerError(event, err);
      }
    }
  }
}
