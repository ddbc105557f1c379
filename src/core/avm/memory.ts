/**
 * A call frame's tagged memory: 2^32 cells, each a tag (0 = field, 1..6 = u1..u128) and a value. Unwritten cells
 * read as field 0. Transpiled Noir touches a few regions (stack and heap below 2^16 or so), so cells live in
 * pages (a tag byte array and a bigint array) made on first write, found by index below 2^24; the rare cells above
 * go in maps. No allocation per access, and a fresh frame costs nothing until it writes.
 */
import { AVM_MEMORY_SIZE, MEM_TAG_FF, MEM_TAG_U32 } from '../constants.js';
import { AvmHaltError, memorySliceOutOfRange, tagMismatchAt, tagName } from './errors.js';

/** Cells are kept in pages of 2^PAGE_BITS, allocated when first written; pages below DENSE_LIMIT sit in an array. */
const PAGE_BITS = 10;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;
const DENSE_LIMIT = 1 << 24;

export const TAG_BITS = [0, 1, 8, 16, 32, 64, 128];
export const TAG_MASKS = TAG_BITS.map((b) => (1n << BigInt(b)) - 1n);

class Page {
  readonly tags = new Uint8Array(PAGE_SIZE);
  /** Holes read as field 0. */
  readonly vals = new Array<bigint | undefined>(PAGE_SIZE);
}

export class TaggedMemory {
  private readonly pages: (Page | undefined)[] = [];
  private sparseTags: Map<number, number> | undefined;
  private sparseVals: Map<number, bigint> | undefined;

  getTag(addr: number): number {
    const page = this.pages[addr >>> PAGE_BITS];
    if (page !== undefined) return page.tags[addr & PAGE_MASK] as number;
    if (addr < DENSE_LIMIT || this.sparseTags === undefined) return MEM_TAG_FF;
    return this.sparseTags.get(addr) ?? MEM_TAG_FF;
  }

  get(addr: number): bigint {
    const page = this.pages[addr >>> PAGE_BITS];
    if (page !== undefined) return page.vals[addr & PAGE_MASK] ?? 0n;
    if (addr < DENSE_LIMIT || this.sparseVals === undefined) return 0n;
    return this.sparseVals.get(addr) ?? 0n;
  }

  set(addr: number, tag: number, value: bigint): void {
    if (addr < DENSE_LIMIT) {
      const index = addr >>> PAGE_BITS;
      let page = this.pages[index];
      if (page === undefined) {
        while (this.pages.length < index) this.pages.push(undefined);
        page = new Page();
        this.pages[index] = page;
      }
      page.tags[addr & PAGE_MASK] = tag;
      page.vals[addr & PAGE_MASK] = value;
    } else {
      if (this.sparseTags === undefined) {
        this.sparseTags = new Map();
        this.sparseVals = new Map();
      }
      this.sparseTags.set(addr, tag);
      this.sparseVals!.set(addr, value);
    }
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
