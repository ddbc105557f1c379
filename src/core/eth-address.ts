import { keccak_256 } from '@noble/hashes/sha3';

/** Thrown when a string is not a valid 20-byte Ethereum address; the message says why. */
export class AddressParseError extends Error {
  override name = 'AddressParseError';
}

const ADDRESS_BODY = /^[0-9a-fA-F]{40}$/;

/**
 * A 20-byte L1 address. The wire form is 0x + 40 lowercase hex. Input may omit the 0x; all-lower or
 * all-upper case is accepted as is, mixed case must carry a valid EIP-55 checksum.
 */
export class EthAddress {
  static readonly ZERO = new EthAddress(Buffer.alloc(20));
  readonly bytes: Buffer;

  private constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  static fromString(s: string): EthAddress {
    if (typeof s !== 'string') throw new AddressParseError('Expected an address string');
    const body = s.startsWith('0x') || s.startsWith('0X') ? s.slice(2) : s;
    if (!ADDRESS_BODY.test(body)) throw new AddressParseError(`Not a 20-byte hex address: ${s.slice(0, 60)}`);
    const lower = body.toLowerCase();
    const upper = body.toUpperCase();
    if (body !== lower && body !== upper && checksumBody(lower) !== body) {
      throw new AddressParseError(`Invalid EIP-55 checksum in address ${s}`);
    }
    return new EthAddress(Buffer.from(lower, 'hex'));
  }

  static fromBuffer(buf: Uint8Array): EthAddress {
    if (buf.length !== 20) throw new AddressParseError(`An address has 20 bytes, got ${buf.length}`);
    return new EthAddress(Buffer.from(buf));
  }

  static fromBigInt(v: bigint): EthAddress {
    return new EthAddress(Buffer.from(v.toString(16).padStart(40, '0'), 'hex'));
  }

  static isValid(s: string): boolean {
    try {
      EthAddress.fromString(s);
      return true;
    } catch {
      return false;
    }
  }

  isZero(): boolean {
    return this.bytes.every((b) => b === 0);
  }

  equals(other: EthAddress): boolean {
    return this.bytes.equals(other.bytes);
  }

  toBigInt(): bigint {
    return BigInt(`0x${this.bytes.toString('hex')}`);
  }

  /** Lowercase wire form. */
  toString(): string {
    return `0x${this.bytes.toString('hex')}`;
  }

  toChecksumString(): string {
    return `0x${checksumBody(this.bytes.toString('hex'))}`;
  }

  toJSON(): string {
    return this.toString();
  }
}

function checksumBody(lower: string): string {
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0);
    const c = lower[i] as string;
    out += (nibble & 0xf) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}
