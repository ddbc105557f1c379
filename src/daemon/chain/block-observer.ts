import type { L2Block } from '../../core/block/l2-block.js';

/**
 * A service that must change together with the chain (docs/architecture.md section 3.1, step 4): the mempool marks a
 * block's txs mined and drops txs whose nullifiers are now spent; on an unwind it takes the removed
 * blocks' txs back. Called by `applyBlock` / the unwind INSIDE their SQLite transaction, so a crash
 * leaves the observer and the chain at the same block; throwing aborts the whole block.
 */
export interface BlockObserver {
  /** After the world state and the chain store wrote `block` (same transaction, not yet committed). */
  onBlockApplied(block: L2Block): void;
  /** After blocks above `targetBlockNumber` were removed (same transaction); `removed` is newest first. */
  onBlocksUnwound(targetBlockNumber: number, removed: readonly L2Block[]): void;
}
