import { poseidon2HashBytes } from '../../core/crypto/poseidon2.js';

/**
 * Hashes many independent items per call. The trees hand over a whole level of dirty nodes (or every
 * changed indexed leaf) at once, so an engine with a batch entry point or a pool of worker threads can
 * work through them without a round trip per hash.
 *
 * Layout: `input` holds `count` items of `width` 32-byte big-endian field elements back to back; the
 * result holds `count` 32-byte hashes. Each item is hashed with the Poseidon2 sponge (no separator), so
 * width 2 is the merkle node hash H(left, right).
 */
export interface BatchHasher {
  hashBatch(input: Uint8Array, count: number, width: number): Uint8Array;
}

/** Hashes on the calling thread through the project's Poseidon2 module. */
export class InThreadBatchHasher implements BatchHasher {
  hashBatch(input: Uint8Array, count: number, width: number): Uint8Array {
    return hashBatchInThread(input, count, width);
  }
}

export function hashBatchInThread(input: Uint8Array, count: number, width: number): Uint8Array {
  const out = new Uint8Array(count * 32);
  const itemBytes = width * 32;
  const fields = new Array<Uint8Array>(width);
  for (let i = 0; i < count; i++) {
    const base = i * itemBytes;
    for (let j = 0; j < width; j++) fields[j] = input.subarray(base + j * 32, base + j * 32 + 32);
    out.set(poseidon2HashBytes(fields), i * 32);
  }
  return out;
}
