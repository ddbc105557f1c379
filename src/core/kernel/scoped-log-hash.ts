import { AztecAddress } from '../aztec-address.js';
import { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';

/**
 * A commitment to a log carried outside the kernel output (contract class logs): the log's hash, its emitted
 * length and the emitting contract. Binary: value (32 B), u32 length, contract (32 B); fields: 3.
 */
export class ScopedLogHash {
  static readonly SIZE_IN_BYTES = 68;
  static readonly FIELD_COUNT = 3;
  static readonly EMPTY = new ScopedLogHash(Fr.ZERO, 0, AztecAddress.ZERO);

  constructor(
    readonly value: Fr,
    readonly length: number,
    readonly contractAddress: AztecAddress,
  ) {}

  isEmpty(): boolean {
    return this.value.isZero() && this.length === 0 && this.contractAddress.isZero();
  }

  static read(r: BufferReader, name: string, index?: number | string): ScopedLogHash {
    const value = r.readFr(name, index);
    const length = r.readU32(name, index);
    const contract = r.readFieldValue(name, index);
    if (value.isZero() && length === 0 && contract === 0n) return ScopedLogHash.EMPTY;
    return new ScopedLogHash(value, length, new AztecAddress(contract));
  }

  write(w: BufferWriter): void {
    w.writeFr(this.value);
    w.writeU32(this.length);
    w.writeField(this.contractAddress.value);
  }

  writeFields(f: FieldWriter): void {
    f.fr(this.value);
    f.u32(this.length);
    f.field(this.contractAddress.value);
  }
}
