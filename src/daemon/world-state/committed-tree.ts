import { readField32 } from '../../core/serialize/field-bytes.js';
import { emptySubtreeRoot } from './empty-subtrees.js';
import { decodeIndexedLeaf, type IndexedLeaf, type IndexedLeafKind } from './indexed-leaf.js';
import type { LatestNodeCache } from './latest-node-cache.js';
import type { TreeInfo } from './merkle-tree-id.js';
import { UpstreamStateNeededError } from './world-state-errors.js';
import { type KeyLookup, LEVEL_SPAN, storeKey, type WorldStateRepository } from './world-state-repository.js';

/** Entries each read cache holds before it starts over (bounds a long-lived fork's memory). */
const READ_CACHE_ENTRIES = 1 << 16;

/** A tree's root and size (the index the next leaf goes to). */
export interface TreeSnapshot {
  readonly root: Buffer;
  readonly size: number;
}

/**
 * A lazily forked tree (WorldState.openSparse): leaves [0, size) are the upstream's as of its block, held here only
 * where fetched. A node of that part that is not stored is unknown, not empty.
 */
export interface SparseTree {
  readonly size: number;
  /** Values the upstream said its tree did not hold at the fork's block (hex), for append-only trees. */
  readonly absent: ReadonlySet<string>;
}

export interface NodeRef {
  readonly level: number;
  readonly index: number;
}

/**
 * One tree as it was after one block, read from the store. Everything beyond the block's size is empty, so
 * those nodes are answered with the empty-subtree hash of their level without a query.
 */
export class CommittedTree {
  /**
   * Low-leaf indices by key (its 32 bytes as a latin1 string) and leaf preimages by index, as read from the
   * store. A block's tree never changes once written, and this object only ever reads `block` (a view or fork
   * refuses every read once that block is unwound or pruned), so the answers can be kept for the object's life,
   * which is one view or fork: a block builder's txs then read their contracts' storage from memory.
   */
  private readonly lowIndexCache = new Map<string, number>();
  private readonly leafCache = new Map<number, IndexedLeaf>();

  constructor(
    readonly store: WorldStateRepository,
    readonly info: TreeInfo,
    readonly block: number,
    readonly snapshot: TreeSnapshot,
    /** The cache of the latest block's upper levels; used while `block` is still the latest. */
    private readonly cache?: LatestNodeCache,
    /** Set on a lazily forked world state: what of this tree is the upstream's. */
    readonly sparse?: SparseTree,
  ) {}

  /** What a node never written here is: empty, or (in the upstream's part of a lazy fork) unknown. */
  private absentNode(level: number, index: number): Buffer {
    if (this.sparse && index * 2 ** level < this.sparse.size) {
      throw new UpstreamStateNeededError({ kind: 'node', tree: this.info.id, level, index });
    }
    return emptySubtreeRoot(level);
  }

  /** Hashes of the given nodes (any mix of levels), in order, with one query for all stored ones. */
  getNodes(refs: readonly NodeRef[]): Buffer[] {
    const out = new Array<Buffer>(refs.length);
    const keys: number[] = [];
    const slots: number[] = [];
    const size = this.snapshot.size;
    const tree = this.info.id;
    const cache = this.cache !== undefined && this.cache.block === this.block ? this.cache : undefined;
    for (let i = 0; i < refs.length; i++) {
      const { level, index } = refs[i] as NodeRef;
      if (index * 2 ** level >= size) {
        out[i] = emptySubtreeRoot(level);
        continue;
      }
      if (cache?.caches(tree, level)) {
        const hit = cache.get(tree, level * LEVEL_SPAN + index);
        if (hit) {
          out[i] = hit;
          continue;
        }
      }
      keys.push(storeKey(tree, level, index));
      slots.push(i);
    }
    if (keys.length > 0) {
      const found = this.fetch(keys, slots, refs);
      for (let j = 0; j < slots.length; j++) {
        const slot = slots[j] as number;
        const { level, index } = refs[slot] as NodeRef;
        const hash = found[j] ?? this.absentNode(level, index);
        out[slot] = hash;
        if (cache?.caches(tree, level)) cache.set(tree, level * LEVEL_SPAN + index, hash);
      }
    }
    return out;
  }

  /**
   * Stored hashes for the keys; an indexed tree's leaf hashes live with its preimages (ws_leaf), so level-0 keys
   * of those trees are read from there.
   */
  private fetch(keys: number[], slots: number[], refs: readonly NodeRef[]): (Buffer | null)[] {
    if (this.info.kind === 'append-only') return this.store.getNodes(keys, this.block);
    const leafKeys: number[] = [];
    const nodeKeys: number[] = [];
    for (let j = 0; j < keys.length; j++) {
      if ((refs[slots[j] as number] as NodeRef).level === 0) leafKeys.push(keys[j] as number);
      else nodeKeys.push(keys[j] as number);
    }
    if (leafKeys.length === 0) return this.store.getNodes(keys, this.block);
    const leafHashes = this.store.getLeafHashes(leafKeys, this.block);
    if (this.sparse) {
      // A lazy fork holds the upstream's leaf hashes it saw on sibling paths (preimage unknown) as level-0 nodes.
      const missing = leafKeys.filter((_, i) => leafHashes[i] === null);
      if (missing.length > 0) {
        const nodes = this.store.getNodes(missing, this.block);
        let m = 0;
        for (let i = 0; i < leafHashes.length; i++) if (leafHashes[i] === null) leafHashes[i] = nodes[m++] ?? null;
      }
    }
    const nodeHashes = nodeKeys.length > 0 ? this.store.getNodes(nodeKeys, this.block) : [];
    let li = 0;
    let ni = 0;
    return keys.map((_, j) =>
      (refs[slots[j] as number] as NodeRef).level === 0 ? (leafHashes[li++] ?? null) : (nodeHashes[ni++] ?? null),
    );
  }

  /** Hashes of nodes of one level. */
  getLevel(level: number, indices: readonly number[]): Buffer[] {
    return this.getNodes(indices.map((index) => ({ level, index })));
  }

  /**
   * Preimages of indexed-tree leaves; undefined for empty leaves (padding zeros or beyond the size). Remembered:
   * a block's leaves never change (see `lowIndexCache`).
   */
  getLeaves(indices: readonly number[]): (IndexedLeaf | undefined)[] {
    const kind = this.info.kind as IndexedLeafKind;
    const out = new Array<IndexedLeaf | undefined>(indices.length);
    const keys: number[] = [];
    const slots: number[] = [];
    for (let i = 0; i < indices.length; i++) {
      const index = indices[i] as number;
      if (index >= this.snapshot.size) continue;
      const known = this.leafCache.get(index);
      if (known !== undefined) out[i] = known;
      else {
        keys.push(storeKey(this.info.id, 0, index));
        slots.push(i);
      }
    }
    if (keys.length > 0) {
      const found = this.store.getLeaves(keys, this.block);
      if (this.leafCache.size + keys.length > READ_CACHE_ENTRIES) this.leafCache.clear();
      for (let j = 0; j < slots.length; j++) {
        const blob = found[j];
        const slot = slots[j] as number;
        const leaf = blob ? decodeIndexedLeaf(kind, blob) : undefined;
        const index = indices[slot] as number;
        if (!leaf && this.sparse && index < this.sparse.size) {
          throw new UpstreamStateNeededError({ kind: 'leaf', tree: this.info.id, index });
        }
        out[slot] = leaf;
        if (leaf) this.leafCache.set(index, leaf);
      }
    }
    return out;
  }

  /** Index of the leaf with the largest key <= each key. Indexed trees always hold key 0 at index 0. */
  findLowIndices(keys: readonly Buffer[]): number[] {
    const out = new Array<number>(keys.length);
    const missing: Buffer[] = [];
    const slots: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const known = this.lowIndexCache.get((keys[i] as Buffer).toString('latin1'));
      if (known !== undefined) out[i] = known;
      else {
        missing.push(keys[i] as Buffer);
        slots.push(i);
      }
    }
    if (missing.length === 0) return out;
    const found = this.store.findLowIndices(this.info.id, missing, this.block);
    if (this.lowIndexCache.size + missing.length > READ_CACHE_ENTRIES) this.lowIndexCache.clear();
    for (let j = 0; j < missing.length; j++) {
      const index = found[j];
      const key = missing[j] as Buffer;
      if (index === null || index === undefined) {
        if (this.sparse) {
          throw new UpstreamStateNeededError({ kind: 'low-leaf', tree: this.info.id, key: readField32(key) });
        }
        throw new Error(`${this.info.name} has no leaf at or below key ${key.toString('hex')}`);
      }
      out[slots[j] as number] = index;
      // On a lazy fork the largest key held here is a candidate only (TreeOverlay checks it): not remembered.
      if (!this.sparse) this.lowIndexCache.set(key.toString('latin1'), index);
    }
    return out;
  }

  /** Where each key or value sits, and the block that inserted it. */
  findKeys(keys: readonly Buffer[]): (KeyLookup | null)[] {
    return this.store.findKeys(this.info.id, keys, this.block);
  }
}
