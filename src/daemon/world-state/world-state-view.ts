import { AppendOnlyTreeSnapshot } from '../../core/block/append-only-tree-snapshot.js';
import { PartialStateReference } from '../../core/block/partial-state-reference.js';
import { StateReference } from '../../core/block/state-reference.js';
import { Fr } from '../../core/fr.js';
import { readField32 } from '../../core/serialize/field-bytes.js';
import { checkedFieldBuffer } from './field-buffer.js';
import { type IndexedLeafPreimage, toLeafPreimage } from './indexed-leaf.js';
import { MerkleTreeId, parseTreeId } from './merkle-tree-id.js';
import { SiblingPath } from './sibling-path.js';
import type { TreeOverlay } from './tree-overlay.js';
import type { MembershipWitness, NullifierMembershipWitness, PublicDataWitness } from './witnesses.js';
import { InvalidWorldStateArgumentError } from './world-state-errors.js';

/** A tree's id, root, size and height. */
export interface TreeMetadata {
  readonly treeId: MerkleTreeId;
  readonly root: bigint;
  readonly size: bigint;
  readonly depth: number;
}

export interface LowLeafResult {
  readonly index: bigint;
  /** True when the leaf holds the searched key itself. */
  readonly alreadyPresent: boolean;
  readonly preimage: IndexedLeafPreimage;
}

/** Where a leaf is; `blockNumber` is the block that inserted it, undefined if it is not committed yet. */
export interface LeafLocationResult {
  readonly index: bigint;
  readonly blockNumber: number | undefined;
}

/** Opens one tree of a view on first use. */
export type TreeSource = (id: MerkleTreeId) => TreeOverlay;

/**
 * The five trees as of one block, plus whatever a fork wrote on top: reads, sibling paths and the
 * witnesses the RPC serves. Committed reads use a view with nothing written; forks extend it with writes.
 * Every call first runs `guard`, which refuses the view once its base block was unwound or pruned.
 */
export class WorldStateView {
  constructor(
    /** The block this view reads (the base block, for a fork). */
    readonly blockNumber: number,
    private readonly source: TreeSource,
    protected readonly guard: () => void,
  ) {}

  /** Trees opened so far; a read of one tree opens only that one. */
  private readonly opened: (TreeOverlay | undefined)[] = [];

  protected tree(id: MerkleTreeId): TreeOverlay {
    this.guard();
    let t = this.opened[id];
    if (!t) {
      t = this.source(id);
      this.opened[id] = t;
    }
    return t;
  }

  getTreeSnapshot(treeId: MerkleTreeId): AppendOnlyTreeSnapshot {
    const t = this.tree(parseTreeId(treeId));
    return new AppendOnlyTreeSnapshot(new Fr(readField32(t.root())), t.treeSize);
  }

  /** The state reference a block header carries (every tree but the archive). */
  getStateReference(): StateReference {
    return new StateReference(
      this.getTreeSnapshot(MerkleTreeId.L1_TO_L2_MESSAGE_TREE),
      new PartialStateReference(
        this.getTreeSnapshot(MerkleTreeId.NOTE_HASH_TREE),
        this.getTreeSnapshot(MerkleTreeId.NULLIFIER_TREE),
        this.getTreeSnapshot(MerkleTreeId.PUBLIC_DATA_TREE),
      ),
    );
  }

  /** The archive snapshot (the next block header's lastArchive). */
  getArchiveSnapshot(): AppendOnlyTreeSnapshot {
    return this.getTreeSnapshot(MerkleTreeId.ARCHIVE);
  }

  getTreeInfo(treeId: MerkleTreeId): TreeMetadata {
    const t = this.tree(parseTreeId(treeId));
    return { treeId, root: readField32(t.root()), size: BigInt(t.treeSize), depth: t.info.height };
  }

  /** A tree's size alone: unlike getTreeInfo, it never rehashes what a fork changed to get the root. */
  getTreeSize(treeId: MerkleTreeId): bigint {
    return BigInt(this.tree(parseTreeId(treeId)).treeSize);
  }

  getSiblingPath(treeId: MerkleTreeId, leafIndex: bigint): SiblingPath {
    const t = this.tree(parseTreeId(treeId));
    return new SiblingPath(t.getSiblingPath(leafIndexNumber(leafIndex, t.info.height, t.info.name)));
  }

  /** The raw value of an append-only leaf or the key of an indexed leaf; 0 for an empty leaf. */
  getLeafValue(treeId: MerkleTreeId, leafIndex: bigint): bigint {
    const t = this.tree(parseTreeId(treeId));
    return readField32(t.getLeafValue(leafIndexNumber(leafIndex, t.info.height, t.info.name)));
  }

  /** The preimage of a nullifier or public data leaf; undefined when the leaf is empty. */
  getLeafPreimage(treeId: MerkleTreeId, leafIndex: bigint): IndexedLeafPreimage | undefined {
    const t = this.tree(parseTreeId(treeId));
    const leaf = t.getLeaf(leafIndexNumber(leafIndex, t.info.height, t.info.name));
    return leaf && toLeafPreimage(leaf);
  }

  /** Leaf indices of values (append-only: first occurrence) or keys (indexed trees); undefined when absent. */
  findLeafIndices(treeId: MerkleTreeId, values: readonly bigint[]): (bigint | undefined)[] {
    return this.findLeafLocations(treeId, values).map((l) => l?.index);
  }

  findLeafLocations(treeId: MerkleTreeId, values: readonly bigint[]): (LeafLocationResult | undefined)[] {
    const t = this.tree(parseTreeId(treeId));
    const found = t.findLeaves(values.map((v, i) => checkedFieldBuffer(v, `leaf value ${i}`)));
    return found.map((f) => f && { index: BigInt(f.index), blockNumber: f.block });
  }

  /** The leaf with the largest key <= `key` in an indexed tree. */
  findLowLeaf(treeId: MerkleTreeId, key: bigint): LowLeafResult {
    const t = this.tree(parseTreeId(treeId));
    const low = t.findLowLeaf(checkedFieldBuffer(key, 'key'));
    return { index: BigInt(low.index), alreadyPresent: low.alreadyPresent, preimage: toLeafPreimage(low.leaf) };
  }

  /** The nullifier's own leaf and path; undefined when the nullifier is not in the tree. */
  getNullifierMembershipWitness(nullifier: bigint): NullifierMembershipWitness | undefined {
    const t = this.tree(MerkleTreeId.NULLIFIER_TREE);
    const low = t.findLowLeaf(checkedFieldBuffer(nullifier, 'nullifier'));
    if (!low.alreadyPresent) return undefined;
    return this.indexedWitness(t, low.index);
  }

  /**
   * The low leaf of a nullifier (largest key below it) for non-inclusion proofs. Like Aztec 4.1.2, a
   * nullifier already in the tree gets its own leaf.
   */
  getLowNullifierMembershipWitness(nullifier: bigint): NullifierMembershipWitness {
    const t = this.tree(MerkleTreeId.NULLIFIER_TREE);
    return this.indexedWitness(t, t.findLowLeaf(checkedFieldBuffer(nullifier, 'nullifier')).index);
  }

  /** The low leaf of a public data tree slot: a key match carries the value, otherwise the slot is empty. */
  getPublicDataWitness(leafSlot: bigint): PublicDataWitness {
    const t = this.tree(MerkleTreeId.PUBLIC_DATA_TREE);
    return this.indexedWitness(t, t.findLowLeaf(checkedFieldBuffer(leafSlot, 'leaf slot')).index);
  }

  /** Whether a (siloed) nullifier is in the nullifier tree. */
  hasNullifier(nullifier: bigint): boolean {
    return this.tree(MerkleTreeId.NULLIFIER_TREE).findLowLeaf(checkedFieldBuffer(nullifier, 'nullifier'))
      .alreadyPresent;
  }

  /** The value at a public data tree leaf slot (already siloed); 0 when the slot was never written. */
  getPublicStorageAt(leafSlot: bigint): bigint {
    const low = this.tree(MerkleTreeId.PUBLIC_DATA_TREE).findLowLeaf(checkedFieldBuffer(leafSlot, 'leaf slot'));
    return low.alreadyPresent ? readField32(low.leaf.value) : 0n;
  }

  getNoteHashMembershipWitness(noteHash: bigint): MembershipWitness | undefined {
    return this.appendOnlyWitness(MerkleTreeId.NOTE_HASH_TREE, noteHash);
  }

  /** Proves a block hash is an archive leaf of this view (see WorldState.getBlockHashMembershipWitness). */
  getArchiveMembershipWitness(blockHash: bigint): MembershipWitness | undefined {
    return this.appendOnlyWitness(MerkleTreeId.ARCHIVE, blockHash);
  }

  getL1ToL2MessageMembershipWitness(message: bigint): MembershipWitness | undefined {
    return this.appendOnlyWitness(MerkleTreeId.L1_TO_L2_MESSAGE_TREE, message);
  }

  private appendOnlyWitness(treeId: MerkleTreeId, value: bigint): MembershipWitness | undefined {
    const t = this.tree(treeId);
    const [found] = t.findLeaves([checkedFieldBuffer(value, 'leaf value')]);
    if (!found) return undefined;
    return { index: BigInt(found.index), siblingPath: new SiblingPath(t.getSiblingPath(found.index)) };
  }

  private indexedWitness(t: TreeOverlay, index: number): NullifierMembershipWitness {
    const leaf = t.getLeaf(index);
    if (!leaf) throw new Error(`${t.info.name}: low leaf ${index} is empty`);
    return {
      index: BigInt(index),
      leafPreimage: toLeafPreimage(leaf),
      siblingPath: new SiblingPath(t.getSiblingPath(index)),
    };
  }
}

function leafIndexNumber(index: bigint, height: number, tree: string): number {
  if (typeof index !== 'bigint' || index < 0n || index >= 2n ** BigInt(height)) {
    throw new InvalidWorldStateArgumentError(`Leaf index ${String(index)} is outside ${tree} (0 to 2^${height} - 1)`);
  }
  return Number(index);
}
