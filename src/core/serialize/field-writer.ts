import { poseidon2HashBytes } from '../crypto/poseidon2.js';
import type { Fr } from '../fr.js';
import { readField32, writeField32 } from './field-bytes.js';

/**
 * Collects the "fields" form of a structure (Aztec's `toFields`: every member as one field element, in
 * declaration order) straight into 32-byte big-endian slots, the form the Poseidon2 engine consumes.
 * Hashing a tx (1,281 or 2,784 fields) this way avoids a bigint-to-bytes conversion per field, and the
 * zero padding that dominates kernel outputs costs nothing.
 */
export class FieldWriter {
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private index = 0;

  constructor(readonly capacity: number) {
    this.bytes = new Uint8Array(capacity * 32);
    this.view = new DataView(this.bytes.buffer);
  }

  /** How many fields were written. */
  get count(): number {
    return this.index;
  }

  field(v: bigint): void {
    const i = this.slot();
    if (v !== 0n) writeField32(this.view, i * 32, v);
  }

  fr(f: Fr): void {
    this.field(f.value);
  }

  /** A small integer (u32, block number, length) as a field. */
  u32(n: number): void {
    const i = this.slot();
    this.view.setUint32(i * 32 + 28, n);
  }

  /** An integer below 2^128 (u64 timestamps, u128 fees) as a field. */
  u128(v: bigint): void {
    const i = this.slot();
    this.view.setBigUint64(i * 32 + 16, v >> 64n);
    this.view.setBigUint64(i * 32 + 24, v & 0xffffffffffffffffn);
  }

  bool(b: boolean): void {
    const i = this.slot();
    if (b) this.view.setUint8(i * 32 + 31, 1);
  }

  /** Right-aligned raw bytes (an Ethereum address is its 20 bytes as a number). */
  bytesAsField(b: Uint8Array): void {
    const i = this.slot();
    this.bytes.set(b, i * 32 + 32 - b.length);
  }

  /** The fields as bigints, for tests and callers that need values rather than a hash. */
  toBigInts(): bigint[] {
    const out = new Array<bigint>(this.index);
    for (let i = 0; i < this.index; i++) out[i] = readField32(this.bytes, i * 32);
    return out;
  }

  /** Plain Poseidon2 sponge hash over the written fields. */
  hash(): bigint {
    const inputs = new Array<Uint8Array>(this.index);
    for (let i = 0; i < this.index; i++) inputs[i] = this.bytes.subarray(i * 32, i * 32 + 32);
    return readField32(poseidon2HashBytes(inputs));
  }

  /** poseidon2HashWithSeparator over the written fields: the separator goes in front as one more field. */
  hashWithSeparator(separator: number | bigint): bigint {
    const inputs = new Array<Uint8Array>(this.index + 1);
    const sep = new Uint8Array(32);
    writeField32(new DataView(sep.buffer), 0, BigInt(separator));
    inputs[0] = sep;
    for (let i = 0; i < this.index; i++) inputs[i + 1] = this.bytes.subarray(i * 32, i * 32 + 32);
    return readField32(poseidon2HashBytes(inputs));
  }

  private slot(): number {
    if (this.index >= this.capacity) throw new Error(`FieldWriter: more than ${this.capacity} fields written`);
    return this.index++;
  }
}
