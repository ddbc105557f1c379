/**
 * Aztec's own TypeScript trees (@aztec/merkle-tree@4.1.2 on @aztec/kv-store@4.1.2 LMDB), unmodified, loaded
 * from bench/.deps (installed there by run.js when missing; never a dependency of the project). They hash with
 * @aztec/foundation's Poseidon2 (bb.js).
 *
 * Only the 1M-leaf prefill reaches past the public API: inserting a million nullifiers through batchInsert would
 * take about half an hour at its ~660 inserts/s, so the prefill appends the final, already linked leaf preimages
 * through the tree's own encodeAndAppendLeaves/updateLeaf (TypeScript-private, reachable from JavaScript). The
 * resulting root equals ours, which the runner checks.
 */

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function loadAztec(depsDir) {
  const mod = (p) => import(pathToFileURL(join(depsDir, 'node_modules', p)).href);
  const mt = await mod('@aztec/merkle-tree/dest/index.js');
  const kv = await mod('@aztec/kv-store/dest/lmdb/index.js');
  const trees = await mod('@aztec/stdlib/dest/trees/index.js');
  const fr = await mod('@aztec/foundation/dest/curves/bn254/index.js');
  return { ...mt, ...kv, ...trees, Fr: fr.Fr };
}

const toBuf = (v) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');

async function openTrees(A, genesisBlockHash) {
  const { StandardTree, StandardIndexedTree, newTree, Poseidon, openTmpStore } = A;
  class NullifierTree extends StandardIndexedTree {
    constructor(store, hasher, name, depth, size = 0n, _d, root) {
      super(store, hasher, name, depth, size, A.NullifierLeafPreimage, A.NullifierLeaf, root);
    }
  }
  class PublicDataTree extends StandardIndexedTree {
    constructor(store, hasher, name, depth, size = 0n, _d, root) {
      super(store, hasher, name, depth, size, A.PublicDataTreeLeafPreimage, A.PublicDataTreeLeaf, root);
    }
  }
  const store = openTmpStore(false);
  const h = new Poseidon();
  const noop = { fromBuffer: (b) => b };
  const trees = {
    store,
    nullifiers: await newTree(NullifierTree, store, h, 'nullifier', noop, 42, 128),
    noteHashes: await newTree(StandardTree, store, h, 'note_hash', A.Fr, 42),
    publicData: await newTree(PublicDataTree, store, h, 'public_data', noop, 40, 128),
    messages: await newTree(StandardTree, store, h, 'l1_to_l2', A.Fr, 36),
    archive: await newTree(StandardTree, store, h, 'archive', A.Fr, 30),
  };
  // Archive leaf 0 is the genesis block header hash, as in the node.
  trees.archive.appendLeaves([new A.Fr(genesisBlockHash)]);
  await trees.archive.commit();
  return trees;
}

/**
 * Appends already linked leaves after the 128 genesis leaves: sorted order gives each key its successor, and
 * genesis leaf 127 (the largest genesis key) is re-pointed at the smallest new key.
 */
async function bulkPrefill(tree, entries, makePreimage, chunk = 65536) {
  const n = entries.length;
  const order = entries.map((e, i) => ({ key: e.key, index: 128 + i })).sort((a, b) => (a.key < b.key ? -1 : 1));
  const next = new Array(n);
  for (let j = 0; j < n; j++) {
    const succ = order[j + 1];
    next[order[j].index - 128] = succ ? { key: succ.key, index: BigInt(succ.index) } : { key: 0n, index: 0n };
  }
  const first = order[0];
  tree.updateLeaf(makePreimage({ key: 127n, value: 0n }, { key: first.key, index: BigInt(first.index) }), 127n);
  for (let i = 0; i < n; i += chunk) {
    const preimages = [];
    for (let j = i; j < Math.min(n, i + chunk); j++) preimages.push(makePreimage(entries[j], next[j]));
    tree.encodeAndAppendLeaves(preimages, true);
    await tree.commit();
  }
}

export async function runAztec(A, w, genesisBlockHash, log) {
  const out = {};
  const t0 = performance.now();
  const T = await openTrees(A, genesisBlockHash);
  // The temporary LMDB directory goes away even when a step fails.
  try {
    const nullifierPreimage = (e, nx) =>
      new A.NullifierLeafPreimage(new A.NullifierLeaf(new A.Fr(e.key)), new A.Fr(nx.key), nx.index);
    const publicPreimage = (e, nx) =>
      new A.PublicDataTreeLeafPreimage(
        new A.PublicDataTreeLeaf(new A.Fr(e.key), new A.Fr(e.value)),
        new A.Fr(nx.key),
        nx.index,
      );
    await bulkPrefill(
      T.nullifiers,
      w.prefillNullifiers.map((key) => ({ key, value: 0n })),
      nullifierPreimage,
    );
    await bulkPrefill(
      T.publicData,
      w.prefillData.map((d) => ({ key: d.slot, value: d.value })),
      publicPreimage,
    );
    out.prefillSeconds = (performance.now() - t0) / 1000;
    out.prefillRoots = {
      nullifier: BigInt(`0x${T.nullifiers.getRoot(true).toString('hex')}`),
      publicData: BigInt(`0x${T.publicData.getRoot(true).toString('hex')}`),
    };
    log(`  Aztec TS prefill: ${out.prefillSeconds.toFixed(1)} s`);

    let t = performance.now();
    for (let i = 0; i < w.appendBatches.length; i++) {
      T.noteHashes.appendLeaves(w.appendBatches[i].map((v) => new A.Fr(v)));
      T.noteHashes.getRoot(true);
      if (i % 16 === 15) await T.noteHashes.commit();
    }
    out.appendsPerSec = (w.appendBatches.length * 64) / ((performance.now() - t) / 1000);
    out.appendRoot = BigInt(`0x${T.noteHashes.getRoot(true).toString('hex')}`);

    t = performance.now();
    for (let i = 0; i < w.nullifierBatches.length; i++) {
      await T.nullifiers.batchInsert(w.nullifierBatches[i].map(toBuf), 6);
      if (i % 16 === 15) await T.nullifiers.commit();
    }
    out.nullifierPerSec = (w.nullifierBatches.length * 64) / ((performance.now() - t) / 1000);
    out.nullifierRoot = BigInt(`0x${T.nullifiers.getRoot(true).toString('hex')}`);

    t = performance.now();
    for (let i = 0; i < w.publicDataBatches.length; i++) {
      const leaves = w.publicDataBatches[i].map((d) =>
        new A.PublicDataTreeLeaf(new A.Fr(d.slot), new A.Fr(d.value)).toBuffer(),
      );
      await T.publicData.batchInsert(leaves, 6);
      if (i % 16 === 15) await T.publicData.commit();
    }
    out.publicDataPerSec = (w.publicDataBatches.length * 64) / ((performance.now() - t) / 1000);

    const reads = w.siblingIndices.slice(0, 5000);
    t = performance.now();
    for (const index of reads) await T.nullifiers.getSiblingPath(BigInt(index), false);
    out.siblingPathUs = ((performance.now() - t) * 1000) / reads.length;
  } finally {
    await T.store.delete();
  }

  return out;
}

/** Whole blocks on fresh trees (at most 2 of 16 txs and 1 of 64 txs: one 64-tx block takes about a minute). */
export async function runAztecBlocks(A, bySize, genesisBlockHash, log) {
  // Blocks, as the TypeScript world state applied them before the native one: note hashes appended, then per tx
  // a batchInsert of 64 nullifiers and of 64 public data writes, the messages, the archive leaf, one commit.
  const out = { blocks: {}, blockRoots: {} };
  for (const [size, blocks] of Object.entries(bySize)) {
    const T = await openTrees(A, genesisBlockHash);
    const times = [];
    const rootsAfter = [];
    try {
      for (const b of blocks.slice(0, size === '64' ? 1 : size === '16' ? 2 : blocks.length)) {
        const start = performance.now();
        T.noteHashes.appendLeaves(b.txs.flatMap((tx) => tx.noteHashes).map((v) => new A.Fr(v)));
        for (const tx of b.txs) await T.nullifiers.batchInsert(tx.nullifiers.map(toBuf), 6);
        for (const tx of b.txs) {
          const leaves = tx.publicDataWrites.map((d) =>
            new A.PublicDataTreeLeaf(new A.Fr(d.slot), new A.Fr(d.value)).toBuffer(),
          );
          await T.publicData.batchInsert(leaves, 6);
        }
        const msgs = [...b.messages, ...new Array(1024 - b.messages.length).fill(0n)];
        T.messages.appendLeaves(msgs.map((v) => new A.Fr(v)));
        T.archive.appendLeaves([new A.Fr(b.blockHash)]);
        for (const tree of [T.nullifiers, T.noteHashes, T.publicData, T.messages, T.archive]) await tree.commit();
        times.push(performance.now() - start);
        rootsAfter.push(
          [T.nullifiers, T.noteHashes, T.publicData, T.messages, T.archive].map((tr) =>
            BigInt(`0x${tr.getRoot(false).toString('hex')}`),
          ),
        );
        log(`  Aztec TS ${size}-tx block: ${times.at(-1).toFixed(0)} ms`);
      }
    } finally {
      await T.store.delete();
    }
    out.blocks[size] = { times };
    out.blockRoots[size] = rootsAfter;
  }
  return out;
}
