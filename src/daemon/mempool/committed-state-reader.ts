import { MerkleTreeId } from '../world-state/merkle-tree-id.js';
import type { BlockSelector, WorldState } from '../world-state/world-state.js';

/** The committed state the mempool validates against: the latest block of the world state. */
export interface CommittedStateReader {
  latestBlockNumber(): number;
  /** A reader fixed to the latest block now: one per validation, so every check of a tx sees the same block. */
  atLatest(): CommittedStateAtBlock;
  /** A reader fixed to a committed block (a worker validating a tx on the block the main thread named). */
  atBlock(block: number): CommittedStateAtBlock;
}

export interface CommittedStateAtBlock {
  readonly blockNumber: number;
  nullifiersExist(nullifiers: readonly bigint[]): boolean[];
  archiveHasBlockHash(blockHash: bigint): boolean;
  publicDataAt(leafSlot: bigint): bigint;
}

/** The world state as the mempool reads it. */
export function worldStateReader(worldState: WorldState): CommittedStateReader {
  const at = (block: BlockSelector): CommittedStateAtBlock => {
    const view = worldState.view(block);
    return {
      blockNumber: view.blockNumber,
      nullifiersExist: (nullifiers) =>
        nullifiers.length === 0
          ? []
          : view.findLeafIndices(MerkleTreeId.NULLIFIER_TREE, nullifiers).map((i) => i !== undefined),
      archiveHasBlockHash: (hash) => view.findLeafIndices(MerkleTreeId.ARCHIVE, [hash])[0] !== undefined,
      publicDataAt: (slot) => view.getPublicStorageAt(slot),
    };
  };
  return {
    latestBlockNumber: () => worldState.latestBlockNumber,
    atLatest: () => at('latest'),
    atBlock: (block) => at(block),
  };
}
