import { poseidon2Hash, poseidon2HashPair } from '../../../../src/core/crypto/poseidon2.js';

/**
 * A deliberately plain, independent model of the trees for differential tests: leaves in arrays, low leaves
 * found by linear scan, roots recomputed from scratch over the non-empty leaves. Bigints throughout; it shares
 * nothing with src/daemon/world-state but the Poseidon2 function.
 */
function emptyRoots(height: number): bigint[] {
  const z = [0n];
  for (let i = 1; i <= height; i++) z.push(poseidon2HashPair(z[i - 1] as bigint, z[i - 1] as bigint));
  return z;
}

function rootOf(leafHashes: Map<number, bigint>, height: number): bigint {
  const z = emptyRoots(height);
  let level = leafHashes;
  for (let l = 0; l < height; l++) {
    const parents = new Map<number, bigint>();
    for (const i of level.keys()) {
      const p = Math.floor(i / 2);
      if (parents.has(p)) continue;
      parents.set(p, poseidon2HashPair(level.get(2 * p) ?? (z[l] as bigint), level.get(2 * p + 1) ?? (z[l] as bigint)));
    }
    level = parents;
  }
  return level.get(0) ?? (z[height] as bigint);
}

export class ReferenceAppendOnlyTree {
  readonly leaves: bigint[] = [];
  constructor(readonly height: number) {}

  append(values: readonly bigint[]): void {
    this.leaves.push(...values);
  }

  root(): bigint {
    const m = new Map<number, bigint>();
    this.leaves.forEach((v, i) => {
      if (v !== 0n) m.set(i, v);
    });
    return rootOf(m, this.height);
  }
}

export interface ReferenceLeaf {
  key: bigint;
  value: bigint;
  nextKey: bigint;
  nextIndex: number;
}

export class ReferenceIndexedTree {
  readonly leaves: (ReferenceLeaf | null)[] = [];

  constructor(
    readonly height: number,
    readonly kind: 'nullifier' | 'public-data',
    initial: readonly { key: bigint; value: bigint }[],
  ) {
    initial.forEach((e, i) => {
      const next = initial[i + 1];
      this.leaves.push({ key: e.key, value: e.value, nextKey: next ? next.key : 0n, nextIndex: next ? i + 1 : 0 });
    });
  }

  /** One insert: update in place (public data) or append after the low leaf. Zero = empty leaf (nullifiers). */
  insert(key: bigint, value = 0n): void {
    if (key === 0n && this.kind === 'nullifier') {
      this.leaves.push(null);
      return;
    }
    let lowIndex = -1;
    for (let i = 0; i < this.leaves.length; i++) {
      const l = this.leaves[i];
      if (l && l.key <= key && (lowIndex < 0 || l.key > (this.leaves[lowIndex] as ReferenceLeaf).key)) lowIndex = i;
    }
    const low = this.leaves[lowIndex] as ReferenceLeaf;
    if (low.key === key) {
      if (this.kind === 'nullifier') throw new Error(`duplicate nullifier ${key}`);
      low.value = value;
      return;
    }
    const index = this.leaves.length;
    this.leaves.push({ key, value, nextKey: low.nextKey, nextIndex: low.nextIndex });
    low.nextKey = key;
    low.nextIndex = index;
  }

  root(): bigint {
    const m = new Map<number, bigint>();
    this.leaves.forEach((l, i) => {
      if (!l) return;
      const fields =
        this.kind === 'nullifier'
          ? [l.key, l.nextKey, BigInt(l.nextIndex)]
          : [l.key, l.value, l.nextKey, BigInt(l.nextIndex)];
      m.set(i, poseidon2Hash(fields));
    });
    return rootOf(m, this.height);
  }
}
