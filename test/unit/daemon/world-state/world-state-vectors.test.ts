import { describe, expect, it } from 'vitest';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { poseidon2Hash } from '../../../../src/core/crypto/poseidon2.js';
import { toHex64 } from '../../../../src/core/fr.js';
import { emptySubtreeRoot } from '../../../../src/daemon/world-state/empty-subtrees.js';
import { MerkleTreeId } from '../../../../src/daemon/world-state/merkle-tree-id.js';
import { vectors } from '../../../helpers/vectors.js';
import { openWorldState } from './world-state-fixtures.js';

const g = vectors.genesis;
const ins = vectors.insertions;
const hex = (b: Buffer) => `0x${b.toString('hex')}`;

describe('empty subtree roots (vectors.json emptyTreeRoots)', () => {
  for (const [height, root] of Object.entries(vectors.emptyTreeRoots as Record<string, string>)) {
    it(`height ${height}`, () => expect(hex(emptySubtreeRoot(Number(height)))).toBe(root));
  }
});

describe('genesis (vectors.json genesis)', () => {
  const { ws } = openWorldState();

  it('tree heights', () => {
    const v = ws.view(0);
    for (const [name, height] of Object.entries(g.treeHeights as Record<string, number>)) {
      const id = MerkleTreeId[name as keyof typeof MerkleTreeId];
      expect(v.getTreeInfo(id).depth).toBe(height);
    }
  });

  it('roots and sizes of the five trees', () => {
    const s = ws.getStateReference(0);
    expect(s.partial.nullifierTree.root.toString()).toBe(g.nullifierTreeRoot);
    expect(s.partial.nullifierTree.nextAvailableLeafIndex).toBe(g.nullifierTreeSize);
    expect(s.partial.noteHashTree.root.toString()).toBe(g.noteHashTreeRoot);
    expect(s.partial.noteHashTree.nextAvailableLeafIndex).toBe(0);
    expect(s.partial.publicDataTree.root.toString()).toBe(g.publicDataTreeRoot);
    expect(s.partial.publicDataTree.nextAvailableLeafIndex).toBe(g.publicDataTreeSize);
    expect(s.l1ToL2MessageTree.root.toString()).toBe(g.l1ToL2MessageTreeRoot);
    expect(s.l1ToL2MessageTree.nextAvailableLeafIndex).toBe(0);
    const archive = ws.getArchiveSnapshot(0);
    expect(archive.root.toString()).toBe(g.archiveRoot);
    expect(archive.nextAvailableLeafIndex).toBe(1);
  });

  it('leaf 0 hashes of the indexed trees, proven against their roots', () => {
    const v = ws.view(0);
    const n0 = v.getLeafPreimage(MerkleTreeId.NULLIFIER_TREE, 0n);
    expect(n0).toEqual({ key: 0n, value: 0n, nextKey: 1n, nextIndex: 1n });
    const n0Hash = poseidon2Hash([0n, 1n, 1n]);
    expect(toHex64(n0Hash)).toBe(g.nullifierLeaf0Hash);
    expect(toHex64(v.getSiblingPath(MerkleTreeId.NULLIFIER_TREE, 0n).computeRoot(n0Hash, 0n))).toBe(
      g.nullifierTreeRoot,
    );
    const p0 = v.getLeafPreimage(MerkleTreeId.PUBLIC_DATA_TREE, 0n);
    expect(p0).toEqual({ key: 0n, value: 0n, nextKey: 1n, nextIndex: 1n });
    const p0Hash = poseidon2Hash([0n, 0n, 1n, 1n]);
    expect(toHex64(p0Hash)).toBe(g.publicDataLeaf0Hash);
    expect(toHex64(v.getSiblingPath(MerkleTreeId.PUBLIC_DATA_TREE, 0n).computeRoot(p0Hash, 0n))).toBe(
      g.publicDataTreeRoot,
    );
    expect(v.getLeafPreimage(MerkleTreeId.NULLIFIER_TREE, 127n)).toEqual({
      key: 127n,
      value: 0n,
      nextKey: 0n,
      nextIndex: 0n,
    });
  });

  it('genesis block header hash is archive leaf 0; the empty header hash', () => {
    expect(toHex64(ws.getGenesisBlockHash())).toBe(g.blockHeaderHash);
    expect(toHex64(ws.getLeafValue(0, MerkleTreeId.ARCHIVE, 0n))).toBe(g.blockHeaderHash);
    expect(toHex64(ws.getBlockHash(0) as bigint)).toBe(g.blockHeaderHash);
    expect(BlockHeader.empty().hash().toString()).toBe(g.emptyBlockHeaderHash);
  });

  it('sync status at genesis', () => {
    expect(ws.getSyncStatus()).toEqual({
      latestBlockNumber: 0,
      latestBlockHash: BigInt(g.blockHeaderHash),
      finalizedBlockNumber: 0,
      oldestHistoricBlockNumber: 0,
      treesAreSynched: true,
    });
  });
});

describe('genesis with prefilled public data (vectors.json genesis.withPrefilledPublicData)', () => {
  const p = g.withPrefilledPublicData;
  const prefill = p.prefill.map((e: { slot: string; value: string }) => ({
    slot: BigInt(e.slot),
    value: BigInt(e.value),
  }));
  const { ws } = openWorldState({ genesisPublicData: [...prefill].reverse() });

  it('public data root, size and archive root', () => {
    const s = ws.getStateReference();
    expect(s.partial.publicDataTree.root.toString()).toBe(p.publicDataTreeRoot);
    expect(s.partial.publicDataTree.nextAvailableLeafIndex).toBe(128);
    expect(ws.getArchiveSnapshot().root.toString()).toBe(p.archiveRoot);
  });

  it('the tail holds the prefilled pairs, chained in slot order', () => {
    const v = ws.view();
    expect(v.getLeafPreimage(MerkleTreeId.PUBLIC_DATA_TREE, 125n)).toEqual({
      key: 125n,
      value: 0n,
      nextKey: 1000n,
      nextIndex: 126n,
    });
    expect(v.getLeafPreimage(MerkleTreeId.PUBLIC_DATA_TREE, 126n)).toEqual({
      key: 1000n,
      value: 5n,
      nextKey: 2000n,
      nextIndex: 127n,
    });
    expect(v.getLeafPreimage(MerkleTreeId.PUBLIC_DATA_TREE, 127n)).toEqual({
      key: 2000n,
      value: 6n,
      nextKey: 0n,
      nextIndex: 0n,
    });
    expect(v.getPublicStorageAt(1000n)).toBe(5n);
    expect(v.getPublicStorageAt(1500n)).toBe(0n);
  });
});

describe('insertions on genesis (vectors.json insertions)', () => {
  it('nullifier batch: given order, zeros take an index (fork and committed)', () => {
    const { ws } = openWorldState();
    const v = ins.nullifierBatchOnGenesis;
    const values = [...v.values.map(BigInt), ...new Array(v.paddedTo - v.values.length).fill(0n)];
    const fork = ws.fork();
    fork.insertNullifiers(values);
    const snap = fork.getTreeSnapshot(MerkleTreeId.NULLIFIER_TREE);
    expect(snap.root.toString()).toBe(v.root);
    expect(snap.nextAvailableLeafIndex).toBe(v.size);
    expect(fork.getLeafPreimage(MerkleTreeId.NULLIFIER_TREE, 127n)).toEqual({
      key: 127n,
      value: 0n,
      nextKey: 777n,
      nextIndex: 129n,
    });
    // The same batch committed as block 1 reads back identically.
    ws.commitFork(fork, { blockNumber: 1, blockHash: 99n });
    expect(ws.getTreeInfo(1, MerkleTreeId.NULLIFIER_TREE).root).toBe(BigInt(v.root));
    expect(ws.getLeafPreimage('latest', MerkleTreeId.NULLIFIER_TREE, 127n)?.nextIndex).toBe(129n);
    expect(ws.getLeafPreimage('latest', MerkleTreeId.NULLIFIER_TREE, 131n)).toBeUndefined();
  });

  it('the same batch in one-by-one inserts gives the same root', () => {
    const { ws } = openWorldState();
    const v = ins.nullifierBatchOnGenesis;
    const values = [...v.values.map(BigInt), ...new Array(v.paddedTo - v.values.length).fill(0n)];
    const fork = ws.fork();
    for (const n of values) fork.insertNullifiers([n]);
    expect(fork.getTreeInfo(MerkleTreeId.NULLIFIER_TREE).root).toBe(BigInt(v.root));
  });

  it('public data sequential writes with an in-place update', () => {
    const { ws } = openWorldState();
    const v = ins.publicDataSequentialOnGenesis;
    const writes = v.writes.map((w: { slot: string; value: string }) => ({
      leafSlot: BigInt(w.slot),
      value: BigInt(w.value),
    }));
    const fork = ws.fork();
    fork.writePublicData(writes);
    const snap = fork.getTreeSnapshot(MerkleTreeId.PUBLIC_DATA_TREE);
    expect(snap.root.toString()).toBe(v.root);
    expect(snap.nextAvailableLeafIndex).toBe(v.size);
    expect(fork.getPublicStorageAt(999999n)).toBe(8n);
    // One write at a time, as the node's sync path does, ends at the same root.
    const fork2 = ws.fork();
    for (const w of writes) fork2.writePublicData([w]);
    expect(fork2.getTreeInfo(MerkleTreeId.PUBLIC_DATA_TREE).root).toBe(BigInt(v.root));
  });

  it('note hash append on the empty tree', () => {
    const { ws } = openWorldState();
    const v = ins.noteHashAppendOnEmpty;
    const fork = ws.fork();
    fork.appendNoteHashes(v.values.map(BigInt));
    const snap = fork.getTreeSnapshot(MerkleTreeId.NOTE_HASH_TREE);
    expect(snap.root.toString()).toBe(v.root);
    expect(snap.nextAvailableLeafIndex).toBe(v.size);
  });
});
