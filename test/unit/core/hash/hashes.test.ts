import { describe, expect, it } from 'vitest';
import { toHex64 } from '../../../../src/core/fr.js';
import {
  computeFeePayerBalanceLeafSlot,
  computeNoteHashNonce,
  computeProtocolNullifier,
  computePublicDataTreeLeafSlot,
  computeUniqueNoteHash,
  deriveStorageSlotInMap,
  siloNoteHash,
  siloNullifier,
} from '../../../../src/core/hash/siloing.js';
import { vectors } from '../../../helpers/vectors.js';

const h = vectors.hashes;

describe('siloing and uniqueness hashes (vectors.json, hashes)', () => {
  it('siloNullifier', () => expect(toHex64(siloNullifier(5n, 1n))).toBe(h['siloNullifier(contract=5, nullifier=1)']));
  it('siloNoteHash', () => expect(toHex64(siloNoteHash(5n, 1n))).toBe(h['siloNoteHash(contract=5, noteHash=1)']));
  it('computeNoteHashNonce', () =>
    expect(toHex64(computeNoteHashNonce(1n, 0))).toBe(h['computeNoteHashNonce(firstNullifier=1, index=0)']));
  it('computeUniqueNoteHash', () =>
    expect(toHex64(computeUniqueNoteHash(1n, 2n))).toBe(h['computeUniqueNoteHash(nonce=1, siloedNoteHash=2)']));
  it('publicDataLeafSlot', () =>
    expect(toHex64(computePublicDataTreeLeafSlot(5n, 1n))).toBe(h['publicDataLeafSlot(contract=5, slot=1)']));
  it('mapSlot', () => expect(toHex64(deriveStorageSlotInMap(1n, 1n))).toBe(h['mapSlot(slot=1, key=1)']));
  it('feeJuiceBalanceLeafSlot', () =>
    expect(toHex64(computeFeePayerBalanceLeafSlot(1n))).toBe(h['feeJuiceBalanceLeafSlot(address=1)']));
  it('protocolNullifier', () =>
    expect(toHex64(computeProtocolNullifier(1n))).toBe(h['protocolNullifier(txRequestHash=1)']));
});
