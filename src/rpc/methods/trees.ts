import {
  arrayResult,
  booleanResult,
  convertedResult,
  decimalResult,
  fieldResult,
  fieldValueResult,
  fieldValuesResult,
  type IndexWithPath,
  integerResult,
  membershipWitnessResult,
  nullable,
  objectResult,
  type SiblingNodes,
  siblingPathResult,
  type ValueOf,
} from '../result-codecs.js';
import { defineMethod, type ResultCodec, required } from '../rpc-method.js';
import { arrayOf, aztecAddress, blockHash, blockParameter, field, integer, unsignedBigInt } from '../wire-types.js';
import { block, SAME } from './shared-params.js';

/** State and merkle tree queries: storage, sync status, leaf indexes, sibling paths and witnesses. */

const leafIndex = required('leafIndex', unsignedBigInt, 'Index of the leaf (bigint as decimal string).');

/** node_getWorldStateSyncStatus (4.1.2 WorldStateSyncStatus). */
export const worldStateSyncStatusResult = objectResult('WorldStateSyncStatus', {
  latestBlockNumber: integerResult,
  latestBlockHash: fieldValueResult,
  finalizedBlockNumber: integerResult,
  oldestHistoricBlockNumber: integerResult,
  treesAreSynched: booleanResult,
});

/** Where a leaf is and the block that inserted it; on the wire 4.1.2's DataInBlock `{l2BlockNumber, l2BlockHash, data}`. */
export interface LeafInBlock {
  readonly index: bigint;
  readonly blockNumber: number;
  readonly blockHash: bigint;
}

export const leafInBlockResult: ResultCodec<LeafInBlock> = convertedResult(
  objectResult('DataInBlock', { l2BlockNumber: integerResult, l2BlockHash: fieldValueResult, data: decimalResult }),
  (l: LeafInBlock) => ({ l2BlockNumber: l.blockNumber, l2BlockHash: l.blockHash, data: l.index }),
  (w) => ({ index: w.data, blockNumber: w.l2BlockNumber, blockHash: w.l2BlockHash }),
);

/** A leaf of an indexed tree: a node of its sorted linked list (a nullifier leaf's value is 0). */
export interface IndexedLeafPreimage {
  readonly key: bigint;
  readonly value: bigint;
  readonly nextKey: bigint;
  readonly nextIndex: bigint;
}

/** An indexed leaf with its index and sibling path (nullifier and public data witnesses). */
export interface IndexedLeafWitness extends IndexWithPath {
  readonly leafPreimage: IndexedLeafPreimage;
}

const nullifierPreimageResult = convertedResult(
  objectResult('NullifierLeafPreimage', {
    leaf: objectResult('NullifierLeaf', { nullifier: fieldValueResult }),
    nextKey: fieldValueResult,
    nextIndex: decimalResult,
  }),
  (p: IndexedLeafPreimage) => ({ leaf: { nullifier: p.key }, nextKey: p.nextKey, nextIndex: p.nextIndex }),
  (w): IndexedLeafPreimage => ({ key: w.leaf.nullifier, value: 0n, nextKey: w.nextKey, nextIndex: w.nextIndex }),
);

const publicDataPreimageResult = convertedResult(
  objectResult('PublicDataTreeLeafPreimage', {
    leaf: objectResult('PublicDataTreeLeaf', { slot: fieldValueResult, value: fieldValueResult }),
    nextKey: fieldValueResult,
    nextIndex: decimalResult,
  }),
  (p: IndexedLeafPreimage) => ({ leaf: { slot: p.key, value: p.value }, nextKey: p.nextKey, nextIndex: p.nextIndex }),
  (w): IndexedLeafPreimage => ({ key: w.leaf.slot, value: w.leaf.value, nextKey: w.nextKey, nextIndex: w.nextIndex }),
);

function indexedLeafWitnessResult(type: string, preimage: ResultCodec<IndexedLeafPreimage>) {
  return objectResult(type, { index: decimalResult, leafPreimage: preimage, siblingPath: siblingPathResult });
}

export const nullifierWitnessResult: ResultCodec<IndexedLeafWitness> = indexedLeafWitnessResult(
  'NullifierMembershipWitness',
  nullifierPreimageResult,
);
export const publicDataWitnessResult: ResultCodec<IndexedLeafWitness> = indexedLeafWitnessResult(
  'PublicDataWitness',
  publicDataPreimageResult,
);
export type WorldStateSyncStatus = ValueOf<typeof worldStateSyncStatusResult>;
export type { IndexWithPath, SiblingNodes };

const siblingPath = (tree: string) =>
  defineMethod({
    summary: `Sibling path of a leaf of the ${tree} tree at a block.`,
    params: [block, leafIndex],
    result: fieldValuesResult,
    compat: { aztec: 'absent', note: 'removed in 4.1; present in 2.x, 3.x and 4.0 with a base64 SiblingPath result' },
  });

export const TREE_METHODS = {
  node_getPublicStorageAt: defineMethod({
    summary: 'Value of a public storage slot of a contract at a block (0 when unset).',
    params: [block, required('contract', aztecAddress, 'Contract address.'), required('slot', field, 'Storage slot.')],
    result: fieldResult,
    compat: SAME,
  }),
  node_getWorldStateSyncStatus: defineMethod({
    summary: 'Sync status of the world state.',
    params: [],
    result: worldStateSyncStatusResult,
    compat: SAME,
  }),

  node_findLeavesIndexes: defineMethod({
    summary: 'Index of each leaf value in a tree at a block, with the block that inserted it (null when absent).',
    params: [
      block,
      required(
        'treeId',
        integer(0, 6),
        "Tree id (0 nullifier, 1 note hash, 2 public data, 3 L1-to-L2, 4 archive; 5, the spec's BLOCKS_TREE, is the archive too).",
      ),
      required('leafValues', arrayOf(field, 1000), 'Leaf values (at most 1000).'),
    ],
    result: arrayResult(nullable(leafInBlockResult)),
    compat: SAME,
  }),
  node_getNullifierSiblingPath: siblingPath('nullifier'),
  node_getNoteHashSiblingPath: siblingPath('note hash'),
  node_getArchiveSiblingPath: siblingPath('archive'),
  node_getPublicDataSiblingPath: siblingPath('public data'),

  node_getNullifierMembershipWitness: defineMethod({
    summary: 'Membership witness of a nullifier at a block, or null.',
    params: [block, required('nullifier', field, 'The nullifier.')],
    result: nullable(nullifierWitnessResult),
    compat: SAME,
  }),
  node_getLowNullifierMembershipWitness: defineMethod({
    summary: 'Witness of the low leaf of a nullifier (for non-inclusion proofs), or null.',
    params: [block, required('nullifier', field, 'The nullifier.')],
    result: nullable(nullifierWitnessResult),
    compat: SAME,
  }),
  node_getPublicDataWitness: defineMethod({
    summary: 'Witness of the public data leaf of a (siloed) slot, or null.',
    params: [block, required('leafSlot', field, 'The public data tree leaf slot.')],
    result: nullable(publicDataWitnessResult),
    compat: SAME,
  }),
  node_getBlockHashMembershipWitness: defineMethod({
    summary: 'Witness that a block hash is in the archive tree as of a block, or null.',
    params: [
      required('block', blockParameter, 'Block at which the archive tree is queried.'),
      required('blockHash', blockHash, 'The block hash to prove.'),
    ],
    result: nullable(membershipWitnessResult),
    compat: SAME,
  }),
  node_getNoteHashMembershipWitness: defineMethod({
    summary: 'Membership witness of a note hash at a block, or null.',
    params: [block, required('noteHash', field, 'The note hash.')],
    result: nullable(membershipWitnessResult),
    compat: SAME,
  }),
};
