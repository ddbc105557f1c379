/**
 * An in-memory world-state fork with the methods Aztec's TypeScript simulator calls on a
 * `MerkleTreeWriteOperations` (through `PublicTreesDB` and, at tx level, `HintingMerkleWriteOperations`).
 *
 * Execution results (gas, return values, revert status, side effects) depend only on the leaf values the fork
 * answers: the low leaf of an indexed-tree lookup, its preimage, and the leaves of the append-only trees. Roots
 * and sibling paths only feed the proving hints, so they are stand-ins here (a root is a digest of the tree's
 * leaves, which changes with every write and comes back on a revert; every sibling path is zeros). This keeps
 * the oracle fast enough for thousands of differential runs without Aztec's hashing trees and their LMDB store.
 */
import { createHash } from 'node:crypto';
import { Fr } from '@aztec/foundation/curves/bn254';
import { SiblingPath } from '@aztec/foundation/trees';
import type { MerkleTreeWriteOperations } from '@aztec/stdlib/interfaces/server';
import {
  AppendOnlyTreeSnapshot,
  MerkleTreeId,
  NullifierLeaf,
  NullifierLeafPreimage,
  PublicDataTreeLeaf,
  PublicDataTreeLeafPreimage,
} from '@aztec/stdlib/trees';
import { PartialStateReference, StateReference } from '@aztec/stdlib/tx';

const DEPTHS: Record<number, number> = {
  [MerkleTreeId.NULLIFIER_TREE]: 42,
  [MerkleTreeId.NOTE_HASH_TREE]: 42,
  [MerkleTreeId.PUBLIC_DATA_TREE]: 40,
  [MerkleTreeId.L1_TO_L2_MESSAGE_TREE]: 36,
  [MerkleTreeId.ARCHIVE]: 30,
};

/** A leaf of an indexed tree (nullifier: value unused), linked to the next larger key. */
interface IndexedLeaf {
  key: bigint;
  value: bigint;
  nextKey: bigint;
  nextIndex: bigint;
}

/** One indexed tree: leaves by index, plus the real (non-padding) keys sorted, for low-leaf lookups. */
interface IndexedTree {
  leaves: IndexedLeaf[];
  sorted: { key: bigint; index: bigint }[];
}

interface ForkState {
  nullifiers: IndexedTree;
  publicData: IndexedTree;
  noteHashes: bigint[];
  l1ToL2: bigint[];
}

function copyState(s: ForkState): ForkState {
  const copyTree = (t: IndexedTree): IndexedTree => ({ leaves: t.leaves.slice(), sorted: t.sorted.slice() });
  return {
    nullifiers: copyTree(s.nullifiers),
    publicData: copyTree(s.publicData),
    noteHashes: s.noteHashes.slice(),
    l1ToL2: s.l1ToL2.slice(),
  };
}

/** Index in `sorted` of the largest key <= value (the low leaf); the tree always holds key 0. */
function lowLeafPosition(sorted: { key: bigint }[], value: bigint): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid].key <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Inserts or updates `key`; returns the low leaf before the write and the written leaf, with their indices. */
function indexedInsert(tree: IndexedTree, key: bigint, value: bigint) {
  const pos = lowLeafPosition(tree.sorted, key);
  const lowIndex = tree.sorted[pos].index;
  const low = tree.leaves[Number(lowIndex)];
  if (low.key === key) {
    const updated = { ...low, value };
    tree.leaves[Number(lowIndex)] = updated;
    return { low: { leaf: low, index: lowIndex }, inserted: { leaf: updated, index: lowIndex } };
  }
  const index = BigInt(tree.leaves.length);
  const leaf = { key, value, nextKey: low.nextKey, nextIndex: low.nextIndex };
  tree.leaves.push(leaf);
  tree.leaves[Number(lowIndex)] = { ...low, nextKey: key, nextIndex: index };
  tree.sorted.splice(pos + 1, 0, { key, index });
  return { low: { leaf: low, index: lowIndex }, inserted: { leaf, index } };
}

function emptyIndexedTree(): IndexedTree {
  return { leaves: [{ key: 0n, value: 0n, nextKey: 0n, nextIndex: 0n }], sorted: [{ key: 0n, index: 0n }] };
}

/** Initial contents of the fork: siloed nullifiers, public data by leaf slot, and the two append-only trees. */
export interface OracleForkContents {
  nullifiers: bigint[];
  publicData: { leafSlot: bigint; value: bigint }[];
  noteHashes: bigint[];
  l1ToL2Messages: bigint[];
}

export class OracleFork {
  private state: ForkState;
  private readonly checkpoints: ForkState[] = [];

  constructor(contents: OracleForkContents) {
    this.state = { nullifiers: emptyIndexedTree(), publicData: emptyIndexedTree(), noteHashes: [], l1ToL2: [] };
    for (const n of contents.nullifiers) indexedInsert(this.state.nullifiers, n, 0n);
    for (const w of contents.publicData) indexedInsert(this.state.publicData, w.leafSlot, w.value);
    this.state.noteHashes.push(...contents.noteHashes);
    this.state.l1ToL2.push(...contents.l1ToL2Messages);
  }

  /** The fork typed as the simulator expects it; only the methods it calls are implemented. */
  asMerkleTreeWriteOperations(): MerkleTreeWriteOperations {
    return this as unknown as MerkleTreeWriteOperations;
  }

  private indexed(treeId: MerkleTreeId): IndexedTree {
    if (treeId === MerkleTreeId.NULLIFIER_TREE) return this.state.nullifiers;
    if (treeId === MerkleTreeId.PUBLIC_DATA_TREE) return this.state.publicData;
    throw new Error(`oracle fork: tree ${MerkleTreeId[treeId]} is not indexed`);
  }

  private appendOnly(treeId: MerkleTreeId): bigint[] {
    if (treeId === MerkleTreeId.NOTE_HASH_TREE) return this.state.noteHashes;
    if (treeId === MerkleTreeId.L1_TO_L2_MESSAGE_TREE) return this.state.l1ToL2;
    throw new Error(`oracle fork: tree ${MerkleTreeId[treeId]} is not append-only`);
  }

  private size(treeId: MerkleTreeId): bigint {
    if (treeId === MerkleTreeId.ARCHIVE) return 1n;
    if (treeId === MerkleTreeId.NULLIFIER_TREE || treeId === MerkleTreeId.PUBLIC_DATA_TREE) {
      return BigInt(this.indexed(treeId).leaves.length);
    }
    return BigInt(this.appendOnly(treeId).length);
  }

  /** A stand-in root: a digest of the tree's leaves, truncated to 31 bytes so it is a field. */
  private root(treeId: MerkleTreeId): Buffer {
    const h = createHash('sha256').update(String(treeId));
    if (treeId === MerkleTreeId.NULLIFIER_TREE || treeId === MerkleTreeId.PUBLIC_DATA_TREE) {
      for (const l of this.indexed(treeId).leaves) h.update(`${l.key},${l.value},${l.nextKey},${l.nextIndex};`);
    } else if (treeId !== MerkleTreeId.ARCHIVE) {
      for (const l of this.appendOnly(treeId)) h.update(`${l};`);
    }
    return Buffer.concat([Buffer.alloc(1), h.digest().subarray(0, 31)]);
  }

  private snapshot(treeId: MerkleTreeId): AppendOnlyTreeSnapshot {
    return new AppendOnlyTreeSnapshot(Fr.fromBuffer(this.root(treeId)), Number(this.size(treeId)));
  }

  private zeroPath(treeId: MerkleTreeId) {
    const depth = DEPTHS[treeId];
    return new SiblingPath(depth, new Array(depth).fill(Buffer.alloc(32)));
  }

  private preimage(treeId: MerkleTreeId, leaf: IndexedLeaf) {
    return treeId === MerkleTreeId.NULLIFIER_TREE
      ? new NullifierLeafPreimage(new NullifierLeaf(new Fr(leaf.key)), new Fr(leaf.nextKey), leaf.nextIndex)
      : new PublicDataTreeLeafPreimage(
          new PublicDataTreeLeaf(new Fr(leaf.key), new Fr(leaf.value)),
          new Fr(leaf.nextKey),
          leaf.nextIndex,
        );
  }

  // --- the MerkleTreeWriteOperations methods the simulator uses ---

  getTreeInfo(treeId: MerkleTreeId) {
    return Promise.resolve({ treeId, root: this.root(treeId), size: this.size(treeId), depth: DEPTHS[treeId] });
  }

  getStateReference(): Promise<StateReference> {
    return Promise.resolve(
      new StateReference(
        this.snapshot(MerkleTreeId.L1_TO_L2_MESSAGE_TREE),
        new PartialStateReference(
          this.snapshot(MerkleTreeId.NOTE_HASH_TREE),
          this.snapshot(MerkleTreeId.NULLIFIER_TREE),
          this.snapshot(MerkleTreeId.PUBLIC_DATA_TREE),
        ),
      ),
    );
  }

  getSiblingPath(treeId: MerkleTreeId, _index: bigint) {
    return Promise.resolve(this.zeroPath(treeId));
  }

  getPreviousValueIndex(treeId: MerkleTreeId, value: bigint) {
    const tree = this.indexed(treeId);
    const low = tree.sorted[lowLeafPosition(tree.sorted, value)];
    return Promise.resolve({ index: low.index, alreadyPresent: low.key === value });
  }

  getLeafPreimage(treeId: MerkleTreeId, index: bigint) {
    const leaf = this.indexed(treeId).leaves[Number(index)];
    return Promise.resolve(leaf === undefined ? undefined : this.preimage(treeId, leaf));
  }

  getLeafValue(treeId: MerkleTreeId, index: bigint) {
    const leaves = this.appendOnly(treeId);
    return Promise.resolve(index < BigInt(leaves.length) ? new Fr(leaves[Number(index)]) : undefined);
  }

  sequentialInsert(treeId: MerkleTreeId, leaves: Buffer[]) {
    const tree = this.indexed(treeId);
    const low = [];
    const inserted = [];
    for (const buf of leaves) {
      const key = BigInt(`0x${buf.subarray(0, 32).toString('hex')}`);
      const value = treeId === MerkleTreeId.PUBLIC_DATA_TREE ? BigInt(`0x${buf.subarray(32, 64).toString('hex')}`) : 0n;
      const r = indexedInsert(tree, key, value);
      const path = this.zeroPath(treeId);
      low.push({ leafPreimage: this.preimage(treeId, r.low.leaf), index: r.low.index, siblingPath: path });
      inserted.push({
        leafPreimage: this.preimage(treeId, r.inserted.leaf),
        index: r.inserted.index,
        siblingPath: path,
      });
    }
    return Promise.resolve({ lowLeavesWitnessData: low, insertionWitnessData: inserted });
  }

  appendLeaves(treeId: MerkleTreeId, leaves: Fr[]) {
    this.appendOnly(treeId).push(...leaves.map((l) => l.toBigInt()));
    return Promise.resolve();
  }

  /** Only used to pad the nullifier tree after a tx: empty leaves take indices but join no key order. */
  batchInsert(treeId: MerkleTreeId, leaves: Buffer[], _subtreeHeight: number) {
    const tree = this.indexed(treeId);
    for (const buf of leaves) {
      if (buf.some((b) => b !== 0)) throw new Error('oracle fork: batchInsert only pads with empty leaves');
      tree.leaves.push({ key: 0n, value: 0n, nextKey: 0n, nextIndex: 0n });
    }
    return Promise.resolve({ lowLeavesWitnessData: [], sortedNewLeaves: [], sortedNewLeavesIndexes: [] });
  }

  createCheckpoint() {
    this.checkpoints.push(copyState(this.state));
    return Promise.resolve(this.checkpoints.length);
  }

  commitCheckpoint() {
    if (this.checkpoints.pop() === undefined) throw new Error('oracle fork: no checkpoint to commit');
    return Promise.resolve();
  }

  revertCheckpoint() {
    const previous = this.checkpoints.pop();
    if (previous === undefined) throw new Error('oracle fork: no checkpoint to revert');
    this.state = previous;
    return Promise.resolve();
  }

  // --- reads for tests ---

  /** The public data value at a leaf slot (0 when never written). */
  publicDataAt(leafSlot: bigint): bigint {
    const tree = this.state.publicData;
    const low = tree.sorted[lowLeafPosition(tree.sorted, leafSlot)];
    return low.key === leafSlot ? tree.leaves[Number(low.index)].value : 0n;
  }

  noteHashCount(): number {
    return this.state.noteHashes.length;
  }
}
