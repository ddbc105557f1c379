import { poseidon2Hash } from '../../core/crypto/poseidon2.js';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { IndexedLeafPreimage } from '../../rpc/methods/trees.js';
import { emptySubtreeRoot } from '../world-state/empty-subtrees.js';
import { MerkleTreeId, treeInfo } from '../world-state/merkle-tree-id.js';

/** What a lazy fork reads of one upstream block to find its trees' last leaves (from node_getBlocks). */
export interface UpstreamBlockEffects {
  readonly number: number;
  /** The block's hash (its archive leaf). */
  readonly hash: bigint;
  /** The public data tree's size after the block (its header's state). */
  readonly publicDataSize: number;
  readonly txs: readonly {
    readonly noteHashes: readonly bigint[];
    readonly nullifiers: readonly bigint[];
    readonly publicDataSlots: readonly bigint[];
  }[];
}

/** A leaf with the path that proves it. */
export interface LeafWithPath {
  readonly index: bigint;
  /** The leaf's hash: an append-only tree's value, an indexed tree's leaf hash (indexedLeafHash). */
  readonly leafHash: bigint;
  readonly siblingPath: readonly bigint[];
}

/**
 * The siblings of leaf `target` of a tree whose last non-zero leaf is `last` (every leaf after it is zero:
 * per-tx padding up to the tree's size, then the empty part). Each sibling is a node of `last`'s path (its
 * own node or its sibling), or lies wholly after `last` and so is an empty subtree: 4.1.2's witness of a tree's
 * last leaf gives the frontier every append needs, which it serves by no other method.
 */
export function pathPastLastLeaf(last: LeafWithPath, target: bigint): bigint[] {
  if (target < last.index) throw new RangeError(`leaf ${target} is before the last leaf ${last.index}`);
  const path: bigint[] = [];
  let own = last.leafHash;
  for (let level = 0; level < last.siblingPath.length; level++) {
    const mine = last.index >> BigInt(level);
    const theirs = target >> BigInt(level);
    const sibling = last.siblingPath[level] as bigint;
    if (mine === theirs) path.push(sibling);
    else if ((theirs ^ 1n) === mine) path.push(own);
    else path.push(readField32(emptySubtreeRoot(level)));
    own = mine % 2n === 0n ? poseidon2Hash([own, sibling]) : poseidon2Hash([sibling, own]);
  }
  return path;
}

/**
 * The path of leaf `index` in the archive after block `n` (leaf n its hash `leafN`), from its path in the archive
 * before it (node_getBlockHashMembershipWitness proves a block hash against the archive before the block it is
 * asked at) and leaf n's path: the one sibling that holds leaf n gains it, the others are the same.
 */
export function archivePathAfter(
  index: bigint,
  before: readonly bigint[],
  n: bigint,
  leafN: bigint,
  pathOfN: readonly bigint[],
): bigint[] {
  let ancestor = leafN;
  return before.map((sibling, level) => {
    const own = ancestor;
    const theirs = pathOfN[level] as bigint;
    ancestor = (n >> BigInt(level)) % 2n === 0n ? poseidon2Hash([own, theirs]) : poseidon2Hash([theirs, own]);
    return ((index >> BigInt(level)) ^ 1n) === n >> BigInt(level) ? own : sibling;
  });
}

/** An indexed tree's leaf hash: H(key, nextKey, nextIndex) for nullifiers, H(slot, value, nextSlot, nextIndex). */
export function indexedLeafHash(tree: MerkleTreeId, p: IndexedLeafPreimage): bigint {
  return tree === MerkleTreeId.NULLIFIER_TREE
    ? poseidon2Hash([p.key, p.nextKey, p.nextIndex])
    : poseidon2Hash([p.key, p.value, p.nextKey, p.nextIndex]);
}

/** Buffers of a path, as WorldState.addUpstreamPath takes them. */
export function pathBuffers(path: readonly bigint[]): Buffer[] {
  return path.map(bigIntToBuffer32);
}

/**
 * The path of any leaf of a tree holding only zeros: what a lazy fork takes for the L1-to-L2 message tree, whose
 * paths no node serves by index. A chain that never had a message has only padding there; the fork checks the
 * path against the upstream's root and refuses with a clear error when the tree holds messages.
 */
export function emptyTreePath(tree: MerkleTreeId): bigint[] {
  return Array.from({ length: treeInfo(tree).height }, (_, level) => readField32(emptySubtreeRoot(level)));
}
