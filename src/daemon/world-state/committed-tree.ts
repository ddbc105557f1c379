import { emptySubtreeRoot } from './empty-subtrees.js';
import { decodeIndexedLeaf, type IndexedLeaf, type IndexedLeafKind } from './indexed-leaf.js';
import type { LatestNodeCache } from './latest-node-cache.js';
import type { TreeInfo } from './merkle-tree-id.js';
import { type KeyLookup, LEVEL_SPAN, storeKey, type WorldStateRepository } from './world-state-repository.js';

/** A tree's root and size (the index the next leaf goes to). */
export interface TreeSnapshot {
  readonly root: Buffer;
  readonly size: number;
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
  constructor(
    readonly store: WorldStateRepository,
    readonly info: TreeInfo,
    readonly block: number,
    readonly snapshot: TreeSnapshot,
    /** The cache of the latest block's upper levels; used while `block` is still the latest. */
    private readonly cache?: LatestNodeCache,
  ) {}

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
        const hash = found[j] ?? emptySubtreeRoot(level);
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

  /** Preimages of indexed-tree leaves; undefined for empty leaves (padding zeros or beyond the size). */
  getLeaves(indices: readonly number[]): (IndexedLeaf | undefined)[] {
    const kind = this.info.kind as IndexedLeafKind;
    const out = new Array<IndexedLeaf | undefined>(indices.length);
    const keys: number[] = [];
    const slots: number[] = [];
    for (let i = 0; i < indices.length; i++) {
      const index = indices[i] as number;
      if (index < this.snapshot.size) {
        keys.push(storeKey(this.info.id, 0, index));
        slots.push(i);
      }
    }
    if (keys.length > 0) {
      const found = this.store.getLeaves(keys, this.block);
      for (let j = 0; j < slots.length; j++) {
        const blob = found[j];
        out[slots[j] as number] = blob ? decodeIndexedLeaf(kind, blob) : undefined;
      }
    }
    return out;
  }

  /** Index of the leaf with the largest key <= each key. Indexed trees always hold key 0 at index 0. */
  findLowIndices(keys: readonly Buffer[]): number[] {
    const found = this.store.findLowIndices(this.info.id, keys, this.block);
    return found.map((index, i) => {
      if (index === null) {
        throw new Error(`${this.info.name} has no leaf at or below key ${(keys[i] as Buffer).toString('hex')}`);
      }
      return index;
    });
  }

  /** Where each key or value sits, and the block that inserted it. */
  findKeys(keys: readonly Buffer[]): (KeyLookup | null)[] {
    return this.store.findKeys(this.info.id, keys, this.block);
  }
}
