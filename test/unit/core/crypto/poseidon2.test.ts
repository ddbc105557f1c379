import { describe, expect, it } from 'vitest';
import { DomainSeparator } from '../../../../src/core/constants.js';
import {
  poseidon2Hash,
  poseidon2HashPair,
  poseidon2HashWithSeparator,
  poseidon2Permutation,
  spongeIv,
} from '../../../../src/core/crypto/poseidon2.js';
import { sha256ToField } from '../../../../src/core/crypto/sha256-to-field.js';
import { toHex64 } from '../../../../src/core/fr.js';
import { vectors } from '../../../helpers/vectors.js';

const big = (s: string) => BigInt(s);

describe('Poseidon2 reference vectors (vectors.json, poseidon2)', () => {
  for (const v of vectors.poseidon2.hash) {
    it(`hash(${v.inputs.join(', ')})`, () => {
      expect(toHex64(poseidon2Hash(v.inputs.map(big)))).toBe(v.out);
    });
  }
  for (const v of vectors.poseidon2.hashWithSeparator) {
    it(`hashWithSeparator(${v.inputs.join(', ')}; ${v.separator})`, () => {
      expect(toHex64(poseidon2HashWithSeparator(v.inputs.map(big), big(v.separator)))).toBe(v.out);
    });
  }
  it('permutation([0, 1, 2, 3]) (HorizenLabs reference vector)', () => {
    const out = poseidon2Permutation(vectors.poseidon2.permutation.in.map(big)).map(toHex64);
    expect(out).toEqual(vectors.poseidon2.permutation.out);
  });
});

describe('Poseidon2 sponge and node hash', () => {
  it('the sponge is rebuilt from the permutation: IV len*2^64 in lane 3, absorb by adding, rate 3', () => {
    const P = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
    for (const n of [1, 2, 3, 4, 7]) {
      const inputs = Array.from({ length: n }, (_, i) => BigInt(i + 11));
      let state = [0n, 0n, 0n, spongeIv(n)];
      for (let i = 0; i < n; i += 3) {
        const chunk = inputs.slice(i, i + 3);
        state = state.map((s, j) => (j < chunk.length ? (s + (chunk[j] as bigint)) % P : s));
        state = poseidon2Permutation(state);
      }
      expect(poseidon2Hash(inputs)).toBe(state[0]);
    }
  });
  it('hashPair equals the 2-input hash (merkle node, no separator)', () => {
    expect(poseidon2HashPair(1n, 2n)).toBe(poseidon2Hash([1n, 2n]));
    expect(toHex64(poseidon2HashPair(0n, 0n))).toBe(vectors.poseidon2.hash[1].out);
  });
  it('separator is prepended as a field', () => {
    expect(poseidon2HashWithSeparator([1n, 2n], DomainSeparator.BLOCK_HEADER_HASH)).toBe(
      poseidon2Hash([BigInt(DomainSeparator.BLOCK_HEADER_HASH), 1n, 2n]),
    );
  });
  it('domain separators equal the reference values', () => {
    for (const [name, value] of Object.entries(vectors.domainSeparators)) {
      expect(DomainSeparator[name as keyof typeof DomainSeparator], name).toBe(value);
    }
  });
});

describe('sha256ToField', () => {
  it('hashes the empty 316-byte checkpoint header to GENESIS_CHECKPOINT_HEADER_HASH', () => {
    expect(toHex64(sha256ToField(new Uint8Array(316)))).toBe(vectors.genesis.checkpointHeaderHash);
  });
  it('keeps the first 31 bytes of the digest behind a zero byte', () => {
    const v = sha256ToField(Buffer.from('abc'));
    expect(v < 1n << 248n).toBe(true);
    expect(toHex64(v).slice(0, 4)).toBe('0x00');
  });
});
