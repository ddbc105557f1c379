import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { avmEcAddBigInt, avmEcAddChecked } from '../../../../src/core/avm/gadgets.js';
import { GRUMPKIN_GENERATOR, grumpkinMul } from '../../../../src/core/contract/grumpkin.js';
import { frInverse, frInverseBigInt } from '../../../../src/core/crypto/fr-inverse.js';
import { NATIVE_FIELD } from '../../../../src/core/crypto/fr-native.js';
import { NATIVE_ADDON_PATH } from '../../../../src/core/crypto/poseidon2-engines.js';
import { FR_MODULUS } from '../../../../src/core/fr.js';

const P = FR_MODULUS;

/** Seeded 256-bit values (an LCG is plenty to spread inputs over the field). */
function rng(seed: bigint): () => bigint {
  let s = seed;
  return () => {
    s = (s * 6364136223846793005n + 1442695040888963407n) % (1n << 256n);
    return s;
  };
}

// A missing addon (no compiler at install time) runs the bigint code only; a built addon must provide these.
const addonBuilt = existsSync(NATIVE_ADDON_PATH);

test('a built addon provides the native field functions', () => {
  expect(NATIVE_FIELD !== undefined).toBe(addonBuilt);
});

describe.skipIf(!NATIVE_FIELD)('native frInverse equals the bigint one', () => {
  const native = NATIVE_FIELD as NonNullable<typeof NATIVE_FIELD>;

  test('edge values, every power of two and its neighbours, and 5000 seeded random field elements', () => {
    const values = [1n, 2n, 3n, 17n, P - 1n, P - 2n, (P - 1n) / 2n, (P + 1n) / 2n];
    // Powers of two and their neighbours: inputs whose leading bits (the approximated part) say little.
    for (let k = 1n; k < 254n; k++) values.push(1n << k, (1n << k) - 1n, (1n << k) + 1n, P - (1n << k));
    // Words of all ones at the 62-bit limb boundaries of the safegcd representation, and values whose inverse
    // is one of the above (the last rounds then end on a small f or g).
    for (let k = 62n; k < 254n; k += 62n) values.push((1n << k) - 1n, P - ((1n << k) - 1n));
    for (const v of values.slice(0, 40)) values.push(frInverseBigInt(v));
    const r = rng(7n);
    for (let i = 0; i < 5000; i++) {
      const v = r();
      // Spread the bit lengths too: a random value shifted down by 0 to 253 bits.
      values.push((v % (P - 1n)) + 1n, (v % P) >> BigInt(i % 254) || 1n);
    }
    for (const a of values) {
      const want = frInverseBigInt(a);
      expect(native.frInverse(a)).toBe(want);
      expect(frInverse(a)).toBe(want);
      expect((want * a) % P).toBe(1n);
    }
  });

  test('0, p, a negative value and more than 256 bits are refused with a RangeError', () => {
    for (const bad of [0n, P, P + 1n, -1n, 1n << 300n]) {
      expect(() => native.frInverse(bad)).toThrow(RangeError);
      expect(() => frInverse(bad)).toThrow(RangeError);
      expect(() => frInverseBigInt(bad)).toThrow(RangeError);
    }
  });

  test('the AVM uses the native inverse', () => {
    expect(frInverse).not.toBe(frInverseBigInt);
  });
});

describe.skipIf(!NATIVE_FIELD)('native grumpkinEcAdd equals the bigint ECADD', () => {
  const native = NATIVE_FIELD as NonNullable<typeof NATIVE_FIELD>;
  const r = rng(11n);
  const points = Array.from({ length: 40 }, () => grumpkinMul(GRUMPKIN_GENERATOR, r() % (1n << 250n)));
  points.push(GRUMPKIN_GENERATOR);

  function both(x1: bigint, y1: bigint, inf1: boolean, x2: bigint, y2: bigint, inf2: boolean) {
    const want = avmEcAddBigInt(x1, y1, inf1, x2, y2, inf2);
    expect(native.grumpkinEcAdd(x1, y1, inf1, x2, y2, inf2)).toEqual(want);
    expect(avmEcAddChecked(x1, y1, inf1, x2, y2, inf2)).toEqual(want);
    return want;
  }

  test('sums, doublings and P + (-P) of random points', () => {
    for (let i = 0; i + 1 < points.length; i++) {
      const p = points[i] as (typeof points)[number];
      const q = points[i + 1] as (typeof points)[number];
      both(p.x, p.y, false, q.x, q.y, false);
      const doubled = both(p.x, p.y, false, p.x, p.y, false);
      expect(doubled).toEqual(((s) => [s.x, s.y])(grumpkinMul(p, 2n)));
      expect(both(p.x, p.y, false, p.x, P - p.y, false)).toEqual([0n, 0n]);
    }
  });

  test('infinity flags: coordinates of a flagged point are ignored, even off the curve', () => {
    const p = points[0] as (typeof points)[number];
    expect(both(p.x, p.y, true, 7n, 8n, true)).toEqual([0n, 0n]);
    expect(both(1n, 2n, true, p.x, p.y, false)).toEqual([p.x, p.y]);
    expect(both(p.x, p.y, false, 1n, 2n, true)).toEqual([p.x, p.y]);
    expect(both(0n, 0n, true, 0n, 0n, true)).toEqual([0n, 0n]);
    expect(both(P - 1n, P - 1n, true, p.x, p.y, false)).toEqual([p.x, p.y]);
  });

  test('an unflagged point off the curve is named (point 1 first)', () => {
    const p = points[0] as (typeof points)[number];
    expect(both(p.x, p.y + 1n, false, p.x, p.y, false)).toBe(1);
    expect(both(p.x, p.y, false, p.x, (p.y + 1n) % P, false)).toBe(2);
    expect(both(0n, 0n, false, 0n, 0n, false)).toBe(1);
    expect(both(1n, 2n, false, 3n, 4n, false)).toBe(1);
    expect(both(1n, 2n, true, 3n, 4n, false)).toBe(2);
    expect(both(P - 1n, 0n, false, 0n, 0n, true)).toBe(1);
  });

  test('non-canonical coordinates are refused with a RangeError', () => {
    const p = points[0] as (typeof points)[number];
    expect(() => native.grumpkinEcAdd(p.x + P, p.y, false, p.x, p.y, false)).toThrow(RangeError);
    expect(() => native.grumpkinEcAdd(p.x, p.y, false, p.x, -1n, false)).toThrow(RangeError);
  });
});
