import { poseidon2HashBytes } from '../crypto/poseidon2.js';
import { newSha256 } from '../crypto/sha256-to-field.js';

/**
 * Roots of the small merkle trees the rollup circuits build over per-checkpoint data (4.1.2
 * @aztec/foundation trees/*): balanced, unbalanced and "wonky" trees over 32-byte nodes, hashed with
 * truncated sha256 (out hashes, in hash) or Poseidon2 (block headers hash).
 */

export type NodeHasher = (left: Buffer, right: Buffer) => Buffer;

const ZERO = Buffer.alloc(32);

/** sha256 of left ‖ right, truncated to 31 bytes behind a zero byte (a field element). */
export const shaMerkleHash: NodeHasher = (left, right) => {
  const digest = newSha256().update(left).update(right).digest();
  const out = Buffer.alloc(32);
  digest.copy(out, 1, 0, 31);
  return out;
};

export const poseidonMerkleHash: NodeHasher = (left, right) => Buffer.from(poseidon2HashBytes([left, right]));

/** Root of a tree whose leaf count is a power of two. */
export function balancedRoot(leaves: readonly Buffer[], hasher: NodeHasher): Buffer {
  const n = leaves.length;
  if (n === 0 || (n & (n - 1)) !== 0) throw new RangeError(`A balanced tree needs 2^k leaves, got ${n}`);
  let level = [...leaves];
  while (level.length > 1) {
    const next: Buffer[] = new Array(level.length / 2);
    for (let i = 0; i < next.length; i++) next[i] = hasher(level[2 * i] as Buffer, level[2 * i + 1] as Buffer);
    level = next;
  }
  return level[0] as Buffer;
}

/**
 * Root of an unbalanced tree: the largest power-of-two subtree on the left, the rest (recursively) on the
 * right, so smaller subtrees are joined first (4.1.2 computeUnbalancedMerkleTreeRoot). No leaves: zero.
 */
export function unbalancedRoot(leaves: readonly Buffer[], hasher: NodeHasher): Buffer {
  if (leaves.length === 0) return ZERO;
  if (leaves.length === 1) return leaves[0] as Buffer;
  let remaining = leaves.length;
  let size = 1;
  let root: Buffer | undefined;
  while (remaining > 1) {
    if ((remaining & size) !== 0) {
      const subtree = balancedRoot(leaves.slice(remaining - size, remaining), hasher);
      root = root ? hasher(subtree, root) : subtree;
      remaining -= size;
    }
    size *= 2;
  }
  return root as Buffer;
}

/**
 * Root of a wonky tree: shaped like the unbalanced tree, but zero leaves are compressed away: a node whose
 * one side holds only zero leaves takes the other side's value, and a tree of zeros has root zero (4.1.2
 * computeWonkyMerkleTreeRoot with UnbalancedMerkleTreeCalculator).
 */
export function wonkyShaRoot(leaves: readonly Buffer[]): Buffer {
  return wonky(leaves, 0, leaves.length) ?? ZERO;
}

function wonky(leaves: readonly Buffer[], from: number, to: number): Buffer | undefined {
  const n = to - from;
  if (n === 0) return undefined;
  if (n === 1) {
    const leaf = leaves[from] as Buffer;
    return leaf.equals(ZERO) ? undefined : leaf;
  }
  const pow = 2 ** Math.floor(Math.log2(n));
  const split = pow === n ? n / 2 : pow;
  const left = wonky(leaves, from, from + split);
  const right = wonky(leaves, from + split, to);
  if (!left) return right;
  if (!right) return left;
  return shaMerkleHash(left, right);
}
