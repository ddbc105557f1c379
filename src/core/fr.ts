import { bigIntToBuffer32, bytesToBigInt } from './serialize/field-bytes.js';
/** The BN254 scalar field modulus: every Aztec field element (hashes, leaves, addresses) lives below it. */
export const FR_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

const HEX_BODY = /^[0-9a-fA-F]*$/;
const DECIMAL = /^[0-9]+$/;

/** Thrown when a value cannot be read as a field element; the message says why. */
export class FieldParseError extends Error {
  override name = 'FieldParseError';
}

/**
 * An element of the BN254 scalar field. Immutable; the value is always in [0, modulus).
 * Hot paths (merkle trees, hashing) work on plain bigints; Fr is the typed, validated form used at
 * the edges (wire codecs, headers, tx data).
 */
export class Fr {
  static readonly ZERO = new Fr(0n);
  static readonly ONE = new Fr(1n);
  static readonly MODULUS = FR_MODULUS;
  static readonly SIZE_IN_BYTES = 32;

  readonly value: bigint;

  constructor(value: bigint | number) {
    const v = typeof value === 'number' ? BigInt(value) : value;
    if (v < 0n) throw new FieldParseError(`Field element must not be negative: ${v}`);
    if (v >= FR_MODULUS) throw new FieldParseError(`Value 0x${v.toString(16)} is greater or equal to field modulus.`);
    this.value = v;
  }

  /**
   * Parses a string by the Aztec 4.1.2 rules: `0x`-prefixed hex of any length and case, or a string
   * of decimal digits only (read as DECIMAL, even with leading zeros). Anything else is rejected.
   */
  static fromString(s: string): Fr {
    return new Fr(parseFieldString(s));
  }

  /** Reads 32 big-endian bytes. */
  static fromBuffer(buf: Uint8Array, offset = 0): Fr {
    if (buf.length - offset < 32) throw new FieldParseError('Attempted to read beyond buffer length');
    return new Fr(bytesToBigInt(buf, offset, 32));
  }

  static fromHexString(s: string): Fr {
    return Fr.fromString(s.startsWith('0x') || s.startsWith('0X') ? s : `0x${s}`);
  }

  static random(): Fr {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    return new Fr(bytesToBigInt(bytes, 0, 32) % FR_MODULUS);
  }

  isZero(): boolean {
    return this.value === 0n;
  }

  equals(other: Fr): boolean {
    return this.value === other.value;
  }

  /** 0x + 64 lowercase hex digits, the wire form. */
  toString(): string {
    return toHex64(this.value);
  }

  toJSON(): string {
    return this.toString();
  }

  toBuffer(): Buffer {
    return bigIntToBuffer32(this.value);
  }

  toBigInt(): bigint {
    return this.value;
  }
}

/** Parses a field string (see Fr.fromString) into a bigint below the modulus. */
export function parseFieldString(s: string): bigint {
  if (typeof s !== 'string') throw new FieldParseError(`Expected a string, received ${typeof s}`);
  let v: bigint;
  if (s.startsWith('0x') || s.startsWith('0X')) {
    const body = s.slice(2);
    if (body.length === 0 || !HEX_BODY.test(body)) throw new FieldParseError(`Invalid hex-encoded string: ${clip(s)}`);
    v = BigInt(`0x${body}`);
  } else if (DECIMAL.test(s)) {
    v = BigInt(s);
  } else {
    throw new FieldParseError(`Tried to create a Fr from an invalid string: ${clip(s)}`);
  }
  if (v >= FR_MODULUS) throw new FieldParseError(`Value 0x${v.toString(16)} is greater or equal to field modulus.`);
  return v;
}

export function toHex64(v: bigint): string {
  return `0x${v.toString(16).padStart(64, '0')}`;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
