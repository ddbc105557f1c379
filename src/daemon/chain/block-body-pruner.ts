import type { L2Block } from '../../core/block/l2-block.js';
import type { ChainStore } from '../store/chain-store.js';
import type { BlockObserver } from './block-observer.js';

/**
 * Bodies pruned per block that arrives, at most: enough to catch up on a long chain when the setting is first
 * turned on (three more per block than arrive), small enough that a block never waits long on it.
 */
export const BODIES_PRUNED_PER_BLOCK = 4;

/**
 * Block history pruning (--block-body-history-blocks, docs/operations.md): as each block is applied, inside its
 * transaction, the bodies of the oldest blocks beyond the latest `keep` go, a few at a time. Never above the
 * finalized block: a reorg or a rollback of a block must be able to give its txs back to the pool.
 */
export class BlockBodyPruner implements BlockObserver {
  constructor(
    private readonly store: ChainStore,
    private readonly keep: number,
  ) {}

  onBlockApplied(block: L2Block): void {
    const finalizedCheckpoint = this.store.meta.get('finalizedCheckpoint') ?? 0;
    const finalized = finalizedCheckpoint > 0 ? (this.store.checkpoints.get(finalizedCheckpoint)?.lastBlock ?? 0) : 0;
    const through = Math.min(finalized, block.number - this.keep);
    if (through >= this.store.oldestBlockWithBody()) this.store.pruneBodies(through, BODIES_PRUNED_PER_BLOCK);
  }

  onBlocksUnwound(): void {
    // The chain store lowers the pruned mark itself when blocks above it go.
  }
}
