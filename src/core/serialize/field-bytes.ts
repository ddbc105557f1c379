/**
 * Bigints as 32 big-endian bytes, the form field elements take in buffers, in hashes' inputs and in SQLite
 * (where byte order is numeric order). The one home of the conversion: four 64-bit words, no per-byte loop.
 * Values of 2^256 and up keep their low 256 bits.
 */

const MASK64 = (1n << 64n) - 1n;

/** Writes `v` as 32 big-endian bytes into a DataView at `offset`. */
export function writeField32(view: DataView, offset: number, v: bigint): void {
  view.setBigUint64(offset, v >> 192n);
  view.setBigUint64(offset + 8, (v >> 128n) & MASK64);
  view.setBigUint64(offset + 16, (v >> 64n) & MASK64);
  view.setBigUint64(offset + 24, v & MASK64);
}

/** Writes `v` as 32 big-endian bytes into `buf` at `offset`. */
export function writeBigInt32(buf: Uint8Array, offset: number, v: bigint): void {
  writeField32(new DataView(buf.buffer, buf.byteOffset, buf.byteLength), offset, v);
}

/** `v` as a new 32-byte big-endian buffer. */
export function bigIntToBuffer32(v: bigint): Buffer {
  const b = Buffer.allocUnsafe(32);
  writeField32(new DataView(b.buffer, b.byteOffset, 32), 0, v);
  return b;
}

/** Reads 32 big-endian bytes at `offset` as a bigint. */
export function readField32(bytes: Uint8Array, offset = 0): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const a = view.getBigUint64(offset);
  const b = view.getBigUint64(offset + 8);
  const c = view.getBigUint64(offset + 16);
  const d = view.getBigUint64(offset + 24);
  return (a << 192n) | (b << 128n) | (c << 64n) | d;
}

/** Reads `length` big-endian bytes at `offset` as a bigint (0 for none). */
export function bytesToBigInt(buf: Uint8Array, offset: number, length: number): bigint {
  let hex = '';
  for (let i = offset; i < offset + length; i++) hex += (buf[i] as number).toString(16).padStart(2, '0');
  return hex.length === 0 ? 0n : BigInt(`0x${hex}`);
}
