import { balancedRoot, shaMerkleHash, unbalancedRoot, wonkyShaRoot } from '../merkle/rollup-merkle-roots.js';
import { bigIntToBuffer32, bytesToBigInt } from '../serialize/field-bytes.js';

/** Leaves of the epoch out-hash tree (4.1.2 OUT_HASH_TREE_LEAF_COUNT = 2^OUT_HASH_TREE_HEIGHT). */
export const OUT_HASH_TREE_LEAF_COUNT = 32;

/**
 * Out hashes: commitments to the L2-to-L1 messages the Outbox on L1 will let be consumed (4.1.2
 * stdlib messaging/out_hash.ts). A tx's messages form an unbalanced sha tree, a block's tx out hashes and a
 * checkpoint's block out hashes form wonky trees (empty ones drop out), and the checkpoints of an epoch so far
 * fill a balanced tree of 32 leaves: that accumulated root is the checkpoint header's epochOutHash.
 */

export function computeTxOutHash(messages: readonly bigint[]): bigint {
  if (messages.length === 0) return 0n;
  return toField(unbalancedRoot(messages.map(bigIntToBuffer32), shaMerkleHash));
}

export function computeBlockOutHash(messagesPerTx: readonly (readonly bigint[])[]): bigint {
  return toField(wonkyShaRoot(messagesPerTx.map((m) => bigIntToBuffer32(computeTxOutHash(m)))));
}

export function computeCheckpointOutHash(messagesPerBlock: readonly (readonly (readonly bigint[])[])[]): bigint {
  return toField(wonkyShaRoot(messagesPerBlock.map((b) => bigIntToBuffer32(computeBlockOutHash(b)))));
}

/** The epoch's accumulated out hash over its checkpoints' out hashes, in order. */
export function accumulateCheckpointOutHashes(checkpointOutHashes: readonly bigint[]): bigint {
  if (checkpointOutHashes.length > OUT_HASH_TREE_LEAF_COUNT) {
    throw new RangeError(
      `An epoch holds at most ${OUT_HASH_TREE_LEAF_COUNT} checkpoints, got ${checkpointOutHashes.length}`,
    );
  }
  const leaves = checkpointOutHashes.map(bigIntToBuffer32);
  while (leaves.length < OUT_HASH_TREE_LEAF_COUNT) leaves.push(Buffer.alloc(32));
  return toField(balancedRoot(leaves, shaMerkleHash));
}

function toField(b: Buffer): bigint {
  return bytesToBigInt(b, 0, 32);
}
