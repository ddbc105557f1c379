import type { L2Block } from '../../core/block/l2-block.js';
import type { BlockProposal } from '../../core/p2p/block-proposal.js';
import type { Chain } from '../chain/chain.js';
import type { Logger } from '../logging/logger.js';
import type { SlotClock } from '../sequencer/slot-clock.js';
import { resumeStoredCheckpoint } from '../sequencer/stored-checkpoint.js';
import { CheckpointSponge } from '../sync/checkpoint-sponge.js';
import { verifyUpstreamCheckpoint } from '../sync/checkpoint-verification.js';

/**
 * Most blocks a gossiped proposal makes a node fetch before it: a validator back from a short stop. A node
 * further behind catches up with `--sync-from p2p` (docs/network.md), not while it holds the gossip queue.
 */
export const MAX_CATCH_UP_BLOCKS = 64;

export interface ProposalCatchUpOptions {
  readonly chain: Chain;
  readonly slots: SlotClock;
  /** Blocks `from` to `to` from the peers (req/resp `block`); fewer, from `from` on, when they serve fewer in time. */
  readonly fetchBlocks: (from: number, to: number) => Promise<L2Block[]>;
  readonly log: Logger;
}

/**
 * Brings a node that missed blocks (a validator that was stopped) up to a gossiped proposal's parent: the blocks
 * after its last checkpoint come from its peers by req/resp `block`, and are taken only when they chain, archive
 * after archive, to the parent the proposal names (its slot's proposer signed it) and each body hashes to its
 * header's blob sponge; applyBlock then checks every root. The checkpoints they complete are recorded: the
 * proposer built on them, which it does only once they were recorded. Their attestations are not known here
 * (4.1.2 reads checkpoints from the rollup; its req/resp carries none), so they are recorded without them.
 * Blocks of its own that the network pruned are unwound first. True when the proposal's parent is the tip.
 */
export async function catchUpToProposal(p: BlockProposal, o: ProposalCatchUpOptions): Promise<boolean> {
  const { chain, log } = o;
  const base = chain.store.checkpoints.latest()?.lastBlock ?? 0;
  const to = p.blockNumber - 1;
  if (to <= base) return false;
  if (to - base > MAX_CATCH_UP_BLOCKS) {
    log.warn(
      { blockNumber: p.blockNumber, behind: to - base },
      `block ${p.blockNumber} proposed for slot ${p.slotNumber} is ${to - base} blocks past this node's last checkpoint: not caught up over gossip (more than ${MAX_CATCH_UP_BLOCKS}); start the node with --sync-from p2p`,
    );
    return false;
  }
  const blocks = await o.fetchBlocks(base + 1, to);
  const problem = chainProblem(chain, base, blocks, p);
  if (problem) {
    log.warn(
      { blockNumber: p.blockNumber, from: base + 1, to },
      `block ${p.blockNumber} proposed for slot ${p.slotNumber} is not applied: this node misses blocks ${base + 1} to ${to} and ${problem}`,
    );
    return false;
  }
  const same = blocks.findIndex((b) => chain.store.getBlockHash(b.number) !== b.hash().value);
  const fresh = same === -1 ? [] : blocks.slice(same);
  // This node's own blocks past the last checkpoint that the network did not take (it pruned them) go first.
  const keep = (fresh[0]?.number ?? to + 1) - 1;
  if (chain.latestBlockNumber > keep) chain.unwindTo(keep);
  const sponge = new CheckpointSponge(chain.store);
  for (const b of fresh) {
    sponge.advance(b, sponge.verify(b));
    const messages = b.indexWithinCheckpoint === 0 ? chain.settlement.inboxMessages(b.checkpointNumber) : [];
    chain.applyBlock({ block: b, l1ToL2Messages: messages });
  }
  const recorded = recordCompleted(o, blocks, p);
  log.info(
    { from: base + 1, to, checkpoints: recorded },
    `caught up to block ${to} from peers (req/resp block) for the proposal of block ${p.blockNumber}; ${recorded} checkpoint(s) recorded`,
  );
  return chain.worldState.getArchiveSnapshot().equals(p.blockHeader.lastArchive);
}

/** Why `blocks` are not the chain from block `base` to the proposal's parent; undefined when they are. */
function chainProblem(chain: Chain, base: number, blocks: readonly L2Block[], p: BlockProposal): string | undefined {
  const to = p.blockNumber - 1;
  if (blocks.length !== to - base) return `its peers served ${blocks.length} of them`;
  let root = chain.getBlock(base)?.archive.root;
  for (const b of blocks) {
    if (!root || !b.header.lastArchive.root.equals(root))
      return `block ${b.number} does not extend block ${b.number - 1}`;
    root = b.archive.root;
  }
  const last = blocks.at(-1);
  return last?.archive.equals(p.blockHeader.lastArchive) ? undefined : `block ${to} is not the proposal's parent`;
}

/** Records the checkpoints the caught-up blocks complete (a later block, or the proposal, starts the next one). */
function recordCompleted(o: ProposalCatchUpOptions, blocks: readonly L2Block[], p: BlockProposal): number {
  const { chain } = o;
  let recorded = 0;
  for (;;) {
    const latest = chain.store.checkpoints.latest();
    const number = (latest?.number ?? 0) + 1;
    const own = blocks.filter((b) => b.checkpointNumber === number);
    const complete =
      blocks.some((b) => b.checkpointNumber > number) || (p.indexWithinCheckpoint === 0 && own.length > 0);
    const last = own.at(-1);
    if (!complete || !last) return recorded;
    const local = resumeStoredCheckpoint(chain, o.slots, own).complete();
    const landed = chain.settlement.publishCheckpoint(local);
    // On a real L1 the rollup is where checkpoints come from, not this catch-up.
    if (landed instanceof Promise) return recorded;
    const row = verifyUpstreamCheckpoint(
      { number, header: local.header, archiveRoot: last.archive.root, blocks: own, l1: landed, attestations: [] },
      chain.store,
    );
    chain.recordCheckpoint(row);
    recorded++;
  }
}
