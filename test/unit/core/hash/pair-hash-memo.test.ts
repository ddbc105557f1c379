import { describe, expect, it } from 'vitest';
import { DomainSeparator } from '../../../../src/core/constants.js';
import { poseidon2HashWithSeparator } from '../../../../src/core/crypto/poseidon2.js';
import { FR_MODULUS } from '../../../../src/core/fr.js';
import { PairHashMemo } from '../../../../src/core/hash/pair-hash-memo.js';
import {
  computePublicDataTreeLeafSlot,
  deriveStorageSlotInMap,
  siloNullifier,
} from '../../../../src/core/hash/siloing.js';

const leafSlot = (a: bigint, b: bigint) => poseidon2HashWithSeparator([a, b], DomainSeparator.PUBLIC_LEAF_SLOT);

describe('PairHashMemo', () => {
  it('answers what the hash answers, hashing each pair once while it is held', () => {
    let calls = 0;
    const memo = new PairHashMemo((a, b) => {
      calls++;
      return leafSlot(a, b);
    });
    const pairs = [
      [5n, 1n],
      [5n, 2n],
      [6n, 1n],
    ] as const;
    for (let round = 0; round < 3; round++) {
      for (const [a, b] of pairs) expect(memo.get(a, b)).toBe(leafSlot(a, b));
    }
    expect(calls).toBe(3);
  });

  it('starts over once full, and still answers right', () => {
    let calls = 0;
    const memo = new PairHashMemo((a, b) => {
      calls++;
      return leafSlot(a, b);
    }, 2);
    for (let i = 0n; i < 10n; i++) expect(memo.get(7n, i)).toBe(leafSlot(7n, i));
    expect(calls).toBe(10);
    // The last pair hashed is held (the memo started over before storing it).
    expect(memo.get(7n, 9n)).toBe(leafSlot(7n, 9n));
    expect(calls).toBe(10);
  });

  it('keeps nothing for an input the hash refuses: it is refused every time', () => {
    const memo = new PairHashMemo(leafSlot);
    for (let i = 0; i < 2; i++) expect(() => memo.get(FR_MODULUS, 1n)).toThrow(/not a canonical BN254 field element/);
  });

  it('backs the siloing functions, which keep their values (vectors in hashes.test.ts)', () => {
    for (let i = 0; i < 2; i++) {
      expect(computePublicDataTreeLeafSlot(5n, 1n)).toBe(leafSlot(5n, 1n));
      expect(siloNullifier(5n, 1n)).toBe(poseidon2HashWithSeparator([5n, 1n], DomainSeparator.SILOED_NULLIFIER));
      expect(deriveStorageSlotInMap(1n, 1n)).toBe(
        poseidon2HashWithSeparator([1n, 1n], DomainSeparator.PUBLIC_STORAGE_MAP_SLOT),
      );
    }
  });
});
