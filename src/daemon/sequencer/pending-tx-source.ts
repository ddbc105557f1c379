import type { Tx } from '../../core/tx/tx.js';
import type { TxHash } from '../../core/tx-hash.js';

/**
 * The one link between the mempool and the sequencer: where the sequencer takes transactions from, and how it
 * learns that one arrived (the mempool implements it). Kept as an interface so the block builder can be tested
 * with a plain list and knows nothing of pool internals.
 */
export interface PendingTxSource {
  /** Pending txs eligible for the next block, highest priority fee first (ties: higher tx hash first). */
  pendingTxsByPriority(): Iterable<Tx>;
  /** A tx that failed while a block was being built is removed from the pool, with the reason logged. */
  dropTx(txHash: TxHash, reason: string): void;
  /** Calls `listener` after each tx that entered the pool (an on-demand sequencer builds at once). */
  onTxAdded(listener: () => void): void;
}
