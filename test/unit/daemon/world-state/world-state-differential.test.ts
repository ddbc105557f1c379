import { describe, expect, it } from 'vitest';
import { MerkleTreeId } from '../../../../src/daemon/world-state/merkle-tree-id.js';
import { ReferenceAppendOnlyTree, ReferenceIndexedTree } from './reference-trees.js';
import { openWorldState, Rng } from './world-state-fixtures.js';

const genesisIndexed = Array.from({ length: 128 }, (_, i) => ({ key: BigInt(i), value: 0n }));

describe('differential: our trees against a plain in-memory model', () => {
  for (const seed of [1, 2, 3]) {
    it(`random batches, seed ${seed}`, () => {
      const rng = new Rng(seed);
      const { ws } = openWorldState();
      const noteHashes = new ReferenceAppendOnlyTree(42);
      const messages = new ReferenceAppendOnlyTree(36);
      const nullifiers = new ReferenceIndexedTree(42, 'nullifier', genesisIndexed);
      const publicData = new ReferenceIndexedTree(40, 'public-data', genesisIndexed);
      const slots: bigint[] = [];
      let fork = ws.fork();
      for (let round = 0; round < 6; round++) {
        // Append-only: random values with zeros in between.
        const nh = Array.from({ length: 1 + rng.int(40) }, () => (rng.next() < 0.2 ? 0n : rng.field()));
        fork.appendNoteHashes(nh);
        noteHashes.append(nh);
        const msgs = Array.from({ length: rng.int(20) }, () => (rng.next() < 0.3 ? 0n : rng.field()));
        fork.appendL1ToL2Messages(msgs);
        messages.append(msgs);
        // Nullifiers: one batch, some small (low leaves among the prefill), zeros, values landing between others.
        const batch = Array.from({ length: 1 + rng.int(40) }, () => {
          const r = rng.next();
          return r < 0.15 ? 0n : r < 0.3 ? BigInt(128 + rng.int(1_000_000)) : rng.field();
        });
        const unique = batch.filter((v, i) => v === 0n || batch.indexOf(v) === i);
        fork.insertNullifiers(unique);
        for (const v of unique) nullifiers.insert(v);
        // Public data: new slots, repeated slots in the batch, and updates of older slots.
        const writes = Array.from({ length: 1 + rng.int(30) }, () => {
          const reuse = slots.length > 0 && rng.next() < 0.4;
          const leafSlot = reuse ? rng.pick(slots) : rng.next() < 0.2 ? BigInt(rng.int(128)) : rng.field();
          if (!reuse) slots.push(leafSlot);
          return { leafSlot, value: rng.field() };
        });
        fork.writePublicData(writes);
        for (const w of writes) publicData.insert(w.leafSlot, w.value);

        const info = (id: MerkleTreeId) => fork.getTreeInfo(id);
        expect(info(MerkleTreeId.NOTE_HASH_TREE).root).toBe(noteHashes.root());
        expect(info(MerkleTreeId.NOTE_HASH_TREE).size).toBe(BigInt(noteHashes.leaves.length));
        expect(info(MerkleTreeId.L1_TO_L2_MESSAGE_TREE).root).toBe(messages.root());
        expect(info(MerkleTreeId.NULLIFIER_TREE).root).toBe(nullifiers.root());
        expect(info(MerkleTreeId.NULLIFIER_TREE).size).toBe(BigInt(nullifiers.leaves.length));
        expect(info(MerkleTreeId.PUBLIC_DATA_TREE).root).toBe(publicData.root());
        expect(info(MerkleTreeId.PUBLIC_DATA_TREE).size).toBe(BigInt(publicData.leaves.length));

        // Every other round goes to the database, so later rounds read committed nodes and leaves.
        if (round % 2 === 1) {
          ws.commitFork(fork, { blockNumber: ws.latestBlockNumber + 1, blockHash: rng.field() });
          fork = ws.fork();
          expect(ws.getTreeInfo('latest', MerkleTreeId.PUBLIC_DATA_TREE).root).toBe(publicData.root());
        }
      }
      // Preimages agree leaf by leaf.
      const v = ws.fork();
      publicData.leaves.forEach((l, i) => {
        if (!l) return;
        expect(v.getLeafPreimage(MerkleTreeId.PUBLIC_DATA_TREE, BigInt(i))).toEqual({
          key: l.key,
          value: l.value,
          nextKey: l.nextKey,
          nextIndex: BigInt(l.nextIndex),
        });
      });
    });
  }
});
