import { describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../src/core/aztec-address.js';
import { BlockHash } from '../../../src/core/block-hash.js';
import { EthAddress } from '../../../src/core/eth-address.js';
import { FR_MODULUS, Fr } from '../../../src/core/fr.js';
import { TxHash } from '../../../src/core/tx-hash.js';

describe('Fr', () => {
  it('serializes as 0x + 64 lowercase hex', () => {
    expect(new Fr(255n).toString()).toBe(`0x${'0'.repeat(62)}ff`);
    expect(JSON.stringify({ a: new Fr(1n) })).toBe(`{"a":"0x${'0'.repeat(63)}1"}`);
  });
  it('reads 0x hex of any length and case, odd length and leading zeros included', () => {
    expect(Fr.fromString('0xAbC').value).toBe(0xabcn);
    expect(Fr.fromString('0x0000f').value).toBe(15n);
  });
  it('reads a string of decimal digits as DECIMAL, leading zeros included', () => {
    expect(Fr.fromString('10').value).toBe(10n);
    expect(Fr.fromString('0123').value).toBe(123n);
  });
  it('rejects hex letters without 0x, a bare 0x, negatives and junk', () => {
    expect(() => Fr.fromString('abc')).toThrow(/invalid string: abc/);
    expect(() => Fr.fromString('0x')).toThrow(/Invalid hex-encoded string/);
    expect(() => Fr.fromString('-1')).toThrow();
    expect(() => Fr.fromString('0xzz')).toThrow();
    expect(() => Fr.fromString('')).toThrow();
  });
  it('rejects values >= modulus, accepts modulus - 1', () => {
    expect(() => Fr.fromString(`0x${FR_MODULUS.toString(16)}`)).toThrow(/greater or equal to field modulus/);
    expect(Fr.fromString((FR_MODULUS - 1n).toString()).value).toBe(FR_MODULUS - 1n);
    expect(() => new Fr(FR_MODULUS)).toThrow();
  });
  it('round-trips through 32 big-endian bytes', () => {
    const f = Fr.random();
    expect(Fr.fromBuffer(f.toBuffer()).equals(f)).toBe(true);
    expect(() => Fr.fromBuffer(Buffer.alloc(31))).toThrow(/beyond buffer length/);
  });
});

describe('EthAddress', () => {
  const checksummed = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  it('accepts lower, upper and valid EIP-55 mixed case, writes lowercase', () => {
    expect(EthAddress.fromString(checksummed).toString()).toBe(checksummed.toLowerCase());
    expect(EthAddress.fromString(checksummed.toLowerCase()).toChecksumString()).toBe(checksummed);
    expect(EthAddress.fromString(`0x${checksummed.slice(2).toUpperCase()}`).toString()).toBe(checksummed.toLowerCase());
    expect(EthAddress.fromString(checksummed.slice(2)).toString()).toBe(checksummed.toLowerCase());
  });
  it('rejects a wrong checksum and wrong lengths', () => {
    expect(() => EthAddress.fromString('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toThrow(/checksum/);
    expect(() => EthAddress.fromString('0x1234')).toThrow(/20-byte/);
  });
});

describe('AztecAddress', () => {
  it('accepts exactly 64 hex digits (0x optional) or base64 of 32 bytes', () => {
    const hex = `0x${'0'.repeat(63)}5`;
    expect(AztecAddress.fromString(hex).value).toBe(5n);
    expect(AztecAddress.fromString(hex.slice(2)).value).toBe(5n);
    expect(AztecAddress.fromString(Buffer.from(hex.slice(2), 'hex').toString('base64')).value).toBe(5n);
  });
  it('rejects short hex', () => {
    expect(() => AztecAddress.fromString('0x01')).toThrow(/32-byte address/);
  });
});

describe('TxHash and BlockHash', () => {
  it('TxHash needs exactly 32 bytes of hex, 0x optional', () => {
    const s = `0x${'ab'.repeat(32)}`;
    expect(TxHash.fromString(s).toString()).toBe(s);
    expect(TxHash.fromString(s.slice(2)).toString()).toBe(s);
    expect(() => TxHash.fromString('0x1234')).toThrow(/32 bytes/);
  });
  it('BlockHash follows the Fr rules', () => {
    expect(BlockHash.fromString('5').toString()).toBe(`0x${'0'.repeat(63)}5`);
  });
});
