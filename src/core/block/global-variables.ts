import { AztecAddress } from '../aztec-address.js';
import { EthAddress } from '../eth-address.js';
import { Fr, toHex64 } from '../fr.js';
import { GasFees, type GasFeesJson } from '../gas/gas-fees.js';
import type { BufferReader } from '../serialize/buffer-reader.js';
import type { BufferWriter } from '../serialize/buffer-writer.js';
import { joinPath } from '../serialize/decode-error.js';
import type { FieldWriter } from '../serialize/field-writer.js';
import {
  readAztecAddress,
  readBigInt,
  readEthAddress,
  readFr,
  readObject,
  readU32,
  U64_MAX,
} from '../serialize/json-reader.js';

export interface GlobalVariablesJson {
  chainId: string;
  version: string;
  blockNumber: number;
  /** Written as a field element hex string by 4.1.2 (its toJSON converts the slot to an Fr). */
  slotNumber: string;
  timestamp: string;
  coinbase: string;
  feeRecipient: string;
  gasFees: GasFeesJson;
}

/**
 * The per-block constants every tx of a block sees (4.1.2 tx/global_variables.ts). Binary, 164 bytes:
 * chainId, version (32 B each), blockNumber and slotNumber (u32), timestamp (u64), coinbase (20 B),
 * feeRecipient (32 B), gasFees (2 x u128). Fields: 9, one per member (gas fees are two).
 */
export class GlobalVariables {
  static readonly SIZE_IN_BYTES = 164;
  static readonly FIELD_COUNT = 9;

  constructor(
    readonly chainId: Fr,
    readonly version: Fr,
    readonly blockNumber: number,
    readonly slotNumber: number,
    /** Seconds since the epoch, u64. */
    readonly timestamp: bigint,
    readonly coinbase: EthAddress,
    readonly feeRecipient: AztecAddress,
    readonly gasFees: GasFees,
  ) {
    if (!isU32(blockNumber)) throw new RangeError(`blockNumber must be a u32, got ${blockNumber}`);
    if (!isU32(slotNumber)) throw new RangeError(`slotNumber must be a u32, got ${slotNumber}`);
    if (timestamp < 0n || timestamp > U64_MAX) throw new RangeError(`timestamp must be a u64, got ${timestamp}`);
  }

  static empty(overrides: Partial<GlobalVariablesFields> = {}): GlobalVariables {
    return GlobalVariables.from({
      chainId: Fr.ZERO,
      version: Fr.ZERO,
      blockNumber: 0,
      slotNumber: 0,
      timestamp: 0n,
      coinbase: EthAddress.ZERO,
      feeRecipient: AztecAddress.ZERO,
      gasFees: GasFees.ZERO,
      ...overrides,
    });
  }

  static from(f: GlobalVariablesFields): GlobalVariables {
    return new GlobalVariables(
      f.chainId,
      f.version,
      f.blockNumber,
      f.slotNumber,
      f.timestamp,
      f.coinbase,
      f.feeRecipient,
      f.gasFees,
    );
  }

  isEmpty(): boolean {
    return (
      this.chainId.isZero() &&
      this.version.isZero() &&
      this.blockNumber === 0 &&
      this.slotNumber === 0 &&
      this.timestamp === 0n &&
      this.coinbase.isZero() &&
      this.feeRecipient.isZero() &&
      this.gasFees.isEmpty()
    );
  }

  equals(other: GlobalVariables): boolean {
    return (
      this.chainId.equals(other.chainId) &&
      this.version.equals(other.version) &&
      this.blockNumber === other.blockNumber &&
      this.slotNumber === other.slotNumber &&
      this.timestamp === other.timestamp &&
      this.coinbase.equals(other.coinbase) &&
      this.feeRecipient.equals(other.feeRecipient) &&
      this.gasFees.equals(other.gasFees)
    );
  }

  static read(r: BufferReader, name = 'globalVariables'): GlobalVariables {
    return new GlobalVariables(
      r.readFr(name, 'chainId'),
      r.readFr(name, 'version'),
      r.readU32(name, 'blockNumber'),
      r.readU32(name, 'slotNumber'),
      r.readU64(name, 'timestamp'),
      EthAddress.fromBuffer(r.readBytes(20, name, 'coinbase')),
      new AztecAddress(r.readFieldValue(name, 'feeRecipient')),
      GasFees.read(r, `${name}.gasFees`),
    );
  }

  write(w: BufferWriter): void {
    w.writeFr(this.chainId);
    w.writeFr(this.version);
    w.writeU32(this.blockNumber);
    w.writeU32(this.slotNumber);
    w.writeU64(this.timestamp);
    w.writeBytes(this.coinbase.bytes);
    w.writeField(this.feeRecipient.value);
    this.gasFees.write(w);
  }

  writeFields(f: FieldWriter): void {
    f.fr(this.chainId);
    f.fr(this.version);
    f.u32(this.blockNumber);
    f.u32(this.slotNumber);
    f.u128(this.timestamp);
    f.bytesAsField(this.coinbase.bytes);
    f.field(this.feeRecipient.value);
    this.gasFees.writeFields(f);
  }

  toJSON(): GlobalVariablesJson {
    return {
      chainId: this.chainId.toString(),
      version: this.version.toString(),
      blockNumber: this.blockNumber,
      slotNumber: toHex64(BigInt(this.slotNumber)),
      timestamp: this.timestamp.toString(),
      coinbase: this.coinbase.toString(),
      feeRecipient: this.feeRecipient.toString(),
      gasFees: this.gasFees.toJSON(),
    };
  }

  /** Reads the wire form; `slotNumber` is read leniently (Fr hex, decimal string or number) as 4.1.2 does. */
  static fromJSON(json: unknown, path = 'globalVariables'): GlobalVariables {
    const o = readObject(json, path);
    return new GlobalVariables(
      readFr(o.chainId, path, 'chainId'),
      readFr(o.version, path, 'version'),
      readU32(o.blockNumber, path, 'blockNumber'),
      readU32(o.slotNumber, path, 'slotNumber'),
      readBigInt(o.timestamp, path, 'timestamp', U64_MAX),
      readEthAddress(o.coinbase, path, 'coinbase'),
      readAztecAddress(o.feeRecipient, path, 'feeRecipient'),
      GasFees.fromJSON(o.gasFees, joinPath(path, 'gasFees')),
    );
  }
}

export interface GlobalVariablesFields {
  chainId: Fr;
  version: Fr;
  blockNumber: number;
  slotNumber: number;
  timestamp: bigint;
  coinbase: EthAddress;
  feeRecipient: AztecAddress;
  gasFees: GasFees;
}

function isU32(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
}
