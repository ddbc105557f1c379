import {
  DEFAULT_DA_GAS_LIMIT,
  DEFAULT_L2_GAS_LIMIT,
  DEFAULT_TEARDOWN_DA_GAS_LIMIT,
  DEFAULT_TEARDOWN_L2_GAS_LIMIT,
} from '../constants.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import { readObject } from '../serialize/json-reader.js';
import { Gas, type GasJson } from './gas.js';
import { GasFees, type GasFeesJson } from './gas-fees.js';

export interface GasSettingsJson {
  gasLimits: GasJson;
  teardownGasLimits: GasJson;
  maxFeesPerGas: GasFeesJson;
  maxPriorityFeesPerGas: GasFeesJson;
}

/** What a tx is willing to spend: gas limits (total and teardown) and max (priority) fees per gas. */
export class GasSettings {
  static readonly SIZE_IN_BYTES = 2 * Gas.SIZE_IN_BYTES + 2 * GasFees.SIZE_IN_BYTES;
  static readonly FIELD_COUNT = 8;

  constructor(
    readonly gasLimits: Gas,
    readonly teardownGasLimits: Gas,
    readonly maxFeesPerGas: GasFees,
    readonly maxPriorityFeesPerGas: GasFees,
  ) {}

  static empty(): GasSettings {
    return new GasSettings(Gas.ZERO, Gas.ZERO, GasFees.ZERO, GasFees.ZERO);
  }

  /** 4.1.2's defaults for the limits (GasSettings.default); fees must be chosen. */
  static default(maxFeesPerGas: GasFees, maxPriorityFeesPerGas: GasFees = GasFees.ZERO): GasSettings {
    return new GasSettings(
      new Gas(DEFAULT_DA_GAS_LIMIT, DEFAULT_L2_GAS_LIMIT),
      new Gas(DEFAULT_TEARDOWN_DA_GAS_LIMIT, DEFAULT_TEARDOWN_L2_GAS_LIMIT),
      maxFeesPerGas,
      maxPriorityFeesPerGas,
    );
  }

  /** The most this tx can pay: sum over dimensions of gas limit x max fee per gas. */
  getFeeLimit(): bigint {
    return (
      BigInt(this.gasLimits.daGas) * this.maxFeesPerGas.feePerDaGas +
      BigInt(this.gasLimits.l2Gas) * this.maxFeesPerGas.feePerL2Gas
    );
  }

  equals(other: GasSettings): boolean {
    return (
      this.gasLimits.equals(other.gasLimits) &&
      this.teardownGasLimits.equals(other.teardownGasLimits) &&
      this.maxFeesPerGas.equals(other.maxFeesPerGas) &&
      this.maxPriorityFeesPerGas.equals(other.maxPriorityFeesPerGas)
    );
  }

  static read(r: BufferReader, name = 'gasSettings'): GasSettings {
    return new GasSettings(
      Gas.read(r, `${name}.gasLimits`),
      Gas.read(r, `${name}.teardownGasLimits`),
      GasFees.read(r, `${name}.maxFeesPerGas`),
      GasFees.read(r, `${name}.maxPriorityFeesPerGas`),
    );
  }

  write(w: BufferWriter): void {
    this.gasLimits.write(w);
    this.teardownGasLimits.write(w);
    this.maxFeesPerGas.write(w);
    this.maxPriorityFeesPerGas.write(w);
  }

  writeFields(f: FieldWriter): void {
    this.gasLimits.writeFields(f);
    this.teardownGasLimits.writeFields(f);
    this.maxFeesPerGas.writeFields(f);
    this.maxPriorityFeesPerGas.writeFields(f);
  }

  toJSON(): GasSettingsJson {
    return {
      gasLimits: this.gasLimits.toJSON(),
      teardownGasLimits: this.teardownGasLimits.toJSON(),
      maxFeesPerGas: this.maxFeesPerGas.toJSON(),
      maxPriorityFeesPerGas: this.maxPriorityFeesPerGas.toJSON(),
    };
  }

  static fromJSON(json: unknown, path = 'gasSettings'): GasSettings {
    const o = readObject(json, path);
    return new GasSettings(
      Gas.fromJSON(o.gasLimits, joinPath(path, 'gasLimits')),
      Gas.fromJSON(o.teardownGasLimits, joinPath(path, 'teardownGasLimits')),
      GasFees.fromJSON(o.maxFeesPerGas, joinPath(path, 'maxFeesPerGas')),
      GasFees.fromJSON(o.maxPriorityFeesPerGas, joinPath(path, 'maxPriorityFeesPerGas')),
    );
  }
}
