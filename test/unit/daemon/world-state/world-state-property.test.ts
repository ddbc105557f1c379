import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { poseidon2Hash } from '../../../../src/core/crypto/poseidon2.js';
import type { SqliteDatabase } from '../../../../src/daemon/store/node-database.js';
import { MerkleTreeId } from '../../../../src/daemon/world-state/merkle-tree-id.js';
import type { WorldState } from '../../../../src/daemon/world-state/world-state.js';
import { buildBlock, openWorldState, Rng, randomTx } from './world-state-fixtures.js';

/** A digest of every world-state row, to prove an unwind leaves the database byte-identical. */
function digest(db: SqliteDatabase): string {
  const h = createHash('sha256');
  for (const table of ['ws_node', 'ws_leaf', 'ws_key', 'ws_block', 'ws_journal']) {
    for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().iterate()) {
      h.update(JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)));
    }
  }
  return h.digest('hex');
}

function roots(ws: WorldState, block: number): string[] {
  const v = ws.view(block);
  return [0, 1, 2, 3, 4].map((id) => {
    const t = v.getTreeInfo(id as MerkleTreeId);
    return `${t.root.toString(16)}:${t.size}`;
  });
}

interface Applied {
  noteHashes: bigint[];
  nullifiers: bigint[];
  slots: bigint[];
  messages: bigint[];
  hashes: bigint[];
}

function applyRandomBlocks(ws: WorldState, rng: Rng, count: number, slots: bigint[], applied: Applied): void {
  for (let i = 0; i < count; i++) {
    const txs = Array.from({ length: 1 + rng.int(3) }, () => randomTx(rng, slots));
    const firstInCheckpoint = rng.next() < 0.5;
    const l1ToL2Messages = firstInCheckpoint ? Array.from({ length: rng.int(5) }, () => rng.field()) : [];
    const block = buildBlock(ws, { txs, firstInCheckpoint, l1ToL2Messages });
    ws.applyBlock(block);
    for (const tx of txs) {
      applied.noteHashes.push(...tx.noteHashes);
      applied.nullifiers.push(...tx.nullifiers);
    }
    applied.messages.push(...l1ToL2Messages);
    applied.hashes.push(block.blockHash);
  }
  applied.slots = slots;
}

/** Checks every kind of witness for random leaves at `block` against that block's roots. */
function checkWitnesses(ws: WorldState, rng: Rng, block: number, applied: Applied): void {
  const v = ws.view(block);
  const root = (id: MerkleTreeId) => v.getTreeInfo(id).root;

  for (const n of [rng.pick(applied.nullifiers), 5n, rng.field()]) {
    const present = v.findLeafIndices(MerkleTreeId.NULLIFIER_TREE, [n])[0] !== undefined;
    const w = v.getNullifierMembershipWitness(n);
    expect(w !== undefined).toBe(present);
    const low = v.getLowNullifierMembershipWitness(n);
    const p = low.leafPreimage;
    expect(low.siblingPath.length).toBe(42);
    expect(low.siblingPath.computeRoot(poseidon2Hash([p.key, p.nextKey, p.nextIndex]), low.index)).toBe(
      root(MerkleTreeId.NULLIFIER_TREE),
    );
    if (present) expect(p.key).toBe(n);
    else expect(p.key < n && (p.nextKey === 0n || p.nextKey > n)).toBe(true);
  }

  for (const slot of [rng.pick(applied.slots), rng.field(), 3n]) {
    const w = v.getPublicDataWitness(slot);
    const p = w.leafPreimage;
    expect(w.siblingPath.length).toBe(40);
    expect(w.siblingPath.computeRoot(poseidon2Hash([p.key, p.value, p.nextKey, p.nextIndex]), w.index)).toBe(
      root(MerkleTreeId.PUBLIC_DATA_TREE),
    );
    expect(v.getPublicStorageAt(slot)).toBe(p.key === slot ? p.value : 0n);
  }

  const appendOnly: [MerkleTreeId, bigint[], (x: bigint) => ReturnType<typeof v.getNoteHashMembershipWitness>][] = [
    [MerkleTreeId.NOTE_HASH_TREE, applied.noteHashes, (x) => v.getNoteHashMembershipWitness(x)],
    [MerkleTreeId.L1_TO_L2_MESSAGE_TREE, applied.messages, (x) => v.getL1ToL2MessageMembershipWitness(x)],
    [MerkleTreeId.ARCHIVE, applied.hashes, (x) => v.getArchiveMembershipWitness(x)],
  ];
  for (const [id, values, witness] of appendOnly) {
    if (values.length === 0) continue;
    const x = rng.pick(values);
    const w = witness(x);
    const index = v.findLeafIndices(id, [x])[0];
    expect(w?.index).toBe(index);
    if (w) expect(w.siblingPath.computeRoot(x, w.index)).toBe(root(id));
    expect(witness(rng.field())).toBeUndefined();
  }

  // Sibling paths of arbitrary indices, empty ones included, prove the leaf hash stored there.
  const size = Number(v.getTreeInfo(MerkleTreeId.NOTE_HASH_TREE).size);
  for (const index of [0, rng.int(size + 1), size + 5]) {
    const leaf = v.getLeafValue(MerkleTreeId.NOTE_HASH_TREE, BigInt(index));
    const path = v.getSiblingPath(MerkleTreeId.NOTE_HASH_TREE, BigInt(index));
    expect(path.computeRoot(leaf, BigInt(index))).toBe(root(MerkleTreeId.NOTE_HASH_TREE));
  }
}

describe('property: random blocks, history, witnesses, unwind', () => {
  for (const seed of [11, 12]) {
    it(`seed ${seed}`, () => {
      const rng = new Rng(seed);
      const { db, ws } = openWorldState();
      const slots: bigint[] = [];
      const applied: Applied = {
        noteHashes: [],
        nullifiers: [],
        slots,
        messages: [],
        hashes: [ws.getGenesisBlockHash()],
      };
      const rootsAt: string[][] = [roots(ws, 0)];
      const digestAt: string[] = [digest(db)];
      const blocks = 6;
      for (let b = 1; b <= blocks; b++) {
        applyRandomBlocks(ws, rng, 1, slots, applied);
        rootsAt.push(roots(ws, b));
        digestAt.push(digest(db));
      }
      // History: every block reads back as it was right after it was applied.
      for (let b = 0; b <= blocks; b++) expect(roots(ws, b)).toEqual(rootsAt[b]);
      for (let b = 0; b <= blocks; b++) checkWitnesses(ws, rng, b, applied);

      // Unwinding returns to byte-identical roots and database rows; new blocks then grow a different chain.
      const target = 2 + rng.int(3);
      ws.unwindBlocks(target);
      expect(ws.latestBlockNumber).toBe(target);
      expect(roots(ws, target)).toEqual(rootsAt[target]);
      expect(digest(db)).toBe(digestAt[target]);
      expect(() => ws.view(target + 1)).toThrow(/not yet synced/);
      const fresh: Applied = { noteHashes: [], nullifiers: [], slots: [], messages: [], hashes: [] };
      applyRandomBlocks(ws, rng, 2, [...slots], fresh);
      expect(roots(ws, target + 1)).not.toEqual(rootsAt[target + 1]);
      checkWitnesses(ws, rng, target + 2, { ...fresh, hashes: [...fresh.hashes, ws.getGenesisBlockHash()] });
      ws.unwindBlocks(0);
      expect(roots(ws, 0)).toEqual(rootsAt[0]);
      expect(digest(db)).toBe(digestAt[0]);
    });
  }
});
