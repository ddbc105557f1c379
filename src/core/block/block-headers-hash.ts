import { poseidonMerkleHash, unbalancedRoot } from '../merkle/rollup-merkle-roots.js';
import { bigIntToBuffer32, bytesToBigInt } from '../serialize/field-bytes.js';
import type { BlockHeader } from './block-header.js';

/**
 * A checkpoint header's blockHeadersHash: the unbalanced Poseidon2 tree root of its blocks' header hashes,
 * in block order (4.1.2 rollup/block_headers_hash.ts).
 */
export function computeBlockHeadersHash(headers: readonly BlockHeader[]): bigint {
  return bytesToBigInt(
    unbalancedRoot(
      headers.map((h) => bigIntToBuffer32(h.hash().value)),
      poseidonMerkleHash,
    ),
    0,
    32,
  );
}
