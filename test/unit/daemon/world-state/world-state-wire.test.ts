import { describe, expect, it } from 'vitest';
import { MerkleTreeId } from '../../../../src/daemon/world-state/merkle-tree-id.js';
import { SiblingPath } from '../../../../src/daemon/world-state/sibling-path.js';
import { l1ToL2MessageWitnessResult } from '../../../../src/rpc/methods/messages.js';
import {
  leafInBlockResult,
  nullifierWitnessResult,
  publicDataWitnessResult,
  worldStateSyncStatusResult,
} from '../../../../src/rpc/methods/trees.js';
import { fieldValuesResult, membershipWitnessResult, siblingPathResult } from '../../../../src/rpc/result-codecs.js';
import { buildBlock, openWorldState } from './world-state-fixtures.js';

const HEX64 = /^0x[0-9a-f]{64}$/;

// The method table's codecs encode what the world state answers (the wire forms of the witness methods).
interface Json {
  index: string;
  leafPreimage: { leaf: Record<string, string>; nextKey: string; nextIndex: string };
  siblingPath: string;
}
const encodeSiblingPath = (p: SiblingPath) => siblingPathResult.encode(p) as string;
const encodeSiblingPathHex = (p: SiblingPath) => fieldValuesResult.encode(p.toBigInts()) as string[];
const encodeMembershipWitness = (w: Parameters<typeof membershipWitnessResult.encode>[0]) =>
  membershipWitnessResult.encode(w) as string;
const encodeNullifierMembershipWitness = (w: Parameters<typeof nullifierWitnessResult.encode>[0]) =>
  nullifierWitnessResult.encode(w) as Json;
const encodePublicDataWitness = (w: Parameters<typeof publicDataWitnessResult.encode>[0]) =>
  publicDataWitnessResult.encode(w) as Json;
const encodeL1ToL2MessageWitness = (w: Parameters<typeof l1ToL2MessageWitnessResult.encode>[0]) =>
  l1ToL2MessageWitnessResult.encode(w) as [string, string];
const encodeLeafInBlock = (l: Parameters<typeof leafInBlockResult.encode>[0]) => leafInBlockResult.encode(l);
const encodeWorldStateSyncStatus = (s: Parameters<typeof worldStateSyncStatusResult.encode>[0]) =>
  worldStateSyncStatusResult.encode(s) as { latestBlockHash: string };

describe('world-state wire encoders (docs/aztec-facts.md sections 1.6 and 2.6)', () => {
  const { ws } = openWorldState();
  const block = buildBlock(ws, {
    txs: [{ noteHashes: [77n], nullifiers: [5000n], publicDataWrites: [{ leafSlot: 9000n, value: 3n }] }],
    l1ToL2Messages: [88n],
  });
  ws.applyBlock(block);
  const next = buildBlock(ws, { txs: [{ noteHashes: [], nullifiers: [6000n], publicDataWrites: [] }] });
  ws.applyBlock(next);

  it('SiblingPath<N>: u32 count then N nodes; 1800 base64 chars for height 42', () => {
    const path = ws.getSiblingPath('latest', MerkleTreeId.NOTE_HASH_TREE, 0n);
    const b64 = encodeSiblingPath(path);
    expect(b64).toHaveLength(1800);
    const raw = Buffer.from(b64, 'base64');
    expect(raw.readUInt32BE(0)).toBe(42);
    expect(raw.subarray(4, 36)).toEqual(path.nodes[0]);
    expect(SiblingPath.fromBuffer(raw).toBigInts()).toEqual(path.toBigInts());
    const hex = encodeSiblingPathHex(path);
    expect(hex).toHaveLength(42);
    expect(hex.every((h) => HEX64.test(h))).toBe(true);
    expect(BigInt(hex[41] as string)).toBe(path.toBigInts()[41]);
    expect(
      Buffer.from(encodeSiblingPath(ws.getSiblingPath('latest', MerkleTreeId.PUBLIC_DATA_TREE, 0n)), 'base64'),
    ).toHaveLength(1284);
  });

  it('MembershipWitness<N>: 32-byte index then N nodes, no count; 1324 chars for the archive', () => {
    const w = ws.getBlockHashMembershipWitness(2, block.blockHash);
    if (!w) throw new Error('expected a witness');
    const b64 = encodeMembershipWitness(w);
    expect(b64).toHaveLength(1324);
    const raw = Buffer.from(b64, 'base64');
    expect(raw.subarray(0, 32).readUInt32BE(28)).toBe(1);
    expect(raw.subarray(0, 28).every((x) => x === 0)).toBe(true);
    expect(raw.subarray(32, 64)).toEqual(w.siblingPath.nodes[0]);
    const nh = ws.getNoteHashMembershipWitness('latest', 77n);
    expect(nh && Buffer.from(encodeMembershipWitness(nh), 'base64')).toHaveLength(1376);
  });

  it('NullifierMembershipWitness and PublicDataWitness objects', () => {
    const n = ws.getNullifierMembershipWitness('latest', 5000n);
    if (!n) throw new Error('expected a witness');
    const json = encodeNullifierMembershipWitness(n);
    expect(Object.keys(json)).toEqual(['index', 'leafPreimage', 'siblingPath']);
    expect(json.index).toBe('128');
    expect(json.leafPreimage.leaf.nullifier).toBe(`0x${(5000).toString(16).padStart(64, '0')}`);
    expect(json.leafPreimage.nextKey).toBe(`0x${(6000).toString(16).padStart(64, '0')}`);
    expect(json.leafPreimage.nextIndex).toBe('192');
    expect(Buffer.from(json.siblingPath, 'base64').readUInt32BE(0)).toBe(42);

    const p = ws.getPublicDataWitness('latest', 9000n);
    if (!p) throw new Error('expected a witness');
    const pj = encodePublicDataWitness(p);
    expect(pj.leafPreimage.leaf).toEqual({
      slot: `0x${(9000).toString(16).padStart(64, '0')}`,
      value: `0x${'0'.repeat(63)}3`,
    });
    expect(pj.leafPreimage.nextKey).toBe(`0x${'0'.repeat(64)}`);
    expect(pj.leafPreimage.nextIndex).toBe('0');
    expect(Buffer.from(pj.siblingPath, 'base64').readUInt32BE(0)).toBe(40);
  });

  it('L1-to-L2 message witness is [index, SiblingPath<36>]', () => {
    const w = ws.getL1ToL2MessageMembershipWitness('latest', 88n);
    if (!w) throw new Error('expected a witness');
    const [index, path] = encodeL1ToL2MessageWitness(w);
    expect(index).toBe('0');
    expect(Buffer.from(path, 'base64')).toHaveLength(1156);
  });

  it('findLeavesIndexes items and the sync status', () => {
    const [found] = ws.findLeavesIndexes('latest', MerkleTreeId.NULLIFIER_TREE, [6000n]);
    if (!found) throw new Error('expected a leaf');
    expect(encodeLeafInBlock(found)).toEqual({
      l2BlockNumber: 2,
      l2BlockHash: `0x${next.blockHash.toString(16).padStart(64, '0')}`,
      data: '192',
    });
    const status = encodeWorldStateSyncStatus(ws.getSyncStatus());
    expect(status).toEqual({
      latestBlockNumber: 2,
      latestBlockHash: `0x${next.blockHash.toString(16).padStart(64, '0')}`,
      finalizedBlockNumber: 0,
      oldestHistoricBlockNumber: 0,
      treesAreSynched: true,
    });
    expect(status.latestBlockHash).toMatch(HEX64);
  });
});
