import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { readBigInt, readObject, U128_MAX } from '../serialize/json-reader.js';

export interface GasFeesJson {
  feePerDaGas: string;
  feePerL2Gas: string;
}

/**
 * Prices per unit of gas in each dimension (DA, L2), as in block global variables, min fees and a tx's
 * max fees. u128 each in binary; decimal strings in JSON.
 */
export class GasFees {
  static readonly SIZE_IN_BYTES = 32;
  static readonly FIELD_COUNT = 2;
  static readonly ZERO = new GasFees(0n, 0n);

  constructor(
    readonly feePerDaGas: bigint,
    readonly feePerL2Gas: bigint,
  ) {
    if (feePerDaGas < 0n || feePerDaGas > U128_MAX)
      throw new RangeError(`feePerDaGas out of u128 range: ${feePerDaGas}`);
    if (feePerL2Gas < 0n || feePerL2Gas > U128_MAX)
      throw new RangeError(`feePerL2Gas out of u128 range: ${feePerL2Gas}`);
  }

  static empty(): GasFees {
    return GasFees.ZERO;
  }

  isEmpty(): boolean {
    return this.feePerDaGas === 0n && this.feePerL2Gas === 0n;
  }

  equals(other: GasFees): boolean {
    return this.feePerDaGas === other.feePerDaGas && this.feePerL2Gas === other.feePerL2Gas;
  }

  static read(r: BufferReader, name = 'gasFees'): GasFees {
    return new GasFees(r.readU128(name, 'feePerDaGas'), r.readU128(name, 'feePerL2Gas'));
  }

  write(w: BufferWriter): void {
    w.writeU128(this.feePerDaGas);
    w.writeU128(this.feePerL2Gas);
  }

  writeFields(f: FieldWriter): void {
    f.u128(this.feePerDaGas);
    f.u128(this.feePerL2Gas);
  }

  toJSON(): GasFeesJson {
    return { feePerDaGas: this.feePerDaGas.toString(), feePerL2Gas: this.feePerL2Gas.toString() };
  }

  static fromJSON(json: unknown, path = 'gasFees'): GasFees {
    const o = readObject(json, path);
    return new GasFees(
      readBigInt(o.feePerDaGas, path, 'feePerDaGas', U128_MAX),
      readBigInt(o.feePerL2Gas, path, 'feePerL2Gas', U128_MAX),
    );
  }
}
