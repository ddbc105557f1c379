import {
  arrayResult,
  booleanResult,
  convertedResult,
  decimalResult,
  fieldValueResult,
  fieldValuesResult,
  type IndexWithPath,
  integerResult,
  nullable,
  objectResult,
  siblingPathResult,
  tupleResult,
} from '../result-codecs.js';
import { defineMethod, type ResultCodec, required } from '../rpc-method.js';
import { field, integer } from '../wire-types.js';
import { block, MAX_BLOCK, SAME } from './shared-params.js';

/** L1-to-L2 and L2-to-L1 messages. */

/** An L1-to-L2 message's leaf index and sibling path: on the wire `[index (decimal), SiblingPath<36>]`. */
export const l1ToL2MessageWitnessResult: ResultCodec<IndexWithPath> = convertedResult(
  tupleResult('[string, SiblingPath]', decimalResult, siblingPathResult),
  (w: IndexWithPath) => [w.index, w.siblingPath] as const,
  ([index, siblingPath]) => ({ index, siblingPath }),
);

/** A public data write: its leaf slot in the public data tree (siloed) and the value. */
const publicDataWriteResult = objectResult('{ leafSlot: hex32, value: hex32 }', {
  leafSlot: fieldValueResult,
  value: fieldValueResult,
});

const message = required('l1ToL2Message', field, 'The message leaf.');

export const MESSAGE_METHODS = {
  node_getL1ToL2MessageMembershipWitness: defineMethod({
    summary: 'Index and sibling path of an L1-to-L2 message at a block, or null.',
    params: [block, message],
    result: nullable(l1ToL2MessageWitnessResult),
    compat: SAME,
  }),
  node_getL1ToL2MessageBlock: defineMethod({
    summary: 'L2 block at which an L1-to-L2 message becomes available, or null.',
    params: [message],
    result: nullable(integerResult),
    compat: { aztec: 'absent', note: '4.1 renamed it getL1ToL2MessageCheckpoint, which returns a checkpoint number' },
  }),
  node_getL1ToL2MessageCheckpoint: defineMethod({
    summary: 'The checkpoint whose message tree holds an L1-to-L2 message (known once sent), or null.',
    params: [message],
    result: nullable(integerResult),
    compat: SAME,
  }),
  node_getL1ToL2Messages: defineMethod({
    summary:
      'The L1-to-L2 messages a checkpoint inserted, in leaf order (zeros between them kept), or null when no block of this chain is in it.',
    params: [required('checkpointNumber', integer(1, MAX_BLOCK), 'The checkpoint number (>= 1).')],
    result: nullable(fieldValuesResult),
    compat: {
      aztec: 'absent',
      note: 'l2node extension for followers (docs/follower.md): a 4.1.2 node reads these from the L1 Inbox',
    },
  }),
  node_getStateOverrides: defineMethod({
    summary:
      'The public data writes a dev chain applied in a block before its txs (nodeDev_setPublicStorage, ' +
      'nodeDev_setFeeJuiceBalance), in order: [] for a block without any, null for a block this node does not have.',
    params: [required('blockNumber', integer(1, MAX_BLOCK), 'The block number (>= 1).')],
    result: nullable(arrayResult(publicDataWriteResult)),
    compat: {
      aztec: 'absent',
      note: "l2node extension for followers (docs/follower.md): the header's roots include these writes, its body does not",
    },
  }),
  node_isL1ToL2MessageSynced: defineMethod({
    summary: 'Whether the node has synced an L1-to-L2 message (deprecated: use node_getL1ToL2MessageBlock).',
    params: [message],
    result: booleanResult,
    compat: SAME,
  }),
  node_getL2ToL1Messages: defineMethod({
    summary: 'L2-to-L1 messages of a block, per transaction, or null.',
    params: [block],
    result: nullable(arrayResult(fieldValuesResult)),
    compat: {
      aztec: 'differs',
      note: '4.x takes an epoch number and returns Fr[][][][]; the spec keeps the per-block form',
    },
  }),
};
