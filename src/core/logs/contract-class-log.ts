import { AztecAddress } from '../aztec-address.js';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS } from '../constants.js';
import type { Fr } from '../fr.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import { readAztecAddress, readObject, readStrictInteger } from '../serialize/json-reader.js';
import { ContractClassLogFields, type ContractClassLogFieldsJson } from './contract-class-log-fields.js';

export interface ContractClassLogJson {
  contractAddress: string;
  fields: ContractClassLogFieldsJson;
  emittedLength: number;
}

/**
 * A contract class log as it appears in a tx effect: the emitting contract (the class registry), the padded
 * payload and how many fields were emitted. Binary: address, 3,023 fields, u32 emittedLength. Note the
 * nested `fields.fields` in JSON.
 */
export class ContractClassLog {
  static readonly SIZE_IN_BYTES = 32 + ContractClassLogFields.SIZE_IN_BYTES + 4;

  constructor(
    readonly contractAddress: AztecAddress,
    readonly fields: ContractClassLogFields,
    readonly emittedLength: number,
  ) {
    if (!Number.isInteger(emittedLength) || emittedLength < 0 || emittedLength > CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) {
      throw new RangeError(`emittedLength must be 0..${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS}, got ${emittedLength}`);
    }
  }

  getEmittedFields(): Fr[] {
    return this.fields.getEmittedFields(this.emittedLength);
  }

  equals(other: ContractClassLog): boolean {
    return (
      this.contractAddress.equals(other.contractAddress) &&
      this.emittedLength === other.emittedLength &&
      this.fields.equals(other.fields)
    );
  }

  static read(r: BufferReader, name: string, index?: number | string): ContractClassLog {
    const address = new AztecAddress(r.readFieldValue(name, index));
    const fields = ContractClassLogFields.read(r, name, index);
    const emittedLength = r.readU32(name, index);
    if (emittedLength > CONTRACT_CLASS_LOG_SIZE_IN_FIELDS) {
      throw r.error(name, index, `emittedLength ${emittedLength} is above ${CONTRACT_CLASS_LOG_SIZE_IN_FIELDS}`);
    }
    return new ContractClassLog(address, fields, emittedLength);
  }

  write(w: BufferWriter): void {
    w.writeField(this.contractAddress.value);
    this.fields.write(w);
    w.writeU32(this.emittedLength);
  }

  toJSON(): ContractClassLogJson {
    return {
      contractAddress: this.contractAddress.toString(),
      fields: this.fields.toJSON(),
      emittedLength: this.emittedLength,
    };
  }

  static fromJSON(json: unknown, path = 'contractClassLog'): ContractClassLog {
    const o = readObject(json, path);
    return new ContractClassLog(
      readAztecAddress(o.contractAddress, path, 'contractAddress'),
      ContractClassLogFields.fromJSON(o.fields, joinPath(path, 'fields')),
      readStrictInteger(o.emittedLength, path, 'emittedLength', 0, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS),
    );
  }
}
