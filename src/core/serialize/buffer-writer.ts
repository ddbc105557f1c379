import type { Fr } from '../fr.js';
import { writeField32 } from './field-bytes.js';

const MASK64 = (1n << 64n) - 1n;

/**
 * Writes Aztec's big-endian binary layouts. Grows as needed; sizing it right up front (every fixed-size type
 * knows its size) avoids copies. Zero fields are skipped: the buffer is zero-filled.
 */
export class BufferWriter {
  private buf: Buffer;
  private view: DataView;
  private pos = 0;

  constructor(capacity = 256) {
    this.buf = Buffer.alloc(Math.max(capacity, 16));
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  get length(): number {
    return this.pos;
  }

  writeU8(v: number): void {
    this.ensure(1);
    this.view.setUint8(this.pos++, v);
  }

  writeU32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, v);
    this.pos += 4;
  }

  writeU64(v: bigint): void {
    this.ensure(8);
    this.view.setBigUint64(this.pos, v);
    this.pos += 8;
  }

  writeU128(v: bigint): void {
    this.ensure(16);
    this.view.setBigUint64(this.pos, v >> 64n);
    this.view.setBigUint64(this.pos + 8, v & MASK64);
    this.pos += 16;
  }

  writeBool(v: boolean): void {
    this.writeU8(v ? 1 : 0);
  }

  writeField(v: bigint): void {
    this.ensure(32);
    if (v !== 0n) writeField32(this.view, this.pos, v);
    this.pos += 32;
  }

  writeFr(f: Fr): void {
    this.writeField(f.value);
  }

  writeBytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** The bytes written so far (a view when the capacity was exact, else a copy-free subarray). */
  toBuffer(): Buffer {
    return this.pos === this.buf.length ? this.buf : this.buf.subarray(0, this.pos);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.alloc(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }
}
