/**
 * Siloing and uniqueness hashes (Aztec 4.1.2's rules, docs/aztec-facts.md section 4.2).
 * A contract's note hashes, nullifiers and storage slots are "siloed" with its address so that two
 * contracts can never collide in the shared trees.
 */
import {
  DomainSeparator,
  FEE_JUICE_ADDRESS,
  FEE_JUICE_BALANCES_SLOT,
  NULL_MSG_SENDER_CONTRACT_ADDRESS,
} from '../constants.js';
import { poseidon2HashWithSeparator } from '../crypto/poseidon2.js';
import { PairHashMemo } from './pair-hash-memo.js';

export function siloNoteHash(contract: bigint, noteHash: bigint): bigint {
  return poseidon2HashWithSeparator([contract, noteHash], DomainSeparator.SILOED_NOTE_HASH);
}

export function computeNoteHashNonce(firstNullifier: bigint, noteHashIndexInTx: number): bigint {
  return poseidon2HashWithSeparator([firstNullifier, BigInt(noteHashIndexInTx)], DomainSeparator.NOTE_HASH_NONCE);
}

export function computeUniqueNoteHash(nonce: bigint, siloedNoteHash: bigint): bigint {
  return poseidon2HashWithSeparator([nonce, siloedNoteHash], DomainSeparator.UNIQUE_NOTE_HASH);
}

// The three siloings public execution repeats for the same pairs (see PairHashMemo), remembered.
const siloedNullifiers = new PairHashMemo((contract, nullifier) =>
  poseidon2HashWithSeparator([contract, nullifier], DomainSeparator.SILOED_NULLIFIER),
);
const publicLeafSlots = new PairHashMemo((contract, slot) =>
  poseidon2HashWithSeparator([contract, slot], DomainSeparator.PUBLIC_LEAF_SLOT),
);
const mapSlots = new PairHashMemo((mapSlot, key) =>
  poseidon2HashWithSeparator([mapSlot, key], DomainSeparator.PUBLIC_STORAGE_MAP_SLOT),
);

export function siloNullifier(contract: bigint, innerNullifier: bigint): bigint {
  return siloedNullifiers.get(contract, innerNullifier);
}

/** The public data tree key of a contract's storage slot. */
export function computePublicDataTreeLeafSlot(contract: bigint, storageSlot: bigint): bigint {
  return publicLeafSlots.get(contract, storageSlot);
}

/** The storage slot of `key` in a Noir map stored at `mapSlot`. */
export function deriveStorageSlotInMap(mapSlot: bigint, key: bigint): bigint {
  return mapSlots.get(mapSlot, key);
}

/** Public data tree key holding the FeeJuice balance of an address. */
export function computeFeePayerBalanceLeafSlot(address: bigint): bigint {
  return computePublicDataTreeLeafSlot(FEE_JUICE_ADDRESS, deriveStorageSlotInMap(FEE_JUICE_BALANCES_SLOT, address));
}

/** The nullifier that makes a tx unique when it emits none of its own first. */
export function computeProtocolNullifier(txRequestHash: bigint): bigint {
  return siloNullifier(NULL_MSG_SENDER_CONTRACT_ADDRESS, txRequestHash);
}

export function computeL1ToL2MessageNullifier(contract: bigint, messageHash: bigint, secret: bigint): bigint {
  return siloNullifier(contract, poseidon2HashWithSeparator([messageHash, secret], DomainSeparator.MESSAGE_NULLIFIER));
}
