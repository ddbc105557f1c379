/**
 * A call frame's tagged memory: 2^32 cells, each a tag (0 = field, 1..6 = u1..u128) and a value. Unwritten cells
 * read as field 0. Transpiled Noir uses a compact low region, so cells below a growing bound live in a tag byte
 * array and a bigint array (no allocation per access); the rare cells above it go in maps.
 */
import { AVM_MEMORY_SIZE, MEM_TAG_FF, MEM_TAG_U32 } from '../constants.js';
import { AvmHaltError, memorySliceOutOfRange, tagMismatchAt, tagName } from './errors.js';

/** Cells below this address are stored densely; the arrays grow on demand up to it. */
const DENSE_LIMIT = 1 << 22;
const INITIAL_CAPACITY = 1 << 10;

export const TAG_BITS = [0, 1, 8, 16, 32, 64, 128];
export const TAG_MASKS = TAG_BITS.map((b) => (1n << BigInt(b)) - 1n);

export class TaggedMemory {
  private tags = new Uint8Array(INITIAL_CAPACITY);
  private vals: bigint[] = new Array<bigint>(INITIAL_CAPACITY).fill(0n);
  private sparseTags: Map<number, number> | undefined;
  private sparseVals: Map<number, bigint> | undefined;

  getTag(addr: number): number {
    if (addr < this.tags.length) return this.tags[addr] as number;
    if (addr < DENSE_LIMIT || this.sparseTags === undefined) return MEM_TAG_FF;
    return this.sparseTags.get(addr) ?? MEM_TAG_FF;
  }

  get(addr: number): bigint {
    if (addr < this.vals.length) return this.vals[addr] as bigint;
    if (addr < DENSE_LIMIT || this.sparseVals === undefined) return 0n;
    return this.sparseVals.get(addr) ?? 0n;
  }

  set(addr: number, tag: number, value: bigint): void {
    if (addr < this.tags.length) {
      this.tags[addr] = tag;
      this.vals[addr] = value;
    } else if (addr < DENSE_LIMIT) {
      this.grow(addr);
      this.tags[addr] = tag;
      this.vals[addr] = value;
    } else {
      if (this.sparseTags === undefined) {
        this.sparseTags = new Map();
        this.sparseVals = new Map();
      }
      this.sparseTags.set(addr, tag);
      this.sparseVals!.set(addr, value);
    }
  }

  private grow(addr: number): void {
    let cap = this.tags.length;
    while (cap <= addr) cap *= 2;
    if (cap > DENSE_LIMIT) cap = DENSE_LIMIT;
    const tags = new Uint8Array(cap);
    tags.set(this.tags);
    this.tags = tags;
    const vals = this.vals;
    for (let i = vals.length; i < cap; i++) vals.push(0n);
  }

  /** Throws 4.1.2's tag-mismatch halt unless the cell has `tag`. */
  checkTag(addr: number, tag: number): void {
    const got = this.getTag(addr);
    if (got !== tag) throw tagMismatchAt(addr, got, tag);
  }

  /** Checks a range of cells for one tag, the range itself first. */
  checkTagRange(addr: number, size: number, tag: number): void {
    checkSlice(addr, size);
    for (let i = 0; i < size; i++) this.checkTag(addr + i, tag);
  }

  /** Values of a range of cells (range checked, as a slice read). */
  getSlice(addr: number, size: number): bigint[] {
    checkSlice(addr, size);
    const out = new Array<bigint>(size);
    for (let i = 0; i < size; i++) out[i] = this.get(addr + i);
    return out;
  }

  /** Writes values with one tag to a range of cells (range checked first). */
  setSlice(addr: number, tag: number, values: readonly bigint[]): void {
    checkSlice(addr, values.length);
    for (let i = 0; i < values.length; i++) this.set(addr + i, tag, values[i] as bigint);
  }

  /** Reads a cell that must hold a memory address (u32): the base address and indirect operands. */
  readAddress(addr: number, what: 'base' | 'indirect'): number {
    const tag = this.getTag(addr);
    if (tag !== MEM_TAG_U32) {
      throw new AvmHaltError(
        what === 'base'
          ? `Base address (mem[0]) is not a valid address (has tag ${tagName(tag)})`
          : `Address after indirection is not a valid address (address ${addr} has tag ${tagName(tag)})`,
      );
    }
    return Number(this.get(addr));
  }
}

export function checkSlice(addr: number, size: number): void {
  if (addr + size > AVM_MEMORY_SIZE) throw memorySliceOutOfRange(addr, size);
}
