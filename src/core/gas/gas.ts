import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { readObject, readU32 } from '../serialize/json-reader.js';

export interface GasJson {
  daGas: number;
  l2Gas: number;
}

/** An amount of gas in each dimension (gas limits, gas used). u32 each in binary; JSON numbers. */
export class Gas {
  static readonly SIZE_IN_BYTES = 8;
  static readonly FIELD_COUNT = 2;
  static readonly ZERO = new Gas(0, 0);

  constructor(
    readonly daGas: number,
    readonly l2Gas: number,
  ) {
    if (!isU32(daGas)) throw new RangeError(`daGas must be a u32, got ${daGas}`);
    if (!isU32(l2Gas)) throw new RangeError(`l2Gas must be a u32, got ${l2Gas}`);
  }

  static empty(): Gas {
    return Gas.ZERO;
  }

  isEmpty(): boolean {
    return this.daGas === 0 && this.l2Gas === 0;
  }

  equals(other: Gas): boolean {
    return this.daGas === other.daGas && this.l2Gas === other.l2Gas;
  }

  static read(r: BufferReader, name = 'gas'): Gas {
    return new Gas(r.readU32(name, 'daGas'), r.readU32(name, 'l2Gas'));
  }

  write(w: BufferWriter): void {
    w.writeU32(this.daGas);
    w.writeU32(this.l2Gas);
  }

  writeFields(f: FieldWriter): void {
    f.u32(this.daGas);
    f.u32(this.l2Gas);
  }

  toJSON(): GasJson {
    return { daGas: this.daGas, l2Gas: this.l2Gas };
  }

  static fromJSON(json: unknown, path = 'gas'): Gas {
    const o = readObject(json, path);
    return new Gas(readU32(o.daGas, path, 'daGas'), readU32(o.l2Gas, path, 'l2Gas'));
  }
}

function isU32(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
}
