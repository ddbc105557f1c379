/**
 * The AVM gadgets against independent implementations: Aztec 4.1.2's own functions in @aztec/foundation
 * (sha256Compression, keccakf1600, the Poseidon2 permutation and Grumpkin addition through bb.js) on random inputs.
 */

import { Grumpkin } from '@aztec/foundation/crypto/grumpkin';
import { keccakf1600 } from '@aztec/foundation/crypto/keccak';
import { poseidon2Permutation as aztecPermutation } from '@aztec/foundation/crypto/poseidon';
import { sha256Compression as aztecSha256Compression } from '@aztec/foundation/crypto/sha256';
import { Fr } from '@aztec/foundation/curves/bn254';
import { Point } from '@aztec/foundation/curves/grumpkin';
import { beforeAll, describe, expect, test } from 'vitest';
import { avmEcAdd, keccakF1600, sha256Compression } from '../../../../src/core/avm/gadgets.js';
import { GRUMPKIN_GENERATOR, grumpkinMul } from '../../../../src/core/contract/grumpkin.js';
import { poseidon2Permutation } from '../../../../src/core/crypto/poseidon2.js';
import { FR_MODULUS } from '../../../../src/core/fr.js';
import { initOracleCrypto } from '../../../helpers/avm/oracle-crypto.js';

function rng(seed: number) {
  let s = BigInt(seed) * 0x9e3779b97f4a7c15n + 1n;
  return (bits: number): bigint => {
    let out = 0n;
    for (let got = 0; got < bits; got += 64) {
      s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
      out = (out << 64n) | s;
    }
    return out & ((1n << BigInt(bits)) - 1n);
  };
}

beforeAll(() => initOracleCrypto(), 120_000);

describe('AVM gadgets vs @aztec/foundation', () => {
  test('SHA-256 compression', () => {
    for (let seed = 0; seed < 50; seed++) {
      const r = rng(seed);
      const state = Array.from({ length: 8 }, () => Number(r(32)));
      const block = Array.from({ length: 16 }, () => Number(r(32)));
      const expected = Array.from(aztecSha256Compression(Uint32Array.from(state), Uint32Array.from(block)));
      expect(sha256Compression(state, block)).toEqual(expected);
    }
  });

  test('Keccak-f[1600]', () => {
    for (let seed = 0; seed < 50; seed++) {
      const r = rng(seed);
      const lanes = Array.from({ length: 25 }, () => r(64));
      expect(keccakF1600(lanes)).toEqual(keccakf1600(lanes));
    }
  });

  test('Poseidon2 permutation (src/core/crypto) equals bb.js', async () => {
    for (let seed = 0; seed < 20; seed++) {
      const r = rng(seed);
      const state = Array.from({ length: 4 }, () => r(256) % FR_MODULUS);
      const expected = (await aztecPermutation(state.map((v) => new Fr(v)))).map((f) => f.toBigInt());
      expect(poseidon2Permutation(state)).toEqual(expected);
    }
  });

  test('Grumpkin addition (incl. doubling) equals bb.js', async () => {
    for (let seed = 1; seed < 12; seed++) {
      const r = rng(seed);
      const p = grumpkinMul(GRUMPKIN_GENERATOR, r(250));
      const q = seed % 4 === 0 ? p : grumpkinMul(GRUMPKIN_GENERATOR, r(250));
      const got = avmEcAdd(p.x, p.y, false, q.x, q.y, false);
      const want = await Grumpkin.add(
        new Point(new Fr(p.x), new Fr(p.y), false),
        new Point(new Fr(q.x), new Fr(q.y), false),
      );
      expect(got).toEqual({ x: want.x.toBigInt(), y: want.y.toBigInt() });
    }
  });

  test('ECADD edge cases: infinity flags and P + (-P)', () => {
    const p = grumpkinMul(GRUMPKIN_GENERATOR, 12345n);
    expect(avmEcAdd(p.x, p.y, true, 7n, 8n, true)).toEqual({ x: 0n, y: 0n });
    expect(avmEcAdd(1n, 2n, true, p.x, p.y, false)).toEqual({ x: p.x, y: p.y });
    expect(avmEcAdd(p.x, p.y, false, 1n, 2n, true)).toEqual({ x: p.x, y: p.y });
    expect(avmEcAdd(p.x, p.y, false, p.x, FR_MODULUS - p.y, false)).toEqual({ x: 0n, y: 0n });
  });
});
