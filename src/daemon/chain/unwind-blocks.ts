import type { L2Block } from '../../core/block/l2-block.js';
import type { ChainParts } from './apply-block.js';

export interface UnwindOptions {
  /** Allows unwinding below the finalized block (the world state then refuses unless history reaches the target). */
  readonly force?: boolean;
}

/** An unwind the chain refuses (below finality without force, below the retained world state history). */
export class UnwindRefusedError extends Error {
  override name = 'UnwindRefusedError';
}

/**
 * Removes the blocks above `target` (rollback, reorgs): in one SQLite transaction the chain store drops them
 * and what derives from them, the world state unwinds, the proven and finalized marks come down if they were
 * above, and every block observer takes the removed blocks back; then it commits and announces it.
 * Returns the removed blocks, newest first.
 */
export function unwindBlocks(chain: ChainParts, target: number, options: UnwindOptions = {}): L2Block[] {
  const { store, worldState } = chain;
  if (!Number.isInteger(target) || target < 0) {
    throw new UnwindRefusedError(`Unwind target must be a block number >= 0, got ${target}`);
  }
  const latest = store.latestBlockNumber();
  if (target >= latest) return [];
  const finalized = chain.tips.read().finalized.block.number;
  if (target < finalized && !options.force) {
    throw new UnwindRefusedError(
      `Cannot unwind to block ${target}: blocks up to ${finalized} are finalized (force overrides)`,
    );
  }
  const removed = chain.db.transaction(() => {
    const blocks = store.removeBlocksAbove(target);
    const result = worldState.unwindBlocks(target, { force: options.force });
    if (result.clearedToGenesis) {
      throw new UnwindRefusedError(
        `Cannot unwind to block ${target}: the world state no longer holds its history (it would have to resync from genesis)`,
      );
    }
    const lastCheckpoint = store.checkpoints.latest()?.number ?? 0;
    for (const key of ['provenCheckpoint', 'finalizedCheckpoint'] as const) {
      if ((store.meta.get(key) ?? 0) > lastCheckpoint) store.meta.set(key, lastCheckpoint);
    }
    for (const observer of chain.observers) observer.onBlocksUnwound(target, blocks);
    return blocks;
  })();
  const tips = chain.tips.read();
  chain.events.emit('unwound', { targetBlockNumber: target, removed: removed.length, tips });
  chain.events.emit('tips', tips);
  return removed;
}
