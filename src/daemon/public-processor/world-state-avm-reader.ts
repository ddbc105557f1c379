import type { AvmWorldStateReader } from '../../core/avm/index.js';
import { MerkleTreeId } from '../world-state/merkle-tree-id.js';
import type { WorldStateView } from '../world-state/world-state-view.js';

/**
 * The AVM's view of the trees, read synchronously from a world-state view or fork (SQLite under an in-memory
 * overlay). It sees the fork as it stands before the tx: the tx's own effects live in the AVM journal until the
 * processor applies them. Since nothing writes the fork while a tx runs, the tree sizes are read once and every
 * storage value and nullifier answer is kept for the rest of the tx: a call reads the instance registry's slots
 * and deployment nullifier of each contract it enters, however often the tx has entered it before.
 */
export class WorldStateAvmReader implements AvmWorldStateReader {
  private readonly noteHashTreeSize: bigint;
  private readonly l1ToL2MessageTreeSize: bigint;
  private readonly publicData = new Map<bigint, bigint>();
  private readonly nullifiers = new Map<bigint, boolean>();

  constructor(private readonly view: WorldStateView) {
    this.noteHashTreeSize = view.getTreeSize(MerkleTreeId.NOTE_HASH_TREE);
    this.l1ToL2MessageTreeSize = view.getTreeSize(MerkleTreeId.L1_TO_L2_MESSAGE_TREE);
  }

  getPublicData(leafSlot: bigint): bigint {
    let value = this.publicData.get(leafSlot);
    if (value === undefined) {
      value = this.view.getPublicStorageAt(leafSlot);
      this.publicData.set(leafSlot, value);
    }
    return value;
  }

  nullifierExists(siloedNullifier: bigint): boolean {
    let exists = this.nullifiers.get(siloedNullifier);
    if (exists === undefined) {
      exists = this.view.hasNullifier(siloedNullifier);
      this.nullifiers.set(siloedNullifier, exists);
    }
    return exists;
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
