/**
 * Views and forks remember what they read of their base block (low-leaf indices, leaf preimages): the answers
 * must stay those of the trees as they are now, through the fork's own writes, commits, unwinds and reorgs.
 */
import { describe, expect, it } from 'vitest';
import { MerkleTreeId } from '../../../../src/daemon/world-state/merkle-tree-id.js';
import type { WorldState } from '../../../../src/daemon/world-state/world-state.js';
import type { WorldStateView } from '../../../../src/daemon/world-state/world-state-view.js';
import { buildBlock, openWorldState, Rng, randomTx } from './world-state-fixtures.js';

function addBlock(ws: WorldState, rng: Rng, slots: bigint[]) {
  const tx = randomTx(rng, slots, 4);
  ws.applyBlock(buildBlock(ws, { txs: [tx] }));
  return tx;
}

/** Everything `view` answers about these keys, read twice (the second read comes from what it remembered). */
function answers(view: WorldStateView, nullifiers: readonly bigint[], slots: readonly bigint[]) {
  const once = () => ({
    nullifiers: nullifiers.map((n) => [view.hasNullifier(n), view.findLowLeaf(MerkleTreeId.NULLIFIER_TREE, n)]),
    storage: slots.map((s) => [view.getPublicStorageAt(s), view.findLowLeaf(MerkleTreeId.PUBLIC_DATA_TREE, s)]),
  });
  const first = once();
  expect(once()).toEqual(first);
  return first;
}

describe('world-state read caches', () => {
  it("a fork's reads follow its own writes, and a fresh fork of the same block answers the same", () => {
    const rng = new Rng(21);
    const { ws } = openWorldState();
    const slots: bigint[] = [];
    const committed = addBlock(ws, rng, slots);
    const fork = ws.fork();
    const newNullifiers = [rng.field(), rng.field()];
    const newSlot = rng.field();
    const keys = [...committed.nullifiers, ...newNullifiers];
    const storageKeys = [...slots, newSlot];
    const before = answers(fork, keys, storageKeys);
    expect(before.nullifiers.map(([present]) => present)).toEqual([
      ...committed.nullifiers.map(() => true),
      false,
      false,
    ]);

    fork.insertNullifiers(newNullifiers);
    fork.writePublicData([
      { leafSlot: newSlot, value: 77n },
      { leafSlot: slots[0] as bigint, value: 88n },
    ]);
    const after = answers(fork, keys, storageKeys);
    expect(after.nullifiers.map(([present]) => present)).toEqual(keys.map(() => true));
    expect(fork.getPublicStorageAt(newSlot)).toBe(77n);
    expect(fork.getPublicStorageAt(slots[0] as bigint)).toBe(88n);

    // A refused batch (a duplicate) changes nothing, the answers included.
    expect(() => fork.insertNullifiers([rng.field(), newNullifiers[0] as bigint])).toThrow(/already exists/);
    expect(answers(fork, keys, storageKeys)).toEqual(after);

    // A fork of the same block never saw those writes.
    expect(answers(ws.fork(), keys, storageKeys)).toEqual(before);
  });

  it('a view that has read a block refuses to answer once the block is unwound or replaced', () => {
    const rng = new Rng(22);
    const { ws } = openWorldState();
    const slots: bigint[] = [];
    addBlock(ws, rng, slots);
    const second = addBlock(ws, rng, slots);
    const view = ws.view(2);
    const fork = ws.fork(2);
    answers(view, second.nullifiers, slots);
    answers(fork, second.nullifiers, slots);
    ws.unwindBlocks(1);
    for (const v of [view, fork]) {
      expect(() => v.hasNullifier(second.nullifiers[0] as bigint)).toThrow(/block 2 under this view is gone/);
      expect(() => v.getPublicStorageAt(slots[0] as bigint)).toThrow(/block 2 under this view is gone/);
    }
    addBlock(ws, rng, slots);
    for (const v of [view, fork]) {
      expect(() => v.hasNullifier(second.nullifiers[0] as bigint)).toThrow(/replaced by a reorg/);
    }
    // The new block 2 is read afresh: the unwound block's nullifiers are gone from it.
    const fresh = ws.view(2);
    for (const n of second.nullifiers) expect(fresh.hasNullifier(n)).toBe(false);
  });

  it('after a commit, a fork of the new block reads what was committed', () => {
    const rng = new Rng(23);
    const { ws } = openWorldState();
    const slots: bigint[] = [];
    addBlock(ws, rng, slots);
    const reader = ws.fork();
    const tx = randomTx(rng, slots, 4);
    const keys = [...tx.nullifiers];
    answers(reader, keys, slots);
    ws.applyBlock(buildBlock(ws, { txs: [tx] }));
    const next = ws.fork();
    for (const n of keys) expect(next.hasNullifier(n)).toBe(true);
    const last = new Map(tx.publicDataWrites.map((w) => [w.leafSlot, w.value]));
    for (const [slot, value] of last) expect(next.getPublicStorageAt(slot)).toBe(value);
    // The fork of the older block still answers for that block.
    for (const n of keys) expect(reader.hasNullifier(n)).toBe(false);
  });
});
