import { PRIVATE_LOG_LENGTH, PRIVATE_LOG_SIZE_IN_FIELDS } from '../constants.js';
import { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import { BufferWriter } from '../serialize/buffer-writer.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { readFrArray, readObject, readStrictInteger } from '../serialize/json-reader.js';

export interface PrivateLogJson {
  fields: string[];
  emittedLength: number;
}

const EMPTY_FIELDS: readonly Fr[] = Object.freeze(new Array<Fr>(PRIVATE_LOG_SIZE_IN_FIELDS).fill(Fr.ZERO));

/**
 * An encrypted log emitted by private execution: always 16 fields (zero padded) plus how many were emitted.
 * The tag is fields[0]. Binary: 16 x 32 B then u32 emittedLength (516 B); fields form: the 16 fields then
 * the length (17 = PRIVATE_LOG_LENGTH). JSON is strict like 4.1.2's schema: exactly the keys `fields` and
 * `emittedLength`, and we also require exactly 16 fields (4.1.2 silently misreads other counts).
 */
export class PrivateLog {
  static readonly SIZE_IN_BYTES = PRIVATE_LOG_SIZE_IN_FIELDS * 32 + 4;
  static readonly FIELD_COUNT = PRIVATE_LOG_LENGTH;
  static readonly EMPTY = new PrivateLog(EMPTY_FIELDS, 0);

  constructor(
    readonly fields: readonly Fr[],
    readonly emittedLength: number,
  ) {
    if (fields.length !== PRIVATE_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(`A private log has ${PRIVATE_LOG_SIZE_IN_FIELDS} fields, got ${fields.length}`);
    }
    if (!Number.isInteger(emittedLength) || emittedLength < 0 || emittedLength > PRIVATE_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(`emittedLength must be 0..${PRIVATE_LOG_SIZE_IN_FIELDS}, got ${emittedLength}`);
    }
  }

  /** A log from its emitted fields (tag first), zero padded to 16. */
  static fromEmitted(emitted: readonly Fr[]): PrivateLog {
    if (emitted.length > PRIVATE_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(`A private log holds at most ${PRIVATE_LOG_SIZE_IN_FIELDS} fields, got ${emitted.length}`);
    }
    const fields = emitted.concat(EMPTY_FIELDS.slice(emitted.length));
    return new PrivateLog(fields, emitted.length);
  }

  /** Empty means nothing was emitted; 4.1.2 checks the length only. */
  isEmpty(): boolean {
    return this.emittedLength === 0;
  }

  get tag(): Fr {
    return this.fields[0] as Fr;
  }

  getEmittedFields(): Fr[] {
    return this.fields.slice(0, this.emittedLength);
  }

  equals(other: PrivateLog): boolean {
    return this.emittedLength === other.emittedLength && this.fields.every((f, i) => f.equals(other.fields[i] as Fr));
  }

  static read(r: BufferReader, name: string, index?: number | string): PrivateLog {
    const fields = new Array<Fr>(PRIVATE_LOG_SIZE_IN_FIELDS);
    for (let i = 0; i < PRIVATE_LOG_SIZE_IN_FIELDS; i++) fields[i] = r.readFr(name, index);
    const emittedLength = r.readU32(name, index);
    if (emittedLength > PRIVATE_LOG_SIZE_IN_FIELDS) {
      throw r.error(name, index, `emittedLength ${emittedLength} is above ${PRIVATE_LOG_SIZE_IN_FIELDS}`);
    }
    return new PrivateLog(fields, emittedLength);
  }

  write(w: BufferWriter): void {
    for (const f of this.fields) w.writeFr(f);
    w.writeU32(this.emittedLength);
  }

  toBuffer(): Buffer {
    const w = new BufferWriter(PrivateLog.SIZE_IN_BYTES);
    this.write(w);
    return w.toBuffer();
  }

  writeFields(f: FieldWriter): void {
    for (const x of this.fields) f.fr(x);
    f.u32(this.emittedLength);
  }

  toJSON(): PrivateLogJson {
    return { fields: this.fields.map((f) => f.toString()), emittedLength: this.emittedLength };
  }

  static fromJSON(json: unknown, path = 'privateLog'): PrivateLog {
    const o = readObject(json, path);
    for (const key in o) {
      if (key !== 'fields' && key !== 'emittedLength') {
        throw new DecodeError(path, `unrecognized key "${key}" (a private log has only fields and emittedLength)`);
      }
    }
    const fields = readFrArray(o.fields, path, 'fields', PRIVATE_LOG_SIZE_IN_FIELDS);
    if (fields.length !== PRIVATE_LOG_SIZE_IN_FIELDS) {
      throw new DecodeError(
        joinPath(path, 'fields'),
        `a private log has exactly ${PRIVATE_LOG_SIZE_IN_FIELDS} fields, received ${fields.length}`,
      );
    }
    const emittedLength = readStrictInteger(o.emittedLength, path, 'emittedLength', 0, PRIVATE_LOG_SIZE_IN_FIELDS);
    return new PrivateLog(fields, emittedLength);
  }
}
