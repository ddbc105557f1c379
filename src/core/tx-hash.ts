import { FieldParseError, toHex64 } from './fr.js';
import { bigIntToBuffer32, bytesToBigInt } from './serialize/field-bytes.js';

const HEX = /^(0x)?([0-9a-fA-F]*)$/;

/**
 * A transaction hash: 32 bytes, written as 0x + 64 lowercase hex. Input is hex with an optional 0x
 * that must decode to exactly 32 bytes (the 4.1.2 BufferHex rule). Any 32 bytes are a valid lookup key;
 * hashes the node computes are field elements.
 */
export class TxHash {
  readonly value: bigint;

  constructor(value: bigint) {
    if (value < 0n || value >= 1n << 256n) throw new FieldParseError('A tx hash has 32 bytes');
    this.value = value;
  }

  static fromString(s: string): TxHash {
    const m = typeof s === 'string' ? HEX.exec(s) : null;
    if (!m) throw new FieldParseError(`Not a hex tx hash: ${String(s).slice(0, 80)}`);
    const body = m[2] as string;
    if (body.length !== 64) {
      throw new FieldParseError(`A tx hash has 32 bytes (64 hex digits), got ${body.length} hex digits`);
    }
    return new TxHash(bytesToBigInt(Buffer.from(body, 'hex'), 0, 32));
  }

  static fromField(f: { value: bigint } | bigint): TxHash {
    return new TxHash(typeof f === 'bigint' ? f : f.value);
  }

  equals(other: TxHash): boolean {
    return this.value === other.value;
  }

  toBuffer(): Buffer {
    return bigIntToBuffer32(this.value);
  }

  toString(): string {
    return toHex64(this.value);
  }

  toJSON(): string {
    return this.toString();
  }
}
