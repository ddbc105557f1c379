import { FR_MODULUS, Fr } from '../fr.js';
import { DecodeError, joinPath } from './decode-error.js';

/**
 * Reads Aztec's big-endian binary layouts (the `toBuffer` forms of 4.1.2): fields as 32 bytes, u32/u64/u128
 * as 4/8/16 bytes, booleans as one byte. Every read names the field it is for, so a short or malformed
 * buffer fails with the path of the first bad field. Names are only formatted when a read fails.
 */
export class BufferReader {
  private readonly view: DataView;
  private pos: number;

  constructor(
    readonly buffer: Uint8Array,
    offset = 0,
    /** Prefix for the paths in error messages. */
    readonly root = '',
  ) {
    this.view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    this.pos = offset;
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buffer.length - this.pos;
  }

  readU8(name: string, index?: number | string): number {
    this.need(1, name, index);
    return this.view.getUint8(this.pos++);
  }

  readU32(name: string, index?: number | string): number {
    this.need(4, name, index);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  readU64(name: string, index?: number | string): bigint {
    this.need(8, name, index);
    const v = this.view.getBigUint64(this.pos);
    this.pos += 8;
    return v;
  }

  readU128(name: string, index?: number | string): bigint {
    this.need(16, name, index);
    const hi = this.view.getBigUint64(this.pos);
    const lo = this.view.getBigUint64(this.pos + 8);
    this.pos += 16;
    return hi === 0n ? lo : (hi << 64n) | lo;
  }

  /** A boolean byte. Only 0 and 1 are accepted, so that re-serialising gives the same bytes. */
  readBool(name: string, index?: number | string): boolean {
    const b = this.readU8(name, index);
    if (b > 1) throw this.error(name, index, `a boolean byte must be 0 or 1, got ${b}`);
    return b === 1;
  }

  /** 32 big-endian bytes holding a field element below the BN254 modulus. */
  readFieldValue(name: string, index?: number | string): bigint {
    this.need(32, name, index);
    const v = this.view;
    const p = this.pos;
    this.pos = p + 32;
    const a = v.getBigUint64(p);
    const b = v.getBigUint64(p + 8);
    const c = v.getBigUint64(p + 16);
    const d = v.getBigUint64(p + 24);
    if (a === 0n && b === 0n && c === 0n) return d;
    const x = (a << 192n) | (b << 128n) | (c << 64n) | d;
    if (x >= FR_MODULUS) throw this.error(name, index, `value 0x${x.toString(16)} is not below the field modulus`);
    return x;
  }

  /** A field element; zero comes back as the shared Fr.ZERO (most of Aztec's fixed arrays are zero padding). */
  readFr(name: string, index?: number | string): Fr {
    const v = this.readFieldValue(name, index);
    return v === 0n ? Fr.ZERO : new Fr(v);
  }

  /** `length` raw bytes, as a view into the underlying buffer (no copy). */
  readBytes(length: number, name: string, index?: number | string): Uint8Array {
    this.need(length, name, index);
    const out = this.buffer.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  /** Fails unless every byte was consumed; a decoder calls it after reading a whole top-level value. */
  assertEnd(what: string): void {
    if (this.pos !== this.buffer.length) {
      throw new DecodeError(
        joinPath(this.root, what),
        `${this.buffer.length - this.pos} unexpected trailing bytes after ${this.pos} bytes`,
      );
    }
  }

  error(name: string, index: number | string | undefined, reason: string): DecodeError {
    return new DecodeError(joinPath(joinPath(this.root, name), index), reason);
  }

  private need(n: number, name: string, index: number | string | undefined): void {
    if (this.pos + n > this.buffer.length) {
      throw this.error(
        name,
        index,
        `needs ${n} bytes at offset ${this.pos}, only ${Math.max(0, this.buffer.length - this.pos)} left`,
      );
    }
  }
}
