import type { L2Block } from '../../core/block/l2-block.js';
import type { ChainStore } from '../store/chain-store.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { MerkleTreeId } from '../world-state/merkle-tree-id.js';
import type { BlockToApply, WorldState } from '../world-state/world-state.js';
import { BlockRejectedError } from '../world-state/world-state-errors.js';
import type { PublicDataWrite, WorldStateFork } from '../world-state/world-state-fork.js';
import type { BlockObserver } from './block-observer.js';
import type { ChainEvents } from './chain-events.js';
import type { ChainTips } from './chain-tips.js';

/** What applyBlock and the unwind work on: the database and everything that must change with a block. */
export interface ChainParts {
  readonly db: SqliteDatabase;
  readonly worldState: WorldState;
  readonly store: ChainStore;
  readonly observers: readonly BlockObserver[];
  readonly events: ChainEvents;
  readonly tips: ChainTips;
}

export interface ApplyBlockInput {
  readonly block: L2Block;
  /** The checkpoint's L1-to-L2 messages (at most 1024) when the block is the first of its checkpoint. */
  readonly l1ToL2Messages: readonly bigint[];
  /**
   * A fork of the latest block already holding the block's effects (the sequencer built the block on it): it
   * is committed instead of applying the effects again. Without it the effects are applied here (sync).
   */
  readonly fork?: WorldStateFork;
  /**
   * Public data writes the block applies before its txs (the state cheat codes, docs/cheat-codes.md): in the
   * fork already when one is given, applied here otherwise; recorded beside the block either way.
   */
  readonly stateOverrides?: readonly PublicDataWrite[];
  /** A locally built block took the pending overrides up to this queue position: they leave the queue with it. */
  readonly pendingOverridesThrough?: number;
}

/**
 * THE one path for a block (docs/architecture.md section 3.1), whoever built it: in one SQLite transaction the world state
 * applies the effects and checks the roots against the header, the chain store writes the block and what
 * derives from it, and every block observer (the mempool) updates; then it commits and announces the block.
 * Anything that throws before the commit rolls everything back: a crash leaves the previous block or this one.
 */
export function applyBlock(chain: ChainParts, input: ApplyBlockInput): void {
  const started = performance.now();
  const { block, l1ToL2Messages, fork } = input;
  const stateOverrides = input.stateOverrides ?? [];
  const { worldState, store } = chain;
  const n = block.number;
  const first = block.indexWithinCheckpoint === 0;
  checkPosition(chain, block);
  if (!first && l1ToL2Messages.length > 0) {
    throw new BlockRejectedError(
      `Block ${n} is block ${block.indexWithinCheckpoint} of checkpoint ${block.checkpointNumber}: only a checkpoint's first block brings L1-to-L2 messages`,
    );
  }
  const messagesStart = worldState.getTreeInfo('latest', MerkleTreeId.L1_TO_L2_MESSAGE_TREE).size;
  chain.db.transaction(() => {
    const archiveBefore = worldState.getArchiveSnapshot();
    if (!archiveBefore.equals(block.header.lastArchive)) {
      throw new BlockRejectedError(
        `Block ${n} lastArchive (${block.header.lastArchive.root}, ${block.header.lastArchive.nextAvailableLeafIndex}) is not the archive after block ${n - 1} (${archiveBefore.root}, ${archiveBefore.nextAvailableLeafIndex})`,
      );
    }
    const blockHash = block.hash().value;
    if (fork) {
      worldState.commitFork(fork, { blockNumber: n, blockHash, state: block.header.state });
    } else {
      worldState.applyBlock(worldStateInput(block, l1ToL2Messages, stateOverrides));
    }
    const archive = worldState.getArchiveSnapshot();
    if (!archive.equals(block.archive)) {
      throw new BlockRejectedError(
        `Block ${n} archive (${block.archive.root}, ${block.archive.nextAvailableLeafIndex}) differs from the archive after applying it (${archive.root}, ${archive.nextAvailableLeafIndex})`,
      );
    }
    store.writeBlock({
      block,
      l1ToL2Messages,
      l1ToL2MessageStartIndex: Number(messagesStart),
      stateOverrides,
      ...(input.pendingOverridesThrough === undefined
        ? {}
        : { pendingOverridesThrough: input.pendingOverridesThrough }),
    });
    for (const observer of chain.observers) observer.onBlockApplied(block);
  })();
  const durationMs = performance.now() - started;
  const tips = chain.tips.read();
  chain.events.emit('block', { block, tips, durationMs });
  chain.events.emit('tips', tips);
}

/**
 * What the world state applies for a block: its effects, its checkpoint's messages when it is the first block,
 * its state overrides, and the header's state and archive to check against. Shared by applyBlock and the re-derivation of the world
 * state from stored blocks (a forced rollback), so both apply a block the same way.
 */
export function worldStateInput(
  block: L2Block,
  l1ToL2Messages: readonly bigint[],
  stateOverrides: readonly PublicDataWrite[] = [],
): BlockToApply {
  return {
    stateOverrides,
    blockNumber: block.number,
    blockHash: block.hash().value,
    state: block.header.state,
    lastArchive: block.header.lastArchive,
    firstInCheckpoint: block.indexWithinCheckpoint === 0,
    l1ToL2Messages,
    txs: block.body.txEffects.map((e) => ({
      noteHashes: e.noteHashes.map((f) => f.value),
      nullifiers: e.nullifiers.map((f) => f.value),
      publicDataWrites: e.publicDataWrites.map((w) => ({ leafSlot: w.leafSlot.value, value: w.value.value })),
    })),
  };
}

/** The block must extend the chain: the next number, and the next place in the current or a new checkpoint. */
function checkPosition(chain: ChainParts, block: L2Block): void {
  const latest = chain.store.latestBlockNumber();
  if (block.number !== latest + 1) {
    throw new BlockRejectedError(`Block ${block.number} cannot be applied: the chain is at block ${latest}`);
  }
  const previous = latest === 0 ? undefined : chain.store.blocks.get(latest);
  const prevCheckpoint = previous?.checkpoint ?? 0;
  const expected =
    block.indexWithinCheckpoint === 0
      ? { checkpoint: prevCheckpoint + 1, index: 0 }
      : { checkpoint: prevCheckpoint, index: (previous?.indexInCheckpoint ?? -1) + 1 };
  if (block.checkpointNumber !== expected.checkpoint || block.indexWithinCheckpoint !== expected.index) {
    throw new BlockRejectedError(
      `Block ${block.number} claims position ${block.indexWithinCheckpoint} in checkpoint ${block.checkpointNumber}; after block ${latest} (checkpoint ${prevCheckpoint}) it must be block 0 of checkpoint ${prevCheckpoint + 1} or block ${(previous?.indexInCheckpoint ?? -1) + 1} of checkpoint ${prevCheckpoint}`,
    );
  }
}
