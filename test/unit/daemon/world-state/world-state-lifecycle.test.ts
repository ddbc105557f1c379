import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppendOnlyTreeSnapshot } from '../../../../src/core/block/append-only-tree-snapshot.js';
import { PartialStateReference } from '../../../../src/core/block/partial-state-reference.js';
import { StateReference } from '../../../../src/core/block/state-reference.js';
import { Fr } from '../../../../src/core/fr.js';
import { openNodeDatabase } from '../../../../src/daemon/store/node-database.js';
import { MerkleTreeId, parseTreeId } from '../../../../src/daemon/world-state/merkle-tree-id.js';
import { WorldState } from '../../../../src/daemon/world-state/world-state.js';
import {
  BlockNotAvailableError,
  BlockRejectedError,
  InvalidTreeIdError,
  WorldStateStateError,
} from '../../../../src/daemon/world-state/world-state-errors.js';
import { buildBlock, openWorldState, Rng, randomTx } from './world-state-fixtures.js';

function addBlocks(ws: WorldState, rng: Rng, count: number): void {
  const slots: bigint[] = [];
  for (let i = 0; i < count; i++) ws.applyBlock(buildBlock(ws, { txs: [randomTx(rng, slots, 3)] }));
}

function rootsOf(ws: WorldState, block: number | 'latest'): bigint[] {
  const v = ws.view(block);
  return [0, 1, 2, 3, 4].map((id) => v.getTreeInfo(id as MerkleTreeId).root);
}

describe('tree ids', () => {
  it('accepts 0 to 4', () => {
    for (const id of [0, 1, 2, 3, 4]) expect(parseTreeId(id)).toBe(id);
  });
  it("reads the spec's 5 (BLOCKS_TREE) as the archive, and refuses 6 with a message naming the real trees", () => {
    expect(parseTreeId(5)).toBe(4);
    expect(() => parseTreeId(6)).toThrow(InvalidTreeIdError);
    expect(() => parseTreeId(6)).toThrow(/treeId 6 is not a tree of this node.*4 \(ARCHIVE\)/);
    const { ws } = openWorldState();
    expect(() => ws.findLeavesIndexes('latest', 6 as MerkleTreeId, [1n])).toThrow(InvalidTreeIdError);
  });
  it('refuses other values', () => {
    for (const id of [7, -1, 1.5, '1', null])
      expect(() => parseTreeId(id)).toThrow(/treeId must be one of 0, 1, 2, 3, 4, 5/);
  });
});

describe('block application', () => {
  it('rejects a block whose state differs from its header, and writes nothing', () => {
    const rng = new Rng(3);
    const { db, ws } = openWorldState();
    addBlocks(ws, rng, 1);
    const count = () =>
      db.prepare('SELECT (SELECT count(*) FROM ws_node) + (SELECT count(*) FROM ws_key)').pluck().get();
    const before = count();
    const good = buildBlock(ws, { txs: [randomTx(rng, [])] });
    const s = good.state;
    const wrongNullifierRoot = new StateReference(
      s.l1ToL2MessageTree,
      new PartialStateReference(
        s.partial.noteHashTree,
        new AppendOnlyTreeSnapshot(new Fr(5n), s.partial.nullifierTree.nextAvailableLeafIndex),
        s.partial.publicDataTree,
      ),
    );
    expect(() => ws.applyBlock({ ...good, state: wrongNullifierRoot })).toThrow(BlockRejectedError);
    expect(() => ws.applyBlock({ ...good, state: wrongNullifierRoot })).toThrow(
      /NULLIFIER_TREE computed .* header says \(0x0+5,/,
    );
    expect(ws.latestBlockNumber).toBe(1);
    expect(count()).toBe(before);
    ws.applyBlock(good);
    expect(ws.latestBlockNumber).toBe(2);
  });

  it('rejects wrong numbers, a wrong lastArchive, messages off the checkpoint start, duplicates and oversize txs', () => {
    const rng = new Rng(4);
    const { ws } = openWorldState();
    const good = buildBlock(ws, { txs: [randomTx(rng, [])] });
    expect(() => ws.applyBlock({ ...good, blockNumber: 2 })).toThrow(
      /Block 2 cannot be applied: the world state is at block 0/,
    );
    expect(() => ws.applyBlock({ ...good, lastArchive: new AppendOnlyTreeSnapshot(new Fr(1n), 1) })).toThrow(
      /lastArchive .* is not the archive after block 0/,
    );
    expect(() => ws.applyBlock({ ...good, firstInCheckpoint: false, l1ToL2Messages: [1n] })).toThrow(
      /not the first of its checkpoint but brings 1 L1-to-L2 messages/,
    );
    const dup = { noteHashes: [], nullifiers: [7n, 7n], publicDataWrites: [] };
    expect(() => ws.applyBlock({ ...good, txs: [dup] })).toThrow(/tx 0: Nullifier 0x0+7 appears twice/);
    const existing = { noteHashes: [], nullifiers: [100n], publicDataWrites: [] };
    expect(() => ws.applyBlock({ ...good, txs: [existing] })).toThrow(
      /already exists in the nullifier tree at index 100/,
    );
    const big = { noteHashes: new Array(65).fill(1n), nullifiers: [1000n], publicDataWrites: [] };
    expect(() => ws.applyBlock({ ...good, txs: [big] })).toThrow(/at most 64 note hashes, got 65/);
    const empty = { noteHashes: [], nullifiers: [1000n], publicDataWrites: [{ leafSlot: 0n, value: 0n }] };
    expect(() => ws.applyBlock({ ...good, txs: [empty] })).toThrow(/Public data write 0 is empty/);
    expect(ws.latestBlockNumber).toBe(0);
    ws.applyBlock(good);
    expect(ws.latestBlockNumber).toBe(1);
  });

  it("runs inside the caller's transaction: a rollback there undoes the block, and the next call notices", () => {
    const rng = new Rng(5);
    const { db, ws } = openWorldState();
    addBlocks(ws, rng, 1);
    const rootsBefore = rootsOf(ws, 'latest');
    const block = buildBlock(ws, { txs: [randomTx(rng, [])] });
    expect(() =>
      db.transaction(() => {
        ws.applyBlock(block);
        expect(ws.latestBlockNumber).toBe(2);
        throw new Error('chain store failed');
      })(),
    ).toThrow('chain store failed');
    expect(ws.latestBlockNumber).toBe(1);
    expect(rootsOf(ws, 'latest')).toEqual(rootsBefore);
    db.transaction(() => ws.applyBlock(block))();
    expect(ws.latestBlockNumber).toBe(2);
    expect(ws.getStateReference().equals(block.state)).toBe(true);
  });
});

describe('history, finality, pruning and unwinding', () => {
  it('prunes below the retention window once finalized, with a clear error for pruned blocks', () => {
    const rng = new Rng(6);
    const { ws } = openWorldState({ historyBlocks: 2 });
    addBlocks(ws, rng, 5);
    const roots = [0, 1, 2, 3, 4, 5].map((b) => rootsOf(ws, b));
    // Nothing is pruned before finality reaches the window.
    expect(ws.pruneHistory()).toBe(0);
    ws.setFinalized(4);
    expect(ws.getSyncStatus()).toMatchObject({
      latestBlockNumber: 5,
      finalizedBlockNumber: 4,
      oldestHistoricBlockNumber: 4,
    });
    expect(() => ws.view(3)).toThrow(BlockNotAvailableError);
    expect(() => ws.view(3)).toThrow(/Block 3 is no longer available .* the oldest available block is 4/);
    expect(() => ws.view(6)).toThrow(/Queried block 6 not yet synced by the node \(node is synced upto 5\)/);
    expect(rootsOf(ws, 4)).toEqual(roots[4]);
    expect(rootsOf(ws, 5)).toEqual(roots[5]);
    // Archive leaves survive pruning: old block hashes stay resolvable.
    expect(ws.getBlockNumber(ws.getBlockHash(1) as bigint)).toBe(1);
  });

  it('keeps everything with no retention limit', () => {
    const rng = new Rng(7);
    const { ws } = openWorldState();
    addBlocks(ws, rng, 3);
    ws.setFinalized(3);
    expect(ws.getSyncStatus().oldestHistoricBlockNumber).toBe(0);
    expect(rootsOf(ws, 0)[MerkleTreeId.NULLIFIER_TREE]).toBe(
      0x1ec3788cd1c32e54d889d67fe29e481114f9d4afe9b44b229aa29d8ad528dd31n,
    );
  });

  it('refuses to unwind below the finalized block unless forced', () => {
    const rng = new Rng(8);
    const { ws } = openWorldState();
    addBlocks(ws, rng, 4);
    const roots2 = rootsOf(ws, 2);
    ws.setFinalized(3);
    expect(() => ws.unwindBlocks(2)).toThrow(WorldStateStateError);
    expect(() => ws.unwindBlocks(2)).toThrow(/Cannot unwind to block 2: block 3 is finalized/);
    expect(ws.unwindBlocks(3)).toEqual({ latestBlockNumber: 3, clearedToGenesis: false });
    expect(ws.unwindBlocks(2, { force: true })).toEqual({ latestBlockNumber: 2, clearedToGenesis: false });
    expect(rootsOf(ws, 'latest')).toEqual(roots2);
    expect(ws.getSyncStatus().finalizedBlockNumber).toBe(2);
  });

  it('a forced unwind past pruned history clears the trees to genesis', () => {
    const rng = new Rng(9);
    const { ws } = openWorldState({ historyBlocks: 1 });
    const genesis = rootsOf(ws, 0);
    addBlocks(ws, rng, 3);
    ws.setFinalized(3);
    expect(ws.getSyncStatus().oldestHistoricBlockNumber).toBe(3);
    expect(ws.unwindBlocks(1, { force: true })).toEqual({ latestBlockNumber: 0, clearedToGenesis: true });
    expect(ws.getSyncStatus()).toMatchObject({
      latestBlockNumber: 0,
      finalizedBlockNumber: 0,
      oldestHistoricBlockNumber: 0,
    });
    expect(rootsOf(ws, 'latest')).toEqual(genesis);
    addBlocks(ws, rng, 1);
    expect(ws.latestBlockNumber).toBe(1);
  });
});

describe('forks', () => {
  it('writes stay in the fork until committed; committing checks base and number', () => {
    const rng = new Rng(10);
    const { ws } = openWorldState();
    addBlocks(ws, rng, 1);
    const before = rootsOf(ws, 'latest');
    const fork = ws.fork();
    fork.applyTxEffects(randomTx(rng, []));
    expect(rootsOf(ws, 'latest')).toEqual(before);
    expect(fork.getTreeInfo(MerkleTreeId.NOTE_HASH_TREE).size).toBe(128n);
    const other = ws.fork();
    expect(() => ws.commitFork(fork, { blockNumber: 3, blockHash: 1n })).toThrow(
      /as block 3: the world state is at block 1/,
    );
    const state = ws.commitFork(fork, { blockNumber: 2, blockHash: 12345n });
    expect(ws.getStateReference().equals(state)).toBe(true);
    expect(ws.getBlockHash(2)).toBe(12345n);
    expect(() => fork.getStateReference()).toThrow(/closed or committed/);
    // A fork of block 1 can still read block 1, but can no longer be committed.
    expect(other.getTreeInfo(MerkleTreeId.NOTE_HASH_TREE).root).toBe(before[MerkleTreeId.NOTE_HASH_TREE]);
    expect(() => ws.commitFork(other, { blockNumber: 3, blockHash: 1n })).toThrow(/fork of block 1 as block 3/);
  });

  it('a fork whose base block was unwound and replaced refuses to be used', () => {
    const rng = new Rng(11);
    const { ws } = openWorldState();
    addBlocks(ws, rng, 2);
    const fork = ws.fork(2);
    ws.unwindBlocks(1);
    expect(() => fork.getStateReference()).toThrow(/block 2 under this view is gone/);
    addBlocks(ws, rng, 1);
    expect(() => fork.getStateReference()).toThrow(/block 2 under this view was replaced/);
    const closed = ws.fork();
    closed.close();
    expect(() => closed.insertNullifiers([5000n])).toThrow(/closed/);
  });
});

describe('lookups across blocks', () => {
  it('findLeavesIndexes gives the inserting block; absent or not yet inserted leaves are undefined', () => {
    const { ws } = openWorldState();
    const tx = (n: bigint) => ({
      noteHashes: [n],
      nullifiers: [n + 1000n],
      publicDataWrites: [{ leafSlot: n + 2000n, value: 1n }],
    });
    ws.applyBlock(buildBlock(ws, { txs: [tx(1n)] }));
    ws.applyBlock(buildBlock(ws, { txs: [tx(2n)] }));
    const found = ws.findLeavesIndexes('latest', MerkleTreeId.NOTE_HASH_TREE, [1n, 2n, 3n]);
    expect(found[0]).toEqual({ index: 0n, blockNumber: 1, blockHash: ws.getBlockHash(1) });
    expect(found[1]).toEqual({ index: 64n, blockNumber: 2, blockHash: ws.getBlockHash(2) });
    expect(found[2]).toBeUndefined();
    expect(ws.findLeavesIndexes(1, MerkleTreeId.NOTE_HASH_TREE, [2n])).toEqual([undefined]);
    expect(ws.findLeavesIndexes('latest', MerkleTreeId.NULLIFIER_TREE, [1002n, 0n])).toEqual([
      { index: 192n, blockNumber: 2, blockHash: ws.getBlockHash(2) },
      { index: 0n, blockNumber: 0, blockHash: ws.getGenesisBlockHash() },
    ]);
    expect(ws.findLeavesIndexes('latest', MerkleTreeId.PUBLIC_DATA_TREE, [2001n])[0]?.index).toBe(128n);
    expect(ws.findLeavesIndexes('latest', MerkleTreeId.ARCHIVE, [ws.getBlockHash(2) as bigint])[0]?.index).toBe(2n);
  });

  it('the block hash witness uses the archive before the queried block, matching its lastArchive', () => {
    const rng = new Rng(12);
    const { ws } = openWorldState();
    const b1 = buildBlock(ws, { txs: [randomTx(rng, [])] });
    ws.applyBlock(b1);
    const b2 = buildBlock(ws, { txs: [randomTx(rng, [])] });
    ws.applyBlock(b2);
    const w = ws.getBlockHashMembershipWitness(2, b1.blockHash);
    expect(w?.index).toBe(1n);
    expect(w?.siblingPath.computeRoot(b1.blockHash, 1n)).toBe(b2.lastArchive?.root.value);
    expect(ws.getBlockHashMembershipWitness(1, b1.blockHash)).toBeUndefined();
    expect(ws.getBlockHashMembershipWitness(0, ws.getGenesisBlockHash())).toBeUndefined();
    expect(ws.getArchiveMembershipWitness(1, b1.blockHash)?.index).toBe(1n);
  });
});

describe('persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-ws-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reopens a file database at the same state, and refuses a different genesis', () => {
    const file = join(dir, 'node.sqlite');
    const rng = new Rng(13);
    let db = openNodeDatabase(file);
    let ws = WorldState.open(db, { historyBlocks: 2 });
    addBlocks(ws, rng, 3);
    ws.setFinalized(3);
    const status = ws.getSyncStatus();
    const roots = rootsOf(ws, 'latest');
    db.close();
    db = openNodeDatabase(file);
    ws = WorldState.open(db, { historyBlocks: 2 });
    expect(ws.getSyncStatus()).toEqual(status);
    expect(rootsOf(ws, 'latest')).toEqual(roots);
    expect(() => WorldState.open(db, { genesisPublicData: [{ slot: 5000n, value: 1n }] })).toThrow(
      /starts from genesis block hash 0x2ff681dd.*use the same genesis settings/,
    );
    db.close();
  });
});
