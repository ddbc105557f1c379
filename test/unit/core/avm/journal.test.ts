/**
 * The per-tx journal: checkpoints drop exactly what was emitted after them, per-tx limits count surviving effects
 * only, a slot written in a reverted checkpoint is cold again, reads see pending writes, and contract instances
 * are checked against the deployment nullifier and the registry's upgrade storage as 4.1.2 does.
 */
import { describe, expect, test } from 'vitest';
import { AvmHaltError, AvmInternalError } from '../../../../src/core/avm/errors.js';
import { InMemoryAvmWorld } from '../../../../src/core/avm/in-memory-avm-world.js';
import { AvmJournal } from '../../../../src/core/avm/journal.js';
import { CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, UPDATED_CLASS_IDS_SLOT } from '../../../../src/core/constants.js';
import { poseidon2Hash } from '../../../../src/core/crypto/poseidon2.js';
import {
  computeNoteHashNonce,
  computeUniqueNoteHash,
  deriveStorageSlotInMap,
  siloNoteHash,
} from '../../../../src/core/hash/siloing.js';

const C = 0xc0n;

function journalOn(world = new InMemoryAvmWorld(), timestamp = 1000n) {
  return new AvmJournal({ world, contracts: world, firstNullifier: 0xf1n, timestamp });
}

describe('AvmJournal', () => {
  test('storage reads see pending writes; a reverted checkpoint restores them and makes the slot cold', () => {
    const world = new InMemoryAvmWorld();
    world.setStorage(C, 1n, 10n);
    const j = journalOn(world);
    expect(j.readStorage(C, 1n)).toBe(10n);
    j.checkpoint();
    j.writeStorage(C, 1n, 11n);
    expect(j.isStorageCold(C, 1n)).toBe(false);
    expect(j.readStorage(C, 1n)).toBe(11n);
    j.revertCheckpoint();
    expect(j.readStorage(C, 1n)).toBe(10n);
    expect(j.isStorageCold(C, 1n)).toBe(true);
    expect(j.getSideEffects().publicDataWrites).toEqual([]);
    j.checkpoint();
    j.writeStorage(C, 1n, 12n);
    j.commitCheckpoint();
    expect(j.readStorage(C, 1n)).toBe(12n);
  });

  test('user storage writes are limited to 63 cold slots; warm rewrites and the protocol write do not count', () => {
    const j = journalOn();
    for (let i = 0n; i < 63n; i++) j.writeStorage(C, i, 1n);
    j.writeStorage(C, 0n, 2n);
    expect(() => j.writeStorage(C, 63n, 1n)).toThrow(
      "Reached the limit (63) on number of 'public data (contract storage) write' per tx",
    );
    j.writeStorage(5n, 7n, 1n, true);
    expect(() => j.writeStorage(5n, 8n, 1n, true)).toThrow(AvmHaltError);
  });

  test('public note hashes are siloed and made unique with the running count', () => {
    const j = journalOn();
    j.insertUniqueNoteHash(0xaan);
    j.emitNoteHash(C, 0x55n);
    const expected = computeUniqueNoteHash(computeNoteHashNonce(0xf1n, 1), siloNoteHash(C, 0x55n));
    expect(j.getSideEffects().noteHashes).toEqual([0xaan, expected]);
    // Leaves past the tree read back from the journal.
    expect(j.noteHashExistsAt(expected, 1n)).toBe(true);
    expect(j.noteHashExistsAt(0xaan, 1n)).toBe(false);
    // Past the end but within capacity, 4.1.2's simulator asserts (the tx cannot be simulated); past capacity: false.
    expect(() => j.noteHashExistsAt(expected, 2n)).toThrow('Unexpected null response from note hash tree');
    expect(j.noteHashExistsAt(expected, 2n ** 42n + 1n)).toBe(false);
    expect(() => j.l1ToL2MessageExistsAt(1n, 0n)).toThrow('Unexpected null response from l1 to l2 message tree');
    expect(j.l1ToL2MessageExistsAt(1n, 2n ** 36n + 1n)).toBe(false);
  });

  test('nullifiers: pending ones exist, a duplicate is refused, a revert forgets them', () => {
    const j = journalOn();
    j.checkpoint();
    expect(j.emitNullifier(C, 1n)).toBe(true);
    expect(j.emitNullifier(C, 1n)).toBe(false);
    j.revertCheckpoint();
    expect(j.getSideEffects().nullifiers).toEqual([]);
    expect(j.emitNullifier(C, 1n)).toBe(true);
    expect(() => j.insertSiloedNullifier(0n)).toThrow(/^Nullifier collision: Siloed nullifier 0x0{64} already exists/);
  });

  test('a nested revert keeps the survivor counts right for the limits', () => {
    const j = journalOn();
    for (let i = 0; i < 7; i++) j.insertL2ToL1Message(C, 1n, BigInt(i));
    j.checkpoint();
    j.insertL2ToL1Message(C, 1n, 7n);
    expect(() => j.insertL2ToL1Message(C, 1n, 8n)).toThrow(
      "Reached the limit (8) on number of 'l2 to l1 message' per tx",
    );
    j.revertCheckpoint();
    j.insertL2ToL1Message(C, 1n, 9n);
    expect(j.getSideEffects().l2ToL1Messages.map((m) => m.content)).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 9n]);
  });

  test('public log fields count length + 2 each against 4096', () => {
    const j = journalOn();
    j.emitPublicLog(C, new Array(4094).fill(1n));
    expect(() => j.emitPublicLog(C, [])).toThrow("Reached the limit (4096) on number of 'public log fields' per tx");
  });

  test('bytecode fetches are limited to 21 distinct classes, and that survives reverts', () => {
    const world = new InMemoryAvmWorld();
    for (let i = 1n; i <= 22n; i++) world.deploy(0x1000n + i, 0x2000n + i, new Uint8Array([1]));
    const j = journalOn(world);
    j.checkpoint();
    for (let i = 1n; i <= 21n; i++) expect(j.getBytecode(0x1000n + i)).toBeDefined();
    j.revertCheckpoint();
    expect(j.getBytecode(0x1000n + 22n)).toBeUndefined();
    expect(j.getBytecode(0x1000n + 1n)).toBeDefined();
  });

  test('an instance the nullifier tree does not know, or a wrong current class, is an internal error', () => {
    const world = new InMemoryAvmWorld();
    world.instances.set(0x77n, {
      address: 0x77n,
      deployer: 0n,
      originalContractClassId: 1n,
      currentContractClassId: 1n,
      initializationHash: 0n,
    });
    expect(() => journalOn(world).getContractInstance(0x77n)).toThrow(AvmInternalError);

    // Upgrade scheduled at t = 500 from class 1 to class 2, read through the registry's delayed public storage.
    const upgraded = new InMemoryAvmWorld();
    upgraded.addInstance({
      address: 0x88n,
      deployer: 0n,
      originalContractClassId: 1n,
      initializationHash: 0n,
      currentContractClassId: 2n,
    });
    const slot = deriveStorageSlotInMap(UPDATED_CLASS_IDS_SLOT, 0x88n);
    const preimage = [500n, 0n, 2n];
    for (const [i, v] of preimage.entries())
      upgraded.setStorage(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, slot + BigInt(i), v);
    upgraded.setStorage(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, slot + 3n, poseidon2Hash(preimage));
    expect(journalOn(upgraded, 1000n).getContractInstance(0x88n)?.currentContractClassId).toBe(2n);
    expect(() => journalOn(upgraded, 100n).getContractInstance(0x88n)).toThrow('Current class id mismatch');
  });
});
