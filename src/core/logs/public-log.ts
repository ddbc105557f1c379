import { AztecAddress } from '../aztec-address.js';
import { MAX_PUBLIC_LOG_SIZE_IN_FIELDS, PUBLIC_LOG_HEADER_LENGTH } from '../constants.js';
import type { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { readAztecAddress, readFrArray, readObject } from '../serialize/json-reader.js';

export interface PublicLogJson {
  contractAddress: string;
  fields: string[];
}

/**
 * A log emitted by public execution: the emitting contract and the emitted fields only (no padding); the
 * tag is fields[0]. Binary: u32 field count, address (32 B), fields. In the flat per-tx payload each log
 * takes its fields plus a 2-field header (length, address).
 */
export class PublicLog {
  constructor(
    readonly contractAddress: AztecAddress,
    readonly fields: readonly Fr[],
  ) {
    if (fields.length > MAX_PUBLIC_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(`A public log holds at most ${MAX_PUBLIC_LOG_SIZE_IN_FIELDS} fields, got ${fields.length}`);
    }
  }

  /** Fields the log takes in the tx's flat public log payload. */
  sizeInFields(): number {
    return this.fields.length + PUBLIC_LOG_HEADER_LENGTH;
  }

  get tag(): Fr | undefined {
    return this.fields[0];
  }

  equals(other: PublicLog): boolean {
    return (
      this.contractAddress.equals(other.contractAddress) &&
      this.fields.length === other.fields.length &&
      this.fields.every((f, i) => f.equals(other.fields[i] as Fr))
    );
  }

  static read(r: BufferReader, name: string, index?: number | string): PublicLog {
    const n = r.readU32(name, index);
    if (n > MAX_PUBLIC_LOG_SIZE_IN_FIELDS) {
      throw r.error(name, index, `a public log holds at most ${MAX_PUBLIC_LOG_SIZE_IN_FIELDS} fields, got ${n}`);
    }
    const address = new AztecAddress(r.readFieldValue(name, index));
    const fields = new Array<Fr>(n);
    for (let i = 0; i < n; i++) fields[i] = r.readFr(name, index);
    return new PublicLog(address, fields);
  }

  write(w: BufferWriter): void {
    w.writeU32(this.fields.length);
    w.writeField(this.contractAddress.value);
    for (const f of this.fields) w.writeFr(f);
  }

  toJSON(): PublicLogJson {
    return { contractAddress: this.contractAddress.toString(), fields: this.fields.map((f) => f.toString()) };
  }

  static fromJSON(json: unknown, path = 'publicLog'): PublicLog {
    const o = readObject(json, path);
    return new PublicLog(
      readAztecAddress(o.contractAddress, path, 'contractAddress'),
      readFrArray(o.fields, path, 'fields', MAX_PUBLIC_LOG_SIZE_IN_FIELDS),
    );
  }
}
