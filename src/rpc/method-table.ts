import { BlockHeader } from '../core/block/block-header.js';
import { L2Block } from '../core/block/l2-block.js';
import { GasFees } from '../core/gas/gas-fees.js';
import {
  booleanResult,
  classResult,
  fieldResult,
  integerResult,
  nullable,
  stringArrayResult,
  stringResult,
  voidResult,
  wireJsonResult,
} from './result-codecs.js';
import { type AztecCompat, defaulted, defineMethod, nameMethods, optional, required } from './rpc-method.js';
import {
  arrayOf,
  aztecAddress,
  blockHash,
  blockParameter,
  boolean,
  booleanOrNull,
  ethAddress,
  field,
  integer,
  jsonObject,
  nonEmptyString,
  objectOf,
  slashRound,
  string,
  txHash,
  unsignedBigInt,
} from './wire-types.js';

/**
 * THE method table: every method of spec part 4, declared once (DESIGN section 4). The server, the
 * client, `l2node rpc`, docs/rpc.md and the conformance tests read it. Handlers are not here: the daemon
 * binds them by name (src/daemon/rpc-handlers.ts); a method without a handler answers -32601
 * "<method> is not available yet". Limits are the spec's (part 8), where they differ from 4.1.2's.
 */

const MAX_BLOCK = 2 ** 32 - 1;
const SAME: AztecCompat = { aztec: 'same' };

const block = required('blockNumber', blockParameter, 'Block to read: a number, "latest" or a block hash.');
const tx = required('tx', jsonObject('Tx'), 'The transaction (reference aztec-wire 6.5).');
const hashOfTx = required('txHash', txHash, 'Hash of the transaction.');
const leafIndex = required('leafIndex', unsignedBigInt, 'Index of the leaf (bigint as decimal string).');

const logId = objectOf(
  'LogId',
  {
    blockNumber: integer(0, MAX_BLOCK),
    blockHash,
    txHash,
    txIndex: integer(0, MAX_BLOCK),
    logIndex: integer(0, MAX_BLOCK),
  },
  {},
);
const logFilter = objectOf(
  'LogFilter',
  {},
  {
    txHash,
    fromBlock: integer(0, MAX_BLOCK),
    toBlock: integer(0, MAX_BLOCK),
    afterLog: logId,
    contractAddress: aztecAddress,
    tag: field,
  },
);
const validationOptions = objectOf(
  'TxValidationOptions',
  {},
  { isSimulation: booleanOrNull, skipFeeEnforcement: booleanOrNull },
);
const siblingPath = (tree: string) =>
  defineMethod({
    summary: `Sibling path of a leaf of the ${tree} tree at a block.`,
    params: [block, leafIndex],
    result: stringArrayResult,
    compat: { aztec: 'absent', note: 'removed in 4.1; present in 2.x, 3.x and 4.0 with a base64 SiblingPath result' },
  });

export const RPC_METHODS = nameMethods({
  // Block queries
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
    result: wireJsonResult('L2Tips'),
    compat: SAME,
  }),
  node_getBlock: defineMethod({
    summary: 'A block, or null when there is none.',
    params: [block],
    result: nullable(wireJsonResult('L2Block')),
    compat: SAME,
  }),
  node_getBlocks: defineMethod({
    summary: 'Up to `limit` consecutive blocks from `from` (fewer when the chain is shorter).',
    params: [
      required('from', integer(1, MAX_BLOCK), 'First block number (>= 1).'),
      required('limit', integer(1, 100), 'How many blocks (1 to 100).'),
    ],
    result: wireJsonResult('L2Block[]'),
    compat: SAME,
  }),
  node_getBlockHeader: defineMethod({
    summary: 'A block header, or null when there is none.',
    params: [defaulted('blockNumber', blockParameter, 'latest', 'Block to read; omitted or null means latest.')],
    result: nullable(classResult('BlockHeader', (json) => BlockHeader.fromJSON(json))),
    compat: SAME,
  }),

  node_getBlockByHash: defineMethod({
    summary: 'A block by its hash (the genesis hash gives block 0), or null.',
    params: [required('blockHash', blockHash, 'The block hash.')],
    result: nullable(classResult('L2Block', (json) => L2Block.fromJSON(json))),
    compat: SAME,
  }),
  node_getBlockByArchive: defineMethod({
    summary: 'The block after which the archive tree has this root, or null.',
    params: [required('archive', field, 'Archive tree root after the block.')],
    result: nullable(classResult('L2Block', (json) => L2Block.fromJSON(json))),
    compat: SAME,
  }),
  node_getBlockHeaderByArchive: defineMethod({
    summary: 'The header of the block after which the archive tree has this root, or null.',
    params: [required('archive', field, 'Archive tree root after the block.')],
    result: nullable(classResult('BlockHeader', (json) => BlockHeader.fromJSON(json))),
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
    result: wireJsonResult('PublishedCheckpoint[]'),
    compat: SAME,
  }),
  node_getCheckpointedBlocks: defineMethod({
    summary: 'Up to `limit` blocks from `from` that are in published checkpoints, with their checkpoint and L1 data.',
    params: [
      required('from', integer(1, MAX_BLOCK), 'First block number (>= 1).'),
      required('limit', integer(1, 50), 'How many blocks (1 to 50).'),
    ],
    result: wireJsonResult('CheckpointedL2Block[]'),
    compat: SAME,
  }),

  // Transaction operations
  node_sendTx: defineMethod({
    summary: 'Submits a transaction to the mempool; a rejection comes back as TX_REJECTED or TX_INVALID.',
    params: [tx],
    result: voidResult,
    compat: SAME,
  }),
  node_getTxReceipt: defineMethod({
    summary: 'Receipt of a transaction: mined, pending or dropped.',
    params: [hashOfTx],
    result: wireJsonResult('TxReceipt'),
    compat: SAME,
  }),
  node_getTxEffect: defineMethod({
    summary: 'Effects of a mined transaction with its block, or null.',
    params: [hashOfTx],
    result: nullable(wireJsonResult('IndexedTxEffect')),
    compat: SAME,
  }),
  node_getTxByHash: defineMethod({
    summary: 'A pending transaction, or null.',
    params: [hashOfTx],
    result: nullable(wireJsonResult('Tx')),
    compat: SAME,
  }),
  node_getTxsByHash: defineMethod({
    summary: 'The pool transactions among the given hashes, in the order asked; unknown ones are left out.',
    params: [required('txHashes', arrayOf(txHash, 50), 'Hashes of the transactions (at most 50, as 4.1.2).')],
    result: wireJsonResult('Tx[]'),
    compat: SAME,
  }),
  node_getPendingTxs: defineMethod({
    summary: 'Pending transactions, highest priority fee first, paged with `after`.',
    params: [
      defaulted('limit', integer(1, 100), 100, 'How many (1 to 100, default 100).'),
      optional('after', txHash, 'Return the transactions after this one.'),
    ],
    result: wireJsonResult('Tx[]'),
    compat: SAME,
  }),
  node_getPendingTxCount: defineMethod({
    summary: 'Number of pending transactions.',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_isValidTx: defineMethod({
    summary: 'Validates a transaction against the latest state without submitting it.',
    params: [
      tx,
      optional('options', validationOptions, 'isSimulation skips proof checks; skipFeeEnforcement skips fees.'),
    ],
    result: wireJsonResult('TxValidationResult'),
    compat: SAME,
  }),
  node_simulatePublicCalls: defineMethod({
    summary: 'Simulates the public calls of a transaction on the latest state.',
    params: [tx, optional('skipFeeEnforcement', boolean, 'Do not check fees.')],
    result: wireJsonResult('PublicSimulationOutput'),
    compat: SAME,
  }),

  // State queries
  node_getPublicStorageAt: defineMethod({
    summary: 'Value of a public storage slot of a contract at a block (0 when unset).',
    params: [block, required('contract', aztecAddress, 'Contract address.'), required('slot', field, 'Storage slot.')],
    result: fieldResult,
    compat: SAME,
  }),
  node_getWorldStateSyncStatus: defineMethod({
    summary: 'Sync status of the world state.',
    params: [],
    result: wireJsonResult('WorldStateSyncStatus'),
    compat: SAME,
  }),

  // Merkle tree queries
  node_findLeavesIndexes: defineMethod({
    summary: 'Index of each leaf value in a tree at a block, with the block that inserted it (null when absent).',
    params: [
      block,
      required('treeId', integer(0, 6), 'Tree id (0 nullifier, 1 note hash, 2 public data, 3 L1-to-L2, 4 archive).'),
      required('leafValues', arrayOf(field, 1000), 'Leaf values (at most 1000).'),
    ],
    result: wireJsonResult('(DataInBlock | null)[]'),
    compat: SAME,
  }),
  node_getNullifierSiblingPath: siblingPath('nullifier'),
  node_getNoteHashSiblingPath: siblingPath('note hash'),
  node_getArchiveSiblingPath: siblingPath('archive'),
  node_getPublicDataSiblingPath: siblingPath('public data'),

  // Membership witnesses
  node_getNullifierMembershipWitness: defineMethod({
    summary: 'Membership witness of a nullifier at a block, or null.',
    params: [block, required('nullifier', field, 'The nullifier.')],
    result: nullable(wireJsonResult('NullifierMembershipWitness')),
    compat: SAME,
  }),
  node_getLowNullifierMembershipWitness: defineMethod({
    summary: 'Witness of the low leaf of a nullifier (for non-inclusion proofs), or null.',
    params: [block, required('nullifier', field, 'The nullifier.')],
    result: nullable(wireJsonResult('NullifierMembershipWitness')),
    compat: SAME,
  }),
  node_getPublicDataWitness: defineMethod({
    summary: 'Witness of the public data leaf of a (siloed) slot, or null.',
    params: [block, required('leafSlot', field, 'The public data tree leaf slot.')],
    result: nullable(wireJsonResult('PublicDataWitness')),
    compat: SAME,
  }),
  node_getBlockHashMembershipWitness: defineMethod({
    summary: 'Witness that a block hash is in the archive tree as of a block, or null.',
    params: [
      required('block', blockParameter, 'Block at which the archive tree is queried.'),
      required('blockHash', blockHash, 'The block hash to prove.'),
    ],
    result: nullable(wireJsonResult('MembershipWitness')),
    compat: SAME,
  }),
  node_getNoteHashMembershipWitness: defineMethod({
    summary: 'Membership witness of a note hash at a block, or null.',
    params: [block, required('noteHash', field, 'The note hash.')],
    result: nullable(wireJsonResult('MembershipWitness')),
    compat: SAME,
  }),

  // L1 to L2 and L2 to L1 messages
  node_getL1ToL2MessageMembershipWitness: defineMethod({
    summary: 'Index and sibling path of an L1-to-L2 message at a block, or null.',
    params: [block, required('l1ToL2Message', field, 'The message leaf.')],
    result: nullable(wireJsonResult('[string, SiblingPath]')),
    compat: SAME,
  }),
  node_getL1ToL2MessageBlock: defineMethod({
    summary: 'L2 block at which an L1-to-L2 message becomes available, or null.',
    params: [required('l1ToL2Message', field, 'The message leaf.')],
    result: nullable(integerResult),
    compat: { aztec: 'absent', note: '4.1 renamed it getL1ToL2MessageCheckpoint, which returns a checkpoint number' },
  }),
  node_getL1ToL2MessageCheckpoint: defineMethod({
    summary: 'The checkpoint whose message tree holds an L1-to-L2 message (known once sent), or null.',
    params: [required('l1ToL2Message', field, 'The message leaf.')],
    result: nullable(integerResult),
    compat: SAME,
  }),
  node_getL1ToL2Messages: defineMethod({
    summary:
      'The L1-to-L2 messages a checkpoint inserted, in leaf order (zeros between them kept), or null when no block of this chain is in it.',
    params: [required('checkpointNumber', integer(1, MAX_BLOCK), 'The checkpoint number (>= 1).')],
    result: nullable(stringArrayResult),
    compat: {
      aztec: 'absent',
      note: 'l2node extension for followers (docs/follower.md): a 4.1.2 node reads these from the L1 Inbox',
    },
  }),
  node_isL1ToL2MessageSynced: defineMethod({
    summary: 'Whether the node has synced an L1-to-L2 message (deprecated: use node_getL1ToL2MessageBlock).',
    params: [required('l1ToL2Message', field, 'The message leaf.')],
    result: booleanResult,
    compat: SAME,
  }),
  node_getL2ToL1Messages: defineMethod({
    summary: 'L2-to-L1 messages of a block, per transaction, or null.',
    params: [block],
    result: nullable(wireJsonResult('string[][]')),
    compat: {
      aztec: 'differs',
      note: '4.x takes an epoch number and returns Fr[][][][]; the spec keeps the per-block form',
    },
  }),

  // Log queries
  node_getPrivateLogs: defineMethod({
    summary: 'Private logs of `limit` blocks from `from`.',
    params: [
      required('from', integer(1, MAX_BLOCK), 'First block number (>= 1).'),
      required('limit', integer(1, 1000), 'Number of blocks (1 to 1000).'),
    ],
    result: wireJsonResult('PrivateLog[]'),
    compat: { aztec: 'absent', note: 'removed in 4.0 (2.x and 3.x only)' },
  }),
  node_getPublicLogs: defineMethod({
    summary: 'Public logs matching a filter, paged (maxLogsHit says there are more).',
    params: [required('filter', logFilter, 'LogFilter: txHash, fromBlock, toBlock, afterLog, contractAddress, tag.')],
    result: wireJsonResult('GetPublicLogsResponse'),
    compat: SAME,
  }),
  node_getContractClassLogs: defineMethod({
    summary: 'Contract class logs matching a filter, paged.',
    params: [required('filter', logFilter, 'LogFilter (tag is ignored).')],
    result: wireJsonResult('GetContractClassLogsResponse'),
    compat: SAME,
  }),
  node_getLogsByTags: defineMethod({
    summary: 'Logs carrying each tag: one array per tag, in order.',
    params: [
      required('tags', arrayOf(field, 1000), 'Tags (at most 1000).'),
      defaulted('logsPerTag', integer(1, 10), 10, 'Logs per tag (1 to 10, default 10).'),
    ],
    result: wireJsonResult('TxScopedL2Log[][]'),
    compat: {
      aztec: 'absent',
      note: 'removed in 4.0; replaced by getPrivateLogsByTags and getPublicLogsByTagsFromContract',
    },
  }),

  node_getPrivateLogsByTags: defineMethod({
    summary: 'Private logs carrying each (siloed) tag, 10 per tag and page, in chain order.',
    params: [
      required('tags', arrayOf(field, 100), 'Siloed tags (at most 100).'),
      optional('page', integer(0, MAX_BLOCK), 'Page number from 0 (10 logs per tag per page).'),
      optional('referenceBlock', blockHash, 'Fails when this block is not on the chain (a reorg happened).'),
    ],
    result: wireJsonResult('TxScopedL2Log[][]'),
    compat: SAME,
  }),
  node_getPublicLogsByTagsFromContract: defineMethod({
    summary: 'Public logs of a contract carrying each tag, 10 per tag and page, in chain order.',
    params: [
      required('contractAddress', aztecAddress, 'The emitting contract.'),
      required('tags', arrayOf(field, 100), 'Tags (at most 100).'),
      optional('page', integer(0, MAX_BLOCK), 'Page number from 0 (10 logs per tag per page).'),
      optional('referenceBlock', blockHash, 'Fails when this block is not on the chain (a reorg happened).'),
    ],
    result: wireJsonResult('TxScopedL2Log[][]'),
    compat: SAME,
  }),

  // Contract queries
  node_getContractClass: defineMethod({
    summary: 'A contract class by id, or null.',
    params: [required('id', field, 'Contract class id.')],
    result: nullable(wireJsonResult('ContractClassPublic')),
    compat: SAME,
  }),
  node_getContract: defineMethod({
    summary: 'A contract instance by address, or null.',
    params: [required('address', aztecAddress, 'Contract address.')],
    result: nullable(wireJsonResult('ContractInstanceWithAddress')),
    compat: SAME,
  }),

  // Node information
  node_isReady: defineMethod({
    summary: 'Whether the node accepts transactions.',
    params: [],
    result: booleanResult,
    compat: SAME,
  }),
  node_getNodeInfo: defineMethod({
    summary: 'Node version, protocol version, chain id, contract addresses and more.',
    params: [],
    result: wireJsonResult('NodeInfo'),
    compat: SAME,
  }),
  node_getNodeVersion: defineMethod({
    summary: 'Package version of the node software.',
    params: [],
    result: stringResult,
    compat: SAME,
  }),
  node_getVersion: defineMethod({
    summary: 'Rollup protocol version.',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_getChainId: defineMethod({
    summary: 'L1 chain id.',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_getL1ContractAddresses: defineMethod({
    summary: 'Addresses of the rollup contracts on L1.',
    params: [],
    result: wireJsonResult('L1ContractAddresses'),
    compat: SAME,
  }),
  node_getProtocolContractAddresses: defineMethod({
    summary: 'Addresses of the protocol contracts.',
    params: [],
    result: wireJsonResult('ProtocolContractAddresses'),
    compat: SAME,
  }),
  node_getEncodedEnr: defineMethod({
    summary: "The node's ENR for P2P discovery, or null.",
    params: [],
    result: nullable(stringResult),
    compat: SAME,
  }),
  node_getCurrentMinFees: defineMethod({
    summary: 'Minimum fees per gas the next block charges.',
    params: [],
    result: classResult('GasFees', (json) => GasFees.fromJSON(json)),
    compat: SAME,
  }),

  node_getMaxPriorityFees: defineMethod({
    summary: 'The max priority fees per gas of the highest-priority pending transaction, or zero when none is pending.',
    params: [],
    result: classResult('GasFees', (json) => GasFees.fromJSON(json)),
    compat: SAME,
  }),

  // Validator queries
  node_getValidatorsStats: defineMethod({
    summary: 'Statistics of every validator seen.',
    params: [],
    result: wireJsonResult('ValidatorsStats'),
    compat: SAME,
  }),
  node_getValidatorStats: defineMethod({
    summary: 'Statistics of one validator over a slot range, or null.',
    params: [
      required('validatorAddress', ethAddress, 'Validator (attester) address.'),
      optional('fromSlot', unsignedBigInt, 'First slot (bigint as decimal string).'),
      optional('toSlot', unsignedBigInt, 'Last slot (bigint as decimal string).'),
    ],
    result: nullable(wireJsonResult('SingleValidatorStats')),
    compat: SAME,
  }),

  // Debug operations
  node_registerContractFunctionSignatures: defineMethod({
    summary: 'Registers function signatures so the node can name selectors in its logs.',
    params: [required('functionSignatures', arrayOf(string(10_000), 100), 'Signatures (at most 100).')],
    result: voidResult,
    compat: SAME,
  }),
  node_getAllowedPublicSetup: defineMethod({
    summary: 'Public function calls allowed in the setup phase.',
    params: [],
    result: wireJsonResult('AllowedElement[]'),
    compat: SAME,
  }),

  // Admin operations (admin listener)
  nodeAdmin_getConfig: defineMethod({
    summary: 'The runtime-settable configuration.',
    params: [],
    result: wireJsonResult('NodeAdminConfig'),
    compat: {
      aztec: 'differs',
      note:
        'only the keys this node has, with 4.1.2 types; 4.1.2 also returns prover, HA-signer and validator keys its ' +
        'client requires (docs/compatibility.md)',
    },
  }),
  nodeAdmin_setConfig: defineMethod({
    summary: 'Changes runtime-settable configuration keys.',
    params: [required('config', jsonObject('NodeAdminConfig'), 'A partial NodeAdminConfig.')],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_pauseSync: defineMethod({
    summary: 'Pauses block sync and world state updates.',
    params: [],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_resumeSync: defineMethod({
    summary: 'Resumes block sync and world state updates.',
    params: [],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_rollbackTo: defineMethod({
    summary: 'Rolls the chain back to a block; below finalized only with force.',
    params: [
      required('targetBlockNumber', integer(0, MAX_BLOCK), 'Block to roll back to.'),
      optional('force', boolean, 'Clear world state and pool data if needed.'),
    ],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_startSnapshotUpload: defineMethod({
    summary: 'Starts uploading a snapshot of the database to a location.',
    params: [required('location', nonEmptyString, 'Upload location URL.')],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_getSlashPayloads: defineMethod({
    summary: 'Slash payloads monitored in the current round.',
    params: [],
    result: wireJsonResult('SlashPayloadRound[]'),
    compat: SAME,
  }),
  nodeAdmin_getSlashOffenses: defineMethod({
    summary: 'Offenses of a round, of the current round, or all pending.',
    params: [required('round', slashRound, 'A round number (decimal string), "all" or "current".')],
    result: wireJsonResult('Offense[]'),
    compat: {
      aztec: 'differs',
      note: '4.1.2 cannot take a numeric round over JSON (its schema needs a bigint); we accept a decimal string',
    },
  }),
  nodeAdmin_reloadKeystore: defineMethod({
    summary: 'Reloads validator keys from the keystore without a restart; rejected when validation fails.',
    params: [],
    result: voidResult,
    compat: SAME,
  }),

  // Dev mode (admin listener, nodeDev_ namespace)
  nodeDev_sendL1ToL2Message: defineMethod({
    summary:
      'Dev mode: sends an L1-to-L2 message as the L1 Inbox would; it enters the message tree with the next checkpoint.',
    params: [required('message', field, 'The message leaf (a non-zero field element).')],
    result: wireJsonResult('{ index: string, checkpoint: number }'),
    compat: { aztec: 'absent', note: 'dev mode only: stands in for the L1 Inbox contract' },
  }),
});

export type RpcMethods = typeof RPC_METHODS;
export type RpcMethodName = keyof RpcMethods;
export type PublicMethodName = {
  [K in RpcMethodName]: RpcMethods[K]['listener'] extends 'public' ? K : never;
}[RpcMethodName];
export type AdminMethodName = Exclude<RpcMethodName, PublicMethodName>;
