import { FieldParseError, Fr, parseFieldString, toHex64 } from './fr.js';

const HEX64 = /^(0x)?[0-9a-fA-F]{64}$/;
const BASE64_32 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * An L2 address: a field element written as exactly 64 hex digits (0x optional) or as base64 of its
 * 32 bytes, as the 4.1.2 schema accepts. Whether it is on the curve is not checked, like Aztec.
 */
export class AztecAddress {
  static readonly ZERO = new AztecAddress(0n);
  readonly value: bigint;

  constructor(value: bigint) {
    this.value = new Fr(value).value;
  }

  static fromString(s: string): AztecAddress {
    if (typeof s !== 'string') throw new FieldParseError('Expected an address string');
    if (HEX64.test(s)) return new AztecAddress(parseFieldString(s.startsWith('0x') ? s : `0x${s}`));
    if (BASE64_32.test(s)) return AztecAddress.fromBuffer(Buffer.from(s, 'base64'));
    throw new FieldParseError(`Not a 32-byte address (0x + 64 hex digits): ${s.slice(0, 80)}`);
  }

  static fromBuffer(buf: Uint8Array, offset = 0): AztecAddress {
    return new AztecAddress(Fr.fromBuffer(buf, offset).value);
  }

  static fromBigInt(v: bigint): AztecAddress {
    return new AztecAddress(v);
  }

  toField(): Fr {
    return new Fr(this.value);
  }

  isZero(): boolean {
    return this.value === 0n;
  }

  equals(other: AztecAddress): boolean {
    return this.value === other.value;
  }

  toBuffer(): Buffer {
    return this.toField().toBuffer();
  }

  toString(): string {
    return toHex64(this.value);
  }

  toJSON(): string {
    return this.toString();
  }
}
