import { readField32 } from '../../core/serialize/field-bytes.js';

/**
 * A leaf of an indexed tree: a node of the sorted linked list by key. Nullifier leaves have no value
 * (always zero). Fields are 32-byte big-endian buffers, so keys compare with Buffer.compare in numeric
 * order and go to SQLite and the hasher without conversion.
 */
export interface IndexedLeaf {
  readonly key: Buffer;
  readonly value: Buffer;
  readonly nextKey: Buffer;
  readonly nextIndex: number;
}

/** The typed form handed to callers: a nullifier leaf has value 0n. */
export interface IndexedLeafPreimage {
  readonly key: bigint;
  readonly value: bigint;
  readonly nextKey: bigint;
  readonly nextIndex: bigint;
}

export const ZERO32: Buffer = Buffer.alloc(32);

export type IndexedLeafKind = 'nullifier' | 'public-data';

/**
 * Number of fields hashed per leaf: H(value, nextValue, nextIndex) for nullifiers and
 * H(slot, value, nextSlot, nextIndex) for public data (docs/aztec-facts.md section 3.2).
 */
export function leafHashWidth(kind: IndexedLeafKind): number {
  return kind === 'nullifier' ? 3 : 4;
}

/** Writes the fields a leaf is hashed over at `offset`. */
export function writeLeafHashInput(kind: IndexedLeafKind, leaf: IndexedLeaf, out: Uint8Array, offset: number): void {
  out.set(leaf.key, offset);
  let o = offset + 32;
  if (kind === 'public-data') {
    out.set(leaf.value, o);
    o += 32;
  }
  out.set(leaf.nextKey, o);
  writeIndexField(out, o + 32, leaf.nextIndex);
}

/** A leaf index (< 2^53) as a 32-byte big-endian field. */
export function writeIndexField(out: Uint8Array, offset: number, index: number): void {
  out.fill(0, offset, offset + 24);
  const hi = Math.floor(index / 0x100000000);
  const lo = index >>> 0;
  out[offset + 24] = hi >>> 24;
  out[offset + 25] = (hi >>> 16) & 0xff;
  out[offset + 26] = (hi >>> 8) & 0xff;
  out[offset + 27] = hi & 0xff;
  out[offset + 28] = lo >>> 24;
  out[offset + 29] = (lo >>> 16) & 0xff;
  out[offset + 30] = (lo >>> 8) & 0xff;
  out[offset + 31] = lo & 0xff;
}

/**
 * Storage form: key, [value,] nextKey (32 bytes each) and nextIndex as 8 bytes big-endian. Nullifier leaves
 * skip the always-zero value (72 bytes instead of 104).
 */
export function encodeIndexedLeaf(kind: IndexedLeafKind, leaf: IndexedLeaf): Buffer {
  const pd = kind === 'public-data';
  const out = Buffer.allocUnsafe(pd ? 104 : 72);
  leaf.key.copy(out, 0);
  let o = 32;
  if (pd) {
    leaf.value.copy(out, o);
    o += 32;
  }
  leaf.nextKey.copy(out, o);
  out.writeUIntBE(Math.floor(leaf.nextIndex / 0x10000), o + 32, 6);
  out.writeUInt16BE(leaf.nextIndex & 0xffff, o + 38);
  return out;
}

export function decodeIndexedLeaf(kind: IndexedLeafKind, blob: Uint8Array): IndexedLeaf {
  const buf = Buffer.isBuffer(blob) ? blob : Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const pd = kind === 'public-data';
  if (buf.length !== (pd ? 104 : 72)) throw new Error(`Corrupt ${kind} leaf record of ${buf.length} bytes`);
  const key = buf.subarray(0, 32);
  const value = pd ? buf.subarray(32, 64) : ZERO32;
  const o = pd ? 64 : 32;
  const nextKey = buf.subarray(o, o + 32);
  const nextIndex = buf.readUIntBE(o + 32, 6) * 0x10000 + buf.readUInt16BE(o + 38);
  return { key, value, nextKey, nextIndex };
}

export function toLeafPreimage(leaf: IndexedLeaf): IndexedLeafPreimage {
  return {
    key: readField32(leaf.key),
    value: readField32(leaf.value),
    nextKey: readField32(leaf.nextKey),
    nextIndex: BigInt(leaf.nextIndex),
  };
}
