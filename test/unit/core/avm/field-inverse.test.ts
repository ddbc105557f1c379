import { describe, expect, test } from 'vitest';
import { frInverse, frInverseBigInt } from '../../../../src/core/crypto/fr-inverse.js';
import { FR_MODULUS } from '../../../../src/core/fr.js';

const P = FR_MODULUS;

/** Fermat's a^(p-2): slow, obviously right. */
function fermat(a: bigint): bigint {
  let result = 1n;
  let base = a;
  for (let e = P - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % P;
    base = (base * base) % P;
  }
  return result;
}

describe.each([
  ['frInverse (native when the addon is built)', frInverse],
  ['frInverseBigInt (Lehmer extended Euclid)', frInverseBigInt],
])('%s', (_name, frInverse) => {
  test('equals Fermat on edge values and 500 seeded random field elements', () => {
    const values = [1n, 2n, 3n, P - 1n, P - 2n, 1n << 200n, (1n << 253n) + 5n, 0xffff_ffff_ffff_ffffn];
    let seed = 12345n;
    for (let i = 0; i < 500; i++) {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 256n);
      values.push((seed % (P - 1n)) + 1n);
    }
    for (const a of values) {
      const inv = frInverse(a);
      expect(inv).toBe(fermat(a));
      expect((inv * a) % P).toBe(1n);
    }
  });

  test('refuses 0 and non-canonical values', () => {
    expect(() => frInverse(0n)).toThrow(RangeError);
    expect(() => frInverse(P)).toThrow(RangeError);
  });
});
