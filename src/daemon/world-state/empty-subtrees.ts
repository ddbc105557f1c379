import { poseidon2HashBytes } from '../../core/crypto/poseidon2.js';

/** The tallest tree (nullifiers and note hashes, height 42). */
export const MAX_TREE_HEIGHT = 42;

/**
 * Roots of empty subtrees: Z(0) = 0 (an empty leaf), Z(l) = H(Z(l-1), Z(l-1)). Any node whose leaves all lie
 * beyond a tree's size has hash Z(level), so it is never stored or read (docs/aztec-facts.md section 3.2).
 */
const EMPTY: readonly Buffer[] = (() => {
  const out: Buffer[] = [Buffer.alloc(32)];
  for (let l = 1; l <= MAX_TREE_HEIGHT; l++) {
    const below = out[l - 1] as Buffer;
    out.push(Buffer.from(poseidon2HashBytes([below, below])));
  }
  return out;
})();

export function emptySubtreeRoot(level: number): Buffer {
  const z = EMPTY[level];
  if (z === undefined) throw new RangeError(`No empty subtree of height ${level} (max ${MAX_TREE_HEIGHT})`);
  return z;
}
