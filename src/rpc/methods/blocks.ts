import { AppendOnlyTreeSnapshot } from '../../core/block/append-only-tree-snapshot.js';
import { BlockHeader } from '../../core/block/block-header.js';
import { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import { CommitteeAttestation } from '../../core/block/committee-attestation.js';
import { L2Block } from '../../core/block/l2-block.js';
import { DecodeError } from '../../core/serialize/decode-error.js';
import {
  arrayResult,
  classResult,
  decimalResult,
  hashStringResult,
  integerResult,
  nullable,
  objectResult,
  orDefault,
  type ValueOf,
} from '../result-codecs.js';
import { defaulted, defineMethod, type ResultCodec, required } from '../rpc-method.js';
import { blockHash, blockParameter, field, integer } from '../wire-types.js';
import { block, MAX_BLOCK, SAME } from './shared-params.js';

/** Block queries: numbers, tips, blocks, headers and published checkpoints. */

const blockId = objectResult('BlockId', { number: integerResult, hash: hashStringResult });
const checkpointedTip = objectResult('CheckpointedTip', { block: blockId, checkpoint: blockId });

/** The chain tips in the v4 shape of spec part 2 (4.1.2 L2Tips). */
export const l2TipsResult = objectResult('L2Tips', {
  proposed: blockId,
  checkpointed: checkpointedTip,
  proven: checkpointedTip,
  finalized: checkpointedTip,
});

export const l2BlockResult = classResult('L2Block', (json, path) => L2Block.fromJSON(json, path));
export const blockHeaderResult = classResult('BlockHeader', (json, path) => BlockHeader.fromJSON(json, path));

/** Where and when a checkpoint was published on L1 (4.1.2 L1PublishedData). */
const l1PublishedResult = objectResult('L1PublishedData', {
  blockNumber: decimalResult,
  timestamp: decimalResult,
  blockHash: hashStringResult,
});
/** The committee's attestations of a checkpoint; a chain without a committee has none (older nodes omit the key). */
const attestationsResult = orDefault(
  arrayResult(classResult('CommitteeAttestation', (json, path) => CommitteeAttestation.fromJSON(json, path))),
  [],
);

/** 4.1.2's fee asset price modifier: a signed integer as a decimal string. */
const signedDecimalResult: ResultCodec<bigint> = {
  type: 'decimal string',
  encode: (v) => v.toString(),
  decode: (json, path = '') => {
    const s = typeof json === 'number' && Number.isSafeInteger(json) ? String(json) : json;
    if (typeof s !== 'string' || !/^-?[0-9]{1,78}$/.test(s)) {
      throw new DecodeError(path, `expected a decimal integer, got ${JSON.stringify(json)?.slice(0, 80)}`);
    }
    return BigInt(s);
  },
};

/** A checkpoint as published: its blocks, header, archive and L1 data (4.1.2 PublishedCheckpoint). */
export const publishedCheckpointResult = objectResult('PublishedCheckpoint', {
  checkpoint: objectResult('Checkpoint', {
    archive: classResult('AppendOnlyTreeSnapshot', (json, path) => AppendOnlyTreeSnapshot.fromJSON(json, path)),
    header: classResult('CheckpointHeader', (json, path) => CheckpointHeader.fromJSON(json, path)),
    blocks: arrayResult(l2BlockResult),
    number: integerResult,
    feeAssetPriceModifier: signedDecimalResult,
  }),
  l1: l1PublishedResult,
  attestations: attestationsResult,
});
export type PublishedCheckpoint = ValueOf<typeof publishedCheckpointResult>;

/** A block of a published checkpoint with the checkpoint's number and L1 data (4.1.2 CheckpointedL2Block). */
export const checkpointedBlockResult = objectResult('CheckpointedL2Block', {
  checkpointNumber: integerResult,
  block: l2BlockResult,
  l1: l1PublishedResult,
  attestations: attestationsResult,
});
export type CheckpointedBlock = ValueOf<typeof checkpointedBlockResult>;

export const BLOCK_METHODS = {
  node_getBlockNumber: defineMethod({
    summary: 'Latest block number the node has (0 at genesis).',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_getProvenBlockNumber: defineMethod({
    summary: 'Latest proven block number.',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_getL2Tips: defineMethod({
    summary: 'The chain tips: proposed, checkpointed, proven, finalized (v4 shape, spec part 2).',
    params: [],
    result: l2TipsResult,
    compat: SAME,
  }),
  node_getBlock: defineMethod({
    summary: 'A block, or null when there is none.',
    params: [block],
    result: nullable(l2BlockResult),
    compat: SAME,
  }),
  node_getBlocks: defineMethod({
    summary: 'Up to `limit` consecutive blocks from `from` (fewer when the chain is shorter).',
    params: [
      required('from', integer(1, MAX_BLOCK), 'First block number (>= 1).'),
      required('limit', integer(1, 100), 'How many blocks (1 to 100).'),
    ],
    result: arrayResult(l2BlockResult),
    compat: SAME,
  }),
  node_getBlockHeader: defineMethod({
    summary: 'A block header, or null when there is none.',
    params: [defaulted('blockNumber', blockParameter, 'latest', 'Block to read; omitted or null means latest.')],
    result: nullable(blockHeaderResult),
    compat: SAME,
  }),

  node_getBlockByHash: defineMethod({
    summary: 'A block by its hash (the genesis hash gives block 0), or null.',
    params: [required('blockHash', blockHash, 'The block hash.')],
    result: nullable(l2BlockResult),
    compat: SAME,
  }),
  node_getBlockByArchive: defineMethod({
    summary: 'The block after which the archive tree has this root, or null.',
    params: [required('archive', field, 'Archive tree root after the block.')],
    result: nullable(l2BlockResult),
    compat: SAME,
  }),
  node_getBlockHeaderByArchive: defineMethod({
    summary: 'The header of the block after which the archive tree has this root, or null.',
    params: [required('archive', field, 'Archive tree root after the block.')],
    result: nullable(blockHeaderResult),
    compat: SAME,
  }),
  node_getCheckpointNumber: defineMethod({
    summary: 'Number of the latest checkpoint published to L1 (0 before the first).',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_getCheckpointedBlockNumber: defineMethod({
    summary: 'Number of the last block of the latest checkpoint published to L1.',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_getCheckpoints: defineMethod({
    summary: 'Up to `limit` published checkpoints from `from`, with their blocks and L1 publication data.',
    params: [
      required('from', integer(1, MAX_BLOCK), 'First checkpoint number (>= 1).'),
      required('limit', integer(1, 50), 'How many checkpoints (1 to 50).'),
    ],
    result: arrayResult(publishedCheckpointResult),
    compat: SAME,
  }),
  node_getCheckpointedBlocks: defineMethod({
    summary: 'Up to `limit` blocks from `from` that are in published checkpoints, with their checkpoint and L1 data.',
    params: [
      required('from', integer(1, MAX_BLOCK), 'First block number (>= 1).'),
      required('limit', integer(1, 50), 'How many blocks (1 to 50).'),
    ],
    result: arrayResult(checkpointedBlockResult),
    compat: SAME,
  }),
};
