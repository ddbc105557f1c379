import type { AvmWorldStateReader } from '../../core/avm/index.js';
import { MerkleTreeId } from '../world-state/merkle-tree-id.js';
import type { WorldStateView } from '../world-state/world-state-view.js';

/**
 * The AVM's view of the trees, read synchronously from a world-state view or fork (SQLite under an in-memory
 * overlay). It sees the fork as it stands before the tx: the tx's own effects live in the AVM journal until the
 * processor applies them. The tree sizes are read once, since nothing writes the fork while a tx runs.
 */
export class WorldStateAvmReader implements AvmWorldStateReader {
  private readonly noteHashTreeSize: bigint;
  private readonly l1ToL2MessageTreeSize: bigint;

  constructor(private readonly view: WorldStateView) {
    this.noteHashTreeSize = view.getTreeInfo(MerkleTreeId.NOTE_HASH_TREE).size;
    this.l1ToL2MessageTreeSize = view.getTreeInfo(MerkleTreeId.L1_TO_L2_MESSAGE_TREE).size;
  }

  getPublicData(leafSlot: bigint): bigint {
    return this.view.getPublicStorageAt(leafSlot);
  }

  nullifierExists(siloedNullifier: bigint): boolean {
    return this.view.findLowLeaf(MerkleTreeId.NULLIFIER_TREE, siloedNullifier).alreadyPresent;
  }

  getNoteHashTreeSize(): bigint {
    return this.noteHashTreeSize;
  }

  getNoteHashLeaf(index: bigint): bigint | undefined {
    return index >= 0n && index < this.noteHashTreeSize
      ? this.view.getLeafValue(MerkleTreeId.NOTE_HASH_TREE, index)
      : undefined;
  }

  getL1ToL2MessageLeaf(index: bigint): bigint | undefined {
    return index >= 0n && index < this.l1ToL2MessageTreeSize
      ? this.view.getLeafValue(MerkleTreeId.L1_TO_L2_MESSAGE_TREE, index)
      : undefined;
  }
}
