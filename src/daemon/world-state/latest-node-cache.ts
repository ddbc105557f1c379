import { LEVEL_SPAN, TREE_SPAN } from './world-state-repository.js';

/** Cache the top levels holding at most ~2^(CACHED_LEVELS + 1) nodes of a tree (2^17: about 20 MB). */
const CACHED_LEVELS = 16;

/**
 * Node hashes of the latest block's upper tree levels, kept in memory. Every insert and every sibling path
 * touches these levels, while the levels near the leaves are too large to hold and are read from SQLite.
 * For a tree of 2^20 leaves, levels 4 and up (about 128k nodes) are cached. Hashes are copied in, so a
 * cached node never pins the large batch buffer it was computed in.
 *
 * The cache is filled on read and by each committed block; it belongs to exactly one block number and is
 * dropped whenever the tip changes any other way (unwind, a rolled-back transaction).
 */
export class LatestNodeCache {
  /** The block whose nodes this holds; -1 when empty. */
  block = -1;
  private readonly maps: Map<number, Buffer>[] = [];
  private readonly minLevels: number[] = [];

  constructor(treeCount: number) {
    for (let t = 0; t < treeCount; t++) {
      this.maps.push(new Map());
      this.minLevels.push(0);
    }
  }

  /** Empties the cache and binds it to `block`, with trees of the given sizes. */
  reset(block: number, sizes: readonly number[]): void {
    this.block = block;
    for (let t = 0; t < this.maps.length; t++) {
      (this.maps[t] as Map<number, Buffer>).clear();
      this.minLevels[t] = minCachedLevel(sizes[t] as number);
    }
  }

  /** Moves the cache to the next block: its written nodes (by store key, per tree) replace the cached ones. */
  advance(block: number, sizes: readonly number[], written: readonly (readonly (readonly [number, Buffer])[])[]): void {
    if (block !== this.block + 1) {
      this.reset(block, sizes);
      return;
    }
    this.block = block;
    for (let t = 0; t < this.maps.length; t++) {
      const min = minCachedLevel(sizes[t] as number);
      const map = this.maps[t] as Map<number, Buffer>;
      if (min !== this.minLevels[t]) {
        map.clear();
        this.minLevels[t] = min;
      }
      const base = t * TREE_SPAN;
      const from = base + min * LEVEL_SPAN;
      for (const [key, hash] of written[t] ?? []) if (key >= from) map.set(key - base, Buffer.from(hash));
    }
  }

  /** The cached hash of a node (id = level * 2^42 + index), if its level is cached and it was seen. */
  get(tree: number, id: number): Buffer | undefined {
    return (this.maps[tree] as Map<number, Buffer>).get(id);
  }

  caches(tree: number, level: number): boolean {
    return level >= (this.minLevels[tree] as number);
  }

  set(tree: number, id: number, hash: Buffer): void {
    (this.maps[tree] as Map<number, Buffer>).set(id, Buffer.from(hash));
  }
}

function minCachedLevel(size: number): number {
  const bits = size <= 1 ? 1 : Math.ceil(Math.log2(size));
  return Math.max(0, bits - CACHED_LEVELS);
}
