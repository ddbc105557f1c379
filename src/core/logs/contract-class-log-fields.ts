import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS } from '../constants.js';
import { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import { FieldWriter } from '../serialize/field-writer.js';
import { readFrArray, readObject } from '../serialize/json-reader.js';

export interface ContractClassLogFieldsJson {
  fields: string[];
}

/**
 * The payload of a contract class log, always 3,023 fields (zero padded). Txs carry it beside their kernel
 * output (`Tx.contractClassLogFields`), which commits to it by its Poseidon2 hash (no separator).
 */
export class ContractClassLogFields {
  static readonly SIZE_IN_BYTES = CONTRACT_CLASS_LOG_SIZE_IN_FIELDS * 32;

  constructor(readonly fields: readonly Fr[]) {
    if (fields.length !== CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(
        `A contract class log has ${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS} fields, got ${fields.length}`,
      );
    }
  }

  /** The emitted fields zero padded to the fixed length. */
  static fromEmitted(emitted: readonly Fr[]): ContractClassLogFields {
    if (emitted.length > CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(
        `A contract class log holds at most ${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS} fields, got ${emitted.length}`,
      );
    }
    const fields = emitted.slice();
    for (let i = emitted.length; i < CONTRACT_CLASS_LOG_SIZE_IN_FIELDS; i++) fields.push(Fr.ZERO);
    return new ContractClassLogFields(fields);
  }

  getEmittedFields(emittedLength: number): Fr[] {
    return this.fields.slice(0, emittedLength);
  }

  isEmpty(): boolean {
    return this.fields.every((f) => f.isZero());
  }

  equals(other: ContractClassLogFields): boolean {
    return this.fields.every((f, i) => f.equals(other.fields[i] as Fr));
  }

  /** Poseidon2 over all 3,023 fields: the log hash the kernel output commits to. */
  hash(): bigint {
    const f = new FieldWriter(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    for (const x of this.fields) f.fr(x);
    return f.hash();
  }

  static read(r: BufferReader, name: string, index?: number | string): ContractClassLogFields {
    const fields = new Array<Fr>(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    for (let i = 0; i < CONTRACT_CLASS_LOG_SIZE_IN_FIELDS; i++) fields[i] = r.readFr(name, index);
    return new ContractClassLogFields(fields);
  }

  write(w: BufferWriter): void {
    for (const f of this.fields) w.writeFr(f);
  }

  toJSON(): ContractClassLogFieldsJson {
    return { fields: this.fields.map((f) => f.toString()) };
  }

  static fromJSON(json: unknown, path = 'contractClassLogFields'): ContractClassLogFields {
    const o = readObject(json, path);
    const fields = readFrArray(o.fields, path, 'fields', CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    if (fields.length !== CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) {
      throw new DecodeError(
        joinPath(path, 'fields'),
        `a contract class log has exactly ${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS} fields, received ${fields.length}`,
      );
    }
    return new ContractClassLogFields(fields);
  }
}
