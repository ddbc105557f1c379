import { poseidon2HashBatch } from '../../core/crypto/poseidon2.js';

/**
 * Hashes many independent items per call. The trees hand over a whole level of dirty nodes (or every
 * changed indexed leaf) at once, so the engine's batch entry point (8 hashes per vector pass in the native
 * engine) can work through them without a round trip per hash.
 *
 * Layout: `input` holds k items of `width` 32-byte big-endian field elements back to back; the result holds
 * the k 32-byte hashes. Each item is hashed with the Poseidon2 sponge (no separator), so width 2 is the merkle
 * node hash H(left, right), width 3 a nullifier leaf, width 4 a public data leaf.
 */
export interface BatchHasher {
  hashBatch(input: Uint8Array, width: number): Uint8Array;
}

/** Hashes on the calling thread through the project's Poseidon2 module. */
export class InThreadBatchHasher implements BatchHasher {
  hashBatch(input: Uint8Array, width: number): Uint8Array {
    return poseidon2HashBatch(input, width);
  }
}
