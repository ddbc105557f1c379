import { DomainSeparator } from '../constants.js';
import { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { FieldWriter } from '../serialize/field-writer.js';
import { readFr, readFrArray, readObject } from '../serialize/json-reader.js';

export interface HashedValuesJson {
  values: string[];
  hash: string;
}

/**
 * Values with their claimed hash: the calldata of one enqueued public call in `Tx.publicFunctionCalldata`.
 * The hash is not checked here (a validator compares it with computeCalldataHash). Binary: u32 count,
 * values, hash.
 */
export class HashedValues {
  constructor(
    readonly values: readonly Fr[],
    readonly hash: Fr,
  ) {}

  /** Calldata with its correct hash. */
  static fromCalldata(values: readonly Fr[]): HashedValues {
    return new HashedValues(values, new Fr(computeCalldataHash(values)));
  }

  getSize(): number {
    return 4 + 32 * this.values.length + 32;
  }

  static read(r: BufferReader, name: string, index?: number | string): HashedValues {
    const n = r.readU32(name, index);
    if (n * 32 > r.remaining) throw r.error(name, index, `claims ${n} values, more than the bytes left`);
    const values = new Array<Fr>(n);
    for (let i = 0; i < n; i++) values[i] = r.readFr(name, index);
    return new HashedValues(values, r.readFr(name, index));
  }

  write(w: BufferWriter): void {
    w.writeU32(this.values.length);
    for (const v of this.values) w.writeFr(v);
    w.writeFr(this.hash);
  }

  toJSON(): HashedValuesJson {
    return { values: this.values.map((v) => v.toString()), hash: this.hash.toString() };
  }

  static fromJSON(json: unknown, path = 'hashedValues'): HashedValues {
    const o = readObject(json, path);
    return new HashedValues(readFrArray(o.values, path, 'values'), readFr(o.hash, path, 'hash'));
  }
}

/** The hash a public call request commits to: Poseidon2 with the PUBLIC_CALLDATA separator. */
export function computeCalldataHash(calldata: readonly Fr[]): bigint {
  const f = new FieldWriter(calldata.length);
  for (const v of calldata) f.fr(v);
  return f.hashWithSeparator(DomainSeparator.PUBLIC_CALLDATA);
}
