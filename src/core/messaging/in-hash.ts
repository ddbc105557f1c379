import { NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP } from '../constants.js';
import { balancedRoot, shaMerkleHash } from '../merkle/rollup-merkle-roots.js';
import { bigIntToBuffer32, bytesToBigInt } from '../serialize/field-bytes.js';

/**
 * A checkpoint's inHash: the balanced sha tree root of its L1-to-L2 messages padded with zeros to 1024
 * (4.1.2 computeInHashFromL1ToL2Messages); the rollup contract checks it against the Inbox.
 */
export function computeInHash(messages: readonly bigint[]): bigint {
  if (messages.length > NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP) {
    throw new RangeError(
      `A checkpoint brings at most ${NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP} L1-to-L2 messages, got ${messages.length}`,
    );
  }
  const leaves = messages.map(bigIntToBuffer32);
  while (leaves.length < NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP) leaves.push(Buffer.alloc(32));
  return bytesToBigInt(balancedRoot(leaves, shaMerkleHash), 0, 32);
}
