import { toHex64 } from '../../core/fr.js';
import type { Chain } from '../chain/chain.js';
import type { L2Tips } from '../chain/l2-tips.js';
import type { Logger } from '../logging/logger.js';
import { findCommonAncestor } from './common-ancestor.js';
import type { SyncStage } from './sync-stage.js';
import type { Upstream } from './upstream.js';

/** The upstream's chain no longer holds one of this node's blocks: unwind to the common ancestor. */
export class UpstreamReorgedError extends Error {
  override name = 'UpstreamReorgedError';
}

/** The upstream's chain leaves this node's finalized blocks: refused for good (until the upstream changes). */
export class SyncDivergedError extends Error {
  override name = 'SyncDivergedError';
}

/**
 * Reorg handling: notices that the upstream's chain no longer holds this node's tip, and unwinds the chain to
 * the highest block both hold, never below the finalized block, then every stage after it (reth's pipeline
 * unwind). The block verifier raises UpstreamReorgedError for blocks it finds replaced on the way.
 */
export class UpstreamReorg {
  constructor(
    private readonly o: {
      readonly upstream: Upstream;
      readonly chain: () => Chain;
      readonly log: Logger;
      /** What else goes back with the chain, in the order they are unwound. */
      readonly stages: readonly SyncStage[];
    },
  ) {}

  /** At or above the upstream's tip, this node's block must be the upstream's. */
  checkTip(tips: L2Tips): void {
    const chain = this.o.chain();
    const ours = chain.latestBlockNumber;
    const target = tips.proposed.number;
    if (ours === 0 || target > ours) return;
    const ourHash = chain.store.getBlockHash(ours) as bigint;
    if (target === ours && BigInt(tips.proposed.hash) === ourHash) return;
    const why =
      target === ours
        ? `the upstream's block ${ours} is ${tips.proposed.hash}, this node's ${toHex64(ourHash)}`
        : `the upstream is at block ${target}, this node at block ${ours}`;
    throw new UpstreamReorgedError(why);
  }

  /** Unwinds to the highest block both chains hold at or below `high`, never below the finalized block. */
  async unwindToCommonAncestor(high: number, why: string): Promise<void> {
    const chain = this.o.chain();
    const { upstream, log } = this.o;
    const finalized = chain.readTips().finalized.block.number;
    const agreesAt = async (n: number) => n === 0 || (await upstream.blockHash(n)) === chain.store.getBlockHash(n);
    if (!(await agreesAt(finalized))) {
      throw new SyncDivergedError(
        `the upstream ${upstream.url} no longer has this node's finalized block ${finalized} (${why}): ` +
          'finalized blocks are never unwound, so the sync stopped. Follow a node of this chain, or roll this node back ' +
          `below block ${finalized} with nodeAdmin_rollbackTo and force`,
      );
    }
    const ancestor = await findCommonAncestor(finalized, high, agreesAt);
    const from = chain.latestBlockNumber;
    chain.unwindTo(ancestor);
    for (const stage of this.o.stages) stage.unwind(ancestor);
    log.warn(
      { upstream: upstream.url, from, to: ancestor, removed: from - ancestor, reason: why },
      `the upstream reorganised (${why}): unwound ${from - ancestor} block${from - ancestor === 1 ? '' : 's'} to the common ancestor, block ${ancestor}`,
    );
  }
}
