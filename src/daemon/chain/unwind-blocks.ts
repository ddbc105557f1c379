import type { L2Block } from '../../core/block/l2-block.js';
import { NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP } from '../../core/constants.js';
import { type ChainParts, worldStateInput } from './apply-block.js';

export interface UnwindOptions {
  /** Allows unwinding below the finalized block (the world state then refuses unless history reaches the target). */
  readonly force?: boolean;
  /**
   * Instead of unwinding the world state, rebuild it: back to genesis, then every stored block up to the target
   * is applied again, each checked against its header (nodeAdmin_rollbackTo with force below finality).
   */
  readonly rederive?: boolean;
  /** More work that must commit together with the unwind, or not at all (clearing the pool's data). */
  readonly inTransaction?: () => void;
}

/** An unwind the chain refuses (below finality without force, below the retained world state history). */
export class UnwindRefusedError extends Error {
  override name = 'UnwindRefusedError';
}

/**
 * Removes the blocks above `target` (rollback, reorgs): in one SQLite transaction the chain store drops them
 * and what derives from them, the world state unwinds (or is re-derived from the blocks kept), the proven and
 * finalized marks come down if they were above, and every block observer takes the removed blocks back; then
 * it commits and announces it. Returns the removed blocks, newest first.
 */
export function unwindBlocks(chain: ChainParts, target: number, options: UnwindOptions = {}): L2Block[] {
  const { store, worldState } = chain;
  if (!Number.isInteger(target) || target < 0) {
    throw new UnwindRefusedError(`Unwind target must be a block number >= 0, got ${target}`);
  }
  const latest = store.latestBlockNumber();
  // Re-deriving at the tip still clears what reaches past it (the offline repair of a store that disagrees).
  if (target > latest || (target === latest && !options.rederive)) return [];
  // Tips are read only when they matter: a store being repaired may not give consistent ones.
  const finalized = options.force ? 0 : chain.tips.read().finalized.block.number;
  if (target < finalized && !options.force) {
    throw new UnwindRefusedError(
      `Cannot unwind to block ${target}: blocks up to ${finalized} are finalized (force overrides)`,
    );
  }
  const removed = chain.db.transaction(() => {
    const blocks = store.removeBlocksAbove(target);
    if (options.rederive) {
      rederiveWorldState(chain, target);
    } else {
      const result = worldState.unwindBlocks(target, { force: options.force });
      if (result.clearedToGenesis) {
        throw new UnwindRefusedError(
          `Cannot unwind to block ${target}: the world state no longer holds its history (it would have to resync from genesis)`,
        );
      }
    }
    const lastCheckpoint = store.checkpoints.latest()?.number ?? 0;
    for (const key of ['provenCheckpoint', 'finalizedCheckpoint'] as const) {
      if ((store.meta.get(key) ?? 0) > lastCheckpoint) store.meta.set(key, lastCheckpoint);
    }
    if (options.rederive) {
      // The rebuilt trees start with nothing final: they become final up to the chain's finalized block again.
      const finalizedCheckpoint = store.meta.get('finalizedCheckpoint') ?? 0;
      const finalBlock = finalizedCheckpoint > 0 ? (store.checkpoints.get(finalizedCheckpoint)?.lastBlock ?? 0) : 0;
      worldState.setFinalized(Math.min(finalBlock, target));
    }
    for (const observer of chain.observers) observer.onBlocksUnwound(target, blocks);
    options.inTransaction?.();
    return blocks;
  })();
  const tips = chain.tips.read();
  chain.events.emit('unwound', { targetBlockNumber: target, removed: removed.length, tips });
  chain.events.emit('tips', tips);
  return removed;
}

/**
 * The world state of blocks 0 to `target` from the stored blocks alone: the trees go back to genesis (an unwind
 * to block 0, or a reset when history was pruned), then each block is applied as applyBlock applies a synced
 * block, its roots checked against its header. Runs inside the unwind's transaction: a mismatch undoes it all.
 */
function rederiveWorldState(chain: ChainParts, target: number): void {
  const { store, worldState } = chain;
  const oldestBody = store.oldestBlockWithBody();
  if (oldestBody > 1 && target > 0) {
    throw new UnwindRefusedError(
      `Cannot re-derive the world state up to block ${target}: the bodies of blocks 1 to ${oldestBody - 1} were ` +
        'pruned (--block-body-history-blocks); restore a snapshot or resync from a node that keeps them',
    );
  }
  worldState.unwindBlocks(0, { force: true });
  for (let n = 1; n <= target; n++) {
    const block = store.getBlock(n);
    if (!block) {
      throw new UnwindRefusedError(`Cannot re-derive the world state up to block ${target}: block ${n} is not stored`);
    }
    let messages: bigint[] = [];
    if (block.indexWithinCheckpoint === 0) {
      // The checkpoint's messages as its first block inserted them: the leaves up to the block's message tree end.
      const end = Number(block.header.state.l1ToL2MessageTree.nextAvailableLeafIndex);
      messages = store.l1ToL2Messages.leavesInRange(end - NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP, end);
    }
    worldState.applyBlock(worldStateInput(block, messages, store.stateOverrides.ofBlock(n)));
  }
}
