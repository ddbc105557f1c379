import { toHex64 } from '../../core/fr.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import type { IndexedLeafPreimage } from './indexed-leaf.js';
import type { SiblingPath } from './sibling-path.js';
import type {
  LeafInBlock,
  MembershipWitness,
  NullifierMembershipWitness,
  PublicDataWitness,
  WorldStateSyncStatus,
} from './witnesses.js';

/*
 * Wire forms of world-state results (reference aztec-wire 2.5 and 6.22): bigints as decimal strings, field
 * elements as 0x + 64 hex, binary as padded base64.
 */

export interface NullifierMembershipWitnessJson {
  index: string;
  leafPreimage: { leaf: { nullifier: string }; nextKey: string; nextIndex: string };
  siblingPath: string;
}

export interface PublicDataWitnessJson {
  index: string;
  leafPreimage: { leaf: { slot: string; value: string }; nextKey: string; nextIndex: string };
  siblingPath: string;
}

export interface LeafInBlockJson {
  l2BlockNumber: number;
  l2BlockHash: string;
  data: string;
}

export interface WorldStateSyncStatusJson {
  latestBlockNumber: number;
  latestBlockHash: string;
  finalizedBlockNumber: number;
  oldestHistoricBlockNumber: number;
  treesAreSynched: boolean;
}

/** SiblingPath<N>: base64 of a u32 big-endian count, then N 32-byte nodes, leaf level first. */
export function encodeSiblingPath(path: SiblingPath): string {
  return path.toBuffer().toString('base64');
}

/** A sibling path as 0x-hex field elements, leaf level first (the spec's `string[]` for the get*SiblingPath methods). */
export function encodeSiblingPathHex(path: SiblingPath): string[] {
  return path.nodes.map((n) => `0x${n.toString('hex')}`);
}

/** MembershipWitness<N>: base64 of the leaf index as 32 bytes big-endian, then the N siblings; no count. */
export function encodeMembershipWitness(w: MembershipWitness): string {
  const n = w.siblingPath.length;
  const out = Buffer.allocUnsafe(32 + 32 * n);
  bigIntToBuffer32(w.index).copy(out, 0);
  for (let i = 0; i < n; i++) (w.siblingPath.nodes[i] as Buffer).copy(out, 32 + 32 * i);
  return out.toString('base64');
}

export function encodeNullifierMembershipWitness(w: NullifierMembershipWitness): NullifierMembershipWitnessJson {
  return {
    index: w.index.toString(),
    leafPreimage: {
      leaf: { nullifier: toHex64(w.leafPreimage.key) },
      nextKey: toHex64(w.leafPreimage.nextKey),
      nextIndex: w.leafPreimage.nextIndex.toString(),
    },
    siblingPath: encodeSiblingPath(w.siblingPath),
  };
}

export function encodePublicDataWitness(w: PublicDataWitness): PublicDataWitnessJson {
  return {
    index: w.index.toString(),
    leafPreimage: encodePublicDataLeafPreimage(w.leafPreimage),
    siblingPath: encodeSiblingPath(w.siblingPath),
  };
}

function encodePublicDataLeafPreimage(p: IndexedLeafPreimage): PublicDataWitnessJson['leafPreimage'] {
  return {
    leaf: { slot: toHex64(p.key), value: toHex64(p.value) },
    nextKey: toHex64(p.nextKey),
    nextIndex: p.nextIndex.toString(),
  };
}

/** node_getL1ToL2MessageMembershipWitness: a 2-element array [leaf index (decimal), SiblingPath<36> (base64)]. */
export function encodeL1ToL2MessageWitness(w: MembershipWitness): [string, string] {
  return [w.index.toString(), encodeSiblingPath(w.siblingPath)];
}

/** One node_findLeavesIndexes item: the inserting block and the leaf index (reference aztec-wire 5.4). */
export function encodeLeafInBlock(l: LeafInBlock): LeafInBlockJson {
  return { l2BlockNumber: l.blockNumber, l2BlockHash: toHex64(l.blockHash), data: l.index.toString() };
}

export function encodeWorldStateSyncStatus(s: WorldStateSyncStatus): WorldStateSyncStatusJson {
  return {
    latestBlockNumber: s.latestBlockNumber,
    latestBlockHash: toHex64(s.latestBlockHash),
    finalizedBlockNumber: s.finalizedBlockNumber,
    oldestHistoricBlockNumber: s.oldestHistoricBlockNumber,
    treesAreSynched: s.treesAreSynched,
  };
}
