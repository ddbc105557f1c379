import type { TxHash } from '../../core/tx-hash.js';
import type { Chain } from '../chain/chain.js';
import { UnwindRefusedError } from '../chain/unwind-blocks.js';
import { BlockRejectedError, WorldStateError } from '../world-state/world-state-errors.js';

/** A rollback the node refuses (target above the tip or not stored, below finality without force). */
export class RollbackRefusedError extends Error {
  override name = 'RollbackRefusedError';

  /** `finalizedBlockNumber` is set when force would do it: the target is below that finalized block. */
  constructor(
    message: string,
    readonly finalizedBlockNumber?: number,
  ) {
    super(message);
  }
}

export interface RollbackResult {
  readonly targetBlockNumber: number;
  readonly removedBlocks: number;
  /** Txs the removed blocks held. */
  readonly removedTxs: number;
  /** Of those, the ones back in the pool as pending (the others were no longer valid, or the pool was cleared). */
  readonly returnedTxs: number;
  /** World state and pool data were cleared and re-derived from the stored blocks (force below finality). */
  readonly rederived: boolean;
}

export interface RollbackParts {
  readonly chain: Chain;
  /** Forgets the pool's txs (inside the rollback's transaction). */
  readonly clearPool: () => void;
  /** Whether a tx is pending in the pool (after the rollback: did a removed block's tx come back?). */
  readonly isPending: (txHash: TxHash) => boolean;
}

/**
 * nodeAdmin_rollbackTo on a paused chain (docs/aztec-facts.md section 6.1): the blocks above the target go, with
 * their world state, logs, messages, contracts and receipts, in one SQLite transaction (unwindBlocks); their txs
 * return to the pool when still valid. Below the finalized block it takes `force`, and then the world state and
 * the pool's data are cleared and re-derived from the stored blocks, in the same transaction. Readers see the
 * chain before or after, never between: the transaction is synchronous and commits as a whole.
 */
export function rollbackChain(parts: RollbackParts, target: number, force: boolean): RollbackResult {
  const { chain } = parts;
  const latest = chain.latestBlockNumber;
  if (target > latest) {
    throw new RollbackRefusedError(`Cannot roll back to block ${target}: the chain's tip is block ${latest}`);
  }
  if (target > 0 && !chain.store.blocks.get(target)) {
    throw new RollbackRefusedError(`Cannot roll back to block ${target}: it is not stored on this node`);
  }
  if (target === latest) {
    return { targetBlockNumber: target, removedBlocks: 0, removedTxs: 0, returnedTxs: 0, rederived: false };
  }
  const finalized = chain.readTips().finalized.block.number;
  const rederive = target < finalized;
  if (rederive && !force) {
    throw new RollbackRefusedError(
      `Cannot roll back to block ${target}: it is before the finalized block ${finalized}. Pass force ` +
        "(true as nodeAdmin_rollbackTo's second param) to clear the world state and the pool data and re-derive " +
        'them from the stored blocks',
      finalized,
    );
  }
  try {
    const removed = chain.unwindTo(target, {
      force: rederive,
      rederive,
      inTransaction: rederive ? parts.clearPool : undefined,
    });
    const txs = removed.flatMap((b) => b.body.txEffects.map((e) => e.txHash));
    return {
      targetBlockNumber: target,
      removedBlocks: removed.length,
      removedTxs: txs.length,
      returnedTxs: txs.filter((h) => parts.isPending(h)).length,
      rederived: rederive,
    };
  } catch (err) {
    if (err instanceof UnwindRefusedError) throw new RollbackRefusedError(err.message);
    // A stored block that does not re-derive its header's roots: nothing was changed (the transaction rolled back).
    if (err instanceof BlockRejectedError || err instanceof WorldStateError) {
      throw new RollbackRefusedError(`Rolling back to block ${target} failed and changed nothing: ${err.message}`);
    }
    throw err;
  }
}
