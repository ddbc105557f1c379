import { readField32 } from '../../core/serialize/field-bytes.js';
import type { BatchHasher } from './batch-hasher.js';
import type { CommittedTree, NodeRef } from './committed-tree.js';
import {
  encodeIndexedLeaf,
  type IndexedLeaf,
  type IndexedLeafKind,
  leafHashWidth,
  writeLeafHashInput,
  ZERO32,
} from './indexed-leaf.js';
import type { TreeInfo } from './merkle-tree-id.js';
import { InvalidWorldStateArgumentError, UpstreamStateNeededError } from './world-state-errors.js';
import { LEVEL_SPAN, storeKey, UPSTREAM_KEY_BLOCK } from './world-state-repository.js';

/** A public data write: the tree leaf slot (already siloed) and its new value. */
export interface PublicDataLeafWrite {
  readonly slot: Buffer;
  readonly value: Buffer;
}

/** The result of a low-leaf search: the leaf with the largest key <= the searched one. */
export interface LowLeaf {
  readonly index: number;
  readonly leaf: IndexedLeaf;
  readonly alreadyPresent: boolean;
}

/** Where a key or value was found; `block` is undefined for a leaf not yet committed. */
export interface LeafLocation {
  readonly index: number;
  readonly block: number | undefined;
}

/** Rows a block writes for one tree (see WorldState.commitFork). */
export interface TreeWrites {
  /**
   * [store key, hash], ascending by key: levels 0 to height-1 for append-only trees, 1 to height-1 for indexed
   * trees (their leaf hashes travel with the preimages).
   */
  readonly nodes: readonly (readonly [number, Buffer])[];
  /** [store key, encoded preimage, leaf hash] of indexed leaves. */
  readonly leaves: readonly (readonly [number, Buffer, Buffer])[];
  /** New keys (indexed trees) or first occurrences of non-zero values (append-only trees). */
  readonly keys: readonly (readonly [Buffer, number])[];
}

/**
 * A writable layer over one committed tree: leaves, preimages and node hashes changed since the base block,
 * held in memory. Changes only mark leaves dirty; `root()` (and any path read) hashes the dirty nodes bottom
 * up, one tree level per hasher call, each node once, however many leaves changed below it. That is what
 * makes a whole block cheaper than per-insert witness computation.
 */
export class TreeOverlay {
  readonly info: TreeInfo;
  private size: number;
  /**
   * Node hashes computed in this overlay, one map per level from 0 (leaf hashes / values) to height (root).
   * Per-level maps keep the keys small integers, which V8 hashes much faster than 48-bit composite keys.
   */
  private readonly nodes: (Map<number, Buffer> | undefined)[];
  /** Leaf indices whose ancestors must be rehashed. */
  private readonly dirty = new Set<number>();
  /** Indexed trees: preimages created or changed in this overlay. */
  private readonly leaves = new Map<number, IndexedLeaf>();
  /** Indexed trees: keys inserted in this overlay, ascending, with their leaf indices. */
  private sortedKeys: Buffer[] = [];
  private sortedKeyIndices: number[] = [];
  /** Append-only trees: first index of each non-zero value appended here, by hex. */
  private readonly appendedValues = new Map<string, number>();
  private readonly appendedOrder: [Buffer, number][] = [];

  constructor(
    readonly base: CommittedTree,
    private readonly hasher: BatchHasher,
  ) {
    this.info = base.info;
    this.size = base.snapshot.size;
    // Level maps are created on first write: a read-only view costs no allocation per level.
    this.nodes = new Array(base.info.height + 1);
  }

  get treeSize(): number {
    return this.size;
  }

  root(): Buffer {
    this.rehash();
    return this.peek(this.info.height).get(0) ?? this.base.snapshot.root;
  }

  // ---- append-only trees ----

  /** Appends raw values; zeros take an index and leave the leaf empty. */
  appendLeaves(values: readonly Buffer[]): void {
    if (this.info.kind !== 'append-only') {
      throw new InvalidWorldStateArgumentError(`${this.info.name} is an indexed tree; leaves cannot be appended to it`);
    }
    this.ensureCapacity(values.length);
    let index = this.size;
    const leaves = this.level(0);
    for (const v of values) {
      if (!v.equals(ZERO32)) {
        leaves.set(index, v);
        this.dirty.add(index);
        const hex = v.toString('hex');
        if (!this.appendedValues.has(hex)) {
          this.appendedValues.set(hex, index);
          this.appendedOrder.push([v, index]);
        }
      }
      index++;
    }
    this.size = index;
  }

  // ---- indexed trees ----

  /**
   * Inserts nullifiers as one batch: non-zero values become leaves in the given order at size, size+1...;
   * zeros take an index and stay empty (docs/aztec-facts.md section 3.4). The result equals inserting them one
   * by one. A value already in the tree or twice in the batch is refused before anything changes.
   */
  insertNullifiers(values: readonly Buffer[]): void {
    this.requireKind('nullifier');
    this.ensureCapacity(values.length);
    const entries: NewEntry[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as Buffer;
      if (v.equals(ZERO32)) continue;
      const hex = v.toString('hex');
      if (seen.has(hex)) throw new InvalidWorldStateArgumentError(`Nullifier 0x${hex} appears twice in the batch`);
      seen.add(hex);
      entries.push({ key: v, value: ZERO32, index: this.size + i, pred: 0 });
    }
    const preds = this.predecessors(entries.map((e) => e.key));
    const known = lowLeafMap(preds);
    for (let i = 0; i < entries.length; i++) {
      const p = preds[i] as LowLeaf;
      if (p.alreadyPresent) {
        throw new InvalidWorldStateArgumentError(
          `Nullifier 0x${(entries[i] as NewEntry).key.toString('hex')} already exists in the nullifier tree at index ${p.index}`,
        );
      }
      (entries[i] as NewEntry).pred = p.index;
    }
    this.link(entries, known);
    this.size += values.length;
  }

  /**
   * Public data writes in order (docs/aztec-facts.md section 3.4): an existing slot is updated in place, a new
   * slot is appended and linked; no padding. The result equals applying them one by one.
   */
  writePublicData(writes: readonly PublicDataLeafWrite[]): void {
    this.requireKind('public-data');
    const bySlot = new Map<string, { slot: Buffer; value: Buffer }>();
    for (let i = 0; i < writes.length; i++) {
      const w = writes[i] as PublicDataLeafWrite;
      if (w.slot.equals(ZERO32) && w.value.equals(ZERO32)) {
        throw new InvalidWorldStateArgumentError(`Public data write ${i} is empty (slot 0, value 0)`);
      }
      const hex = w.slot.toString('hex');
      const seen = bySlot.get(hex);
      if (seen) seen.value = w.value;
      else bySlot.set(hex, { slot: w.slot, value: w.value });
    }
    const distinct = [...bySlot.values()];
    const preds = this.predecessors(distinct.map((d) => d.slot));
    const known = lowLeafMap(preds);
    this.ensureCapacity(preds.filter((p) => !p.alreadyPresent).length);
    const entries: NewEntry[] = [];
    let next = this.size;
    for (let i = 0; i < distinct.length; i++) {
      const d = distinct[i] as { slot: Buffer; value: Buffer };
      const p = preds[i] as LowLeaf;
      if (p.alreadyPresent) {
        this.setLeaf(p.index, { ...this.currentLeaf(p.index, known), value: d.value });
      } else {
        entries.push({ key: d.slot, value: d.value, index: next++, pred: p.index });
      }
    }
    this.link(entries, known);
    this.size = next;
  }

  /** Genesis only: places already linked leaves at the next indices (their keys must not exist yet). */
  seedLeaves(leaves: readonly IndexedLeaf[]): void {
    this.requireIndexed();
    this.ensureCapacity(leaves.length);
    const entries: NewEntry[] = leaves.map((leaf, i) => ({
      key: leaf.key,
      value: leaf.value,
      index: this.size + i,
      pred: -1,
    }));
    for (let i = 0; i < leaves.length; i++) this.setLeaf(this.size + i, leaves[i] as IndexedLeaf);
    this.mergeSortedKeys([...entries].sort((a, b) => Buffer.compare(a.key, b.key)));
    this.size += leaves.length;
  }

  /** The leaf with the largest key <= `key`, as of this overlay. */
  findLowLeaf(key: Buffer): LowLeaf {
    this.requireIndexed();
    // A key this overlay inserted is its own low leaf (keys are unique): no need to search the base.
    const own = this.findUncommitted(key);
    if (own !== undefined) return { index: own, leaf: this.leaves.get(own) as IndexedLeaf, alreadyPresent: true };
    return this.predecessors([key])[0] as LowLeaf;
  }

  /** The preimage of an indexed leaf; undefined if the leaf is empty. */
  getLeaf(index: number): IndexedLeaf | undefined {
    this.requireIndexed();
    if (index >= this.size) return undefined;
    return this.leaves.get(index) ?? this.base.getLeaves([index])[0];
  }

  // ---- reads common to all trees ----

  /** The value stored at a leaf: the raw value (append-only) or the key (indexed); zero when empty. */
  getLeafValue(index: number): Buffer {
    if (this.info.kind === 'append-only') {
      if (index >= this.size) return ZERO32;
      return this.peek(0).get(index) ?? (this.base.getLevel(0, [index])[0] as Buffer);
    }
    return this.getLeaf(index)?.key ?? ZERO32;
  }

  /** Leaf indices of keys (indexed trees) or values (append-only: the first index holding it). */
  findLeaves(values: readonly Buffer[]): (LeafLocation | undefined)[] {
    const committed = this.base.findKeys(values);
    return values.map((v, i) => {
      const c = committed[i];
      if (c) {
        // An upstream key of a lazy fork: its index is known, the block that inserted it is not.
        if (c.block === UPSTREAM_KEY_BLOCK) {
          throw new UpstreamStateNeededError({ kind: 'find', tree: this.info.id, value: readField32(v) });
        }
        return { index: c.index, block: c.block };
      }
      const index = this.findUncommitted(v);
      if (index !== undefined) return { index, block: undefined };
      if (this.base.sparse) this.checkAbsentUpstream(v);
      return undefined;
    });
  }

  /**
   * On a lazy fork, a value not held here may still be in the upstream's part of the tree. An indexed tree
   * proves it absent by its low leaf (which throws when that is not fetched); an append-only tree cannot.
   */
  private checkAbsentUpstream(value: Buffer): void {
    if (this.info.kind === 'append-only') {
      if (this.base.sparse?.absent.has(value.toString('hex'))) return;
      throw new UpstreamStateNeededError({ kind: 'find', tree: this.info.id, value: readField32(value) });
    }
    this.predecessors([value]);
  }

  /** Siblings from the leaf level up (height entries). */
  getSiblingPath(index: number): Buffer[] {
    this.checkIndex(index);
    this.rehash();
    const height = this.info.height;
    const out = new Array<Buffer>(height);
    const missing: NodeRef[] = [];
    const slots: number[] = [];
    let i = index;
    for (let level = 0; level < height; level++) {
      const sibling = i % 2 === 0 ? i + 1 : i - 1;
      const mine = this.peek(level).get(sibling);
      if (mine) out[level] = mine;
      else {
        missing.push({ level, index: sibling });
        slots.push(level);
      }
      i = Math.floor(i / 2);
    }
    const fetched = this.base.getNodes(missing);
    for (let j = 0; j < slots.length; j++) out[slots[j] as number] = fetched[j] as Buffer;
    return out;
  }

  /** Everything this overlay changed, as store rows (see WorldState). Rehashes first. */
  collectWrites(): TreeWrites {
    this.rehash();
    const tree = this.info.id;
    const firstLevel = this.info.kind === 'append-only' ? 0 : 1;
    const nodes: [number, Buffer][] = [];
    for (let level = firstLevel; level < this.info.height; level++) {
      const base = storeKey(tree, level, 0);
      const mine = this.peek(level);
      // Ascending keys make the inserts walk the B-tree in order.
      const indices = Float64Array.from(mine.keys()).sort();
      for (let i = 0; i < indices.length; i++) {
        const index = indices[i] as number;
        nodes.push([base + index, mine.get(index) as Buffer]);
      }
    }
    const leaves: [number, Buffer, Buffer][] = [];
    const keys: [Buffer, number][] = [];
    if (this.info.kind === 'append-only') {
      for (const entry of this.appendedOrder) keys.push(entry);
    } else {
      const kind = this.info.kind;
      for (const [index, leaf] of this.leaves) {
        leaves.push([storeKey(tree, 0, index), encodeIndexedLeaf(kind, leaf), this.peek(0).get(index) as Buffer]);
      }
      leaves.sort((a, b) => a[0] - b[0]);
      for (let i = 0; i < this.sortedKeys.length; i++) {
        keys.push([this.sortedKeys[i] as Buffer, this.sortedKeyIndices[i] as number]);
      }
    }
    return { nodes, leaves, keys };
  }

  // ---- internals ----

  /**
   * Hashes every node above a dirty leaf, level by level, each once. First the dirty set of every level is
   * derived (integer work only), which tells exactly which children are neither recomputed now nor held by
   * this overlay: those come from the base block in one batched read (or are empty beyond its size). Then
   * each level is one hasher call.
   */
  private rehash(): void {
    if (this.dirty.size === 0) return;
    const height = this.info.height;
    const levels: Float64Array[] = [Float64Array.from(this.dirty).sort()];
    this.dirty.clear();
    for (let level = 0; level < height; level++) levels.push(parentsOf(levels[level] as Float64Array));

    // Children to read from the base: not dirty at their level and not computed earlier by this overlay.
    const refs: NodeRef[] = [];
    for (let level = 0; level < height; level++) {
      const dirty = levels[level] as Float64Array;
      const parents = levels[level + 1] as Float64Array;
      let d = 0;
      for (let k = 0; k < parents.length; k++) {
        const left = 2 * (parents[k] as number);
        for (let child = left; child <= left + 1; child++) {
          while (d < dirty.length && (dirty[d] as number) < child) d++;
          if (d < dirty.length && dirty[d] === child) continue;
          if (!this.peek(level).has(child)) refs.push({ level, index: child });
        }
      }
    }
    const fetched = new Map<number, Buffer>();
    if (refs.length > 0) {
      const got = this.base.getNodes(refs);
      for (let j = 0; j < refs.length; j++) {
        const r = refs[j] as NodeRef;
        fetched.set(r.level * LEVEL_SPAN + r.index, got[j] as Buffer);
      }
    }

    if (this.info.kind !== 'append-only') this.hashLeaves(levels[0] as Float64Array);
    for (let level = 0; level < height; level++) {
      const parents = levels[level + 1] as Float64Array;
      const n = parents.length;
      const input = Buffer.allocUnsafe(n * 64);
      const mine = this.peek(level);
      const levelBase = level * LEVEL_SPAN;
      for (let k = 0; k < n; k++) {
        const left = 2 * (parents[k] as number);
        const l = mine.get(left) ?? (fetched.get(levelBase + left) as Buffer);
        const r = mine.get(left + 1) ?? (fetched.get(levelBase + left + 1) as Buffer);
        l.copy(input, k * 64);
        r.copy(input, k * 64 + 32);
      }
      const out = asBuffer(this.hasher.hashBatch(input, 2));
      const above = this.level(level + 1);
      for (let k = 0; k < n; k++) above.set(parents[k] as number, out.subarray(k * 32, k * 32 + 32));
    }
  }

  /** Leaf hashes of changed indexed leaves, all in one batch. */
  private hashLeaves(indices: Float64Array): void {
    const kind = this.info.kind as IndexedLeafKind;
    const width = leafHashWidth(kind);
    const n = indices.length;
    const input = Buffer.alloc(n * width * 32);
    for (let k = 0; k < n; k++) {
      const leaf = this.leaves.get(indices[k] as number) as IndexedLeaf;
      writeLeafHashInput(kind, leaf, input, k * width * 32);
    }
    const out = asBuffer(this.hasher.hashBatch(input, width));
    const leafHashes = this.level(0);
    for (let k = 0; k < n; k++) leafHashes.set(indices[k] as number, out.subarray(k * 32, k * 32 + 32));
  }

  /**
   * For each key, the leaf with the largest key <= it among the leaves present now (committed or in this
   * overlay), with a flag when that leaf holds the key itself.
   */
  private predecessors(keys: readonly Buffer[]): LowLeaf[] {
    if (keys.length === 0) return [];
    const baseLow = this.base.findLowIndices(keys);
    // Preimages of the committed low leaves that this overlay has not replaced, in one query.
    const wanted = [...new Set(baseLow.filter((i) => !this.leaves.has(i)))];
    const fetched = new Map<number, IndexedLeaf>();
    if (wanted.length > 0) {
      const got = this.base.getLeaves(wanted);
      for (let i = 0; i < wanted.length; i++) {
        const leaf = got[i];
        if (!leaf) throw new Error(`${this.info.name}: key index points at empty leaf ${wanted[i]}`);
        fetched.set(wanted[i] as number, leaf);
      }
    }
    return keys.map((key, i) => {
      let index = baseLow[i] as number;
      let leaf = this.leaves.get(index) ?? (fetched.get(index) as IndexedLeaf);
      const pos = this.floorSorted(key);
      if (pos >= 0) {
        const ownKey = this.sortedKeys[pos] as Buffer;
        if (Buffer.compare(ownKey, leaf.key) > 0) {
          index = this.sortedKeyIndices[pos] as number;
          leaf = this.leaves.get(index) as IndexedLeaf;
        }
      }
      const alreadyPresent = leaf.key.equals(key);
      if (!alreadyPresent && !leaf.nextKey.equals(ZERO32) && Buffer.compare(leaf.nextKey, key) <= 0) {
        // A key lies between the leaf found and the one searched: on a lazy fork the upstream's low leaf has
        // not been fetched; on a full tree the sorted list is broken.
        if (this.base.sparse) {
          throw new UpstreamStateNeededError({ kind: 'low-leaf', tree: this.info.id, key: readField32(key) });
        }
        throw new Error(`${this.info.name}: leaf ${index} is not the low leaf of 0x${key.toString('hex')}`);
      }
      return { index, leaf, alreadyPresent };
    });
  }

  /**
   * Links new leaves into the sorted list. Entries are grouped by the existing leaf they follow; each group is
   * chained in key order between that leaf and its old successor, which is the state inserting them one by
   * one in any order produces.
   */
  private link(entries: NewEntry[], known: ReadonlyMap<number, IndexedLeaf>): void {
    if (entries.length === 0) return;
    const sorted = [...entries].sort((a, b) => Buffer.compare(a.key, b.key));
    let g = 0;
    while (g < sorted.length) {
      const pred = (sorted[g] as NewEntry).pred;
      let end = g;
      while (end + 1 < sorted.length && (sorted[end + 1] as NewEntry).pred === pred) end++;
      const low = this.currentLeaf(pred, known);
      const first = sorted[g] as NewEntry;
      this.setLeaf(pred, { key: low.key, value: low.value, nextKey: first.key, nextIndex: first.index });
      for (let k = g; k <= end; k++) {
        const e = sorted[k] as NewEntry;
        const succ = k < end ? (sorted[k + 1] as NewEntry) : undefined;
        this.setLeaf(e.index, {
          key: e.key,
          value: e.value,
          nextKey: succ ? succ.key : low.nextKey,
          nextIndex: succ ? succ.index : low.nextIndex,
        });
      }
      g = end + 1;
    }
    this.mergeSortedKeys(sorted);
  }

  private mergeSortedKeys(sorted: readonly NewEntry[]): void {
    const a = this.sortedKeys;
    const ai = this.sortedKeyIndices;
    const keys: Buffer[] = new Array(a.length + sorted.length);
    const indices: number[] = new Array(a.length + sorted.length);
    let i = 0;
    let j = 0;
    let o = 0;
    while (i < a.length || j < sorted.length) {
      if (j >= sorted.length || (i < a.length && Buffer.compare(a[i] as Buffer, (sorted[j] as NewEntry).key) < 0)) {
        keys[o] = a[i] as Buffer;
        indices[o++] = ai[i++] as number;
      } else {
        const e = sorted[j++] as NewEntry;
        keys[o] = e.key;
        indices[o++] = e.index;
      }
    }
    this.sortedKeys = keys;
    this.sortedKeyIndices = indices;
  }

  /** Position of the largest overlay key <= key, or -1. */
  private floorSorted(key: Buffer): number {
    let lo = 0;
    let hi = this.sortedKeys.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (Buffer.compare(this.sortedKeys[mid] as Buffer, key) <= 0) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  private findUncommitted(value: Buffer): number | undefined {
    if (this.info.kind === 'append-only') return this.appendedValues.get(value.toString('hex'));
    const pos = this.floorSorted(value);
    return pos >= 0 && (this.sortedKeys[pos] as Buffer).equals(value)
      ? (this.sortedKeyIndices[pos] as number)
      : undefined;
  }

  /** A leaf as it is now: changed here, or as just read from the base (`known`), or read from the base. */
  private currentLeaf(index: number, known?: ReadonlyMap<number, IndexedLeaf>): IndexedLeaf {
    const leaf = this.leaves.get(index) ?? known?.get(index) ?? this.base.getLeaves([index])[0];
    if (!leaf) throw new Error(`${this.info.name}: leaf ${index} is empty but is linked from the sorted list`);
    return leaf;
  }

  /** The node map of a level, for reading (empty when nothing was computed there). */
  private peek(level: number): ReadonlyMap<number, Buffer> {
    return this.nodes[level] ?? NO_NODES;
  }

  /** The node map of a level, for writing. */
  private level(level: number): Map<number, Buffer> {
    let m = this.nodes[level];
    if (!m) {
      m = new Map();
      this.nodes[level] = m;
    }
    return m;
  }

  private setLeaf(index: number, leaf: IndexedLeaf): void {
    this.leaves.set(index, leaf);
    this.dirty.add(index);
  }

  private ensureCapacity(added: number): void {
    if (this.size + added > 2 ** this.info.height) {
      throw new InvalidWorldStateArgumentError(
        `${this.info.name} is full: ${this.size} + ${added} leaves exceed its capacity 2^${this.info.height}`,
      );
    }
  }

  private checkIndex(index: number): void {
    if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** this.info.height) {
      throw new InvalidWorldStateArgumentError(
        `Leaf index ${index} is outside ${this.info.name} (0 to 2^${this.info.height} - 1)`,
      );
    }
  }

  private requireKind(kind: IndexedLeafKind): void {
    if (this.info.kind !== kind) {
      throw new InvalidWorldStateArgumentError(`${this.info.name} does not take ${kind} insertions`);
    }
  }

  private requireIndexed(): void {
    if (this.info.kind === 'append-only') {
      throw new InvalidWorldStateArgumentError(`${this.info.name} is not an indexed tree`);
    }
  }
}

const NO_NODES: ReadonlyMap<number, Buffer> = new Map();

/** Low leaves by index, as read by predecessors(); saves reading them again while linking. */
function lowLeafMap(lows: readonly LowLeaf[]): Map<number, IndexedLeaf> {
  const m = new Map<number, IndexedLeaf>();
  for (const l of lows) m.set(l.index, l.leaf);
  return m;
}

/** Unique parents of sorted node indices, sorted. */
function parentsOf(indices: Float64Array): Float64Array {
  const out = new Float64Array(indices.length);
  let n = 0;
  let last = -1;
  for (let k = 0; k < indices.length; k++) {
    const p = Math.floor((indices[k] as number) / 2);
    if (p !== last) {
      out[n++] = p;
      last = p;
    }
  }
  return out.subarray(0, n);
}

function asBuffer(u8: Uint8Array): Buffer {
  return Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}

interface NewEntry {
  key: Buffer;
  value: Buffer;
  index: number;
  pred: number;
}
