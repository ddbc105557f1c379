/**
 * Our side of the benchmark: the world state of src/daemon/world-state, from the built output (dist/), on a
 * SQLite file in a temporary directory (WAL, as the node runs it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { poseidon2HashBatch } from '../../dist/core/crypto/poseidon2.js';
import { openNodeDatabase } from '../../dist/daemon/store/node-database.js';
import { InThreadBatchHasher } from '../../dist/daemon/world-state/batch-hasher.js';
import { MerkleTreeId } from '../../dist/daemon/world-state/merkle-tree-id.js';
import { WorldState } from '../../dist/daemon/world-state/world-state.js';
import { WorldStateRepository } from '../../dist/daemon/world-state/world-state-repository.js';

/** Counts hashes (items) per width, so each figure can be set beside the hash-bound floor. */
export class CountingHasher {
  constructor(inner = new InThreadBatchHasher()) {
    this.inner = inner;
    this.counts = { 2: 0, 3: 0, 4: 0 };
  }
  hashBatch(input, width) {
    this.counts[width] += input.length / (32 * width);
    return this.inner.hashBatch(input, width);
  }
  take() {
    const c = this.counts;
    this.counts = { 2: 0, 3: 0, 4: 0 };
    return c;
  }
}

/** Measured cost of one batched hash per width, in microseconds. */
export function measureHashCost() {
  const cost = {};
  for (const width of [2, 3, 4]) {
    const n = 4096;
    const input = Buffer.alloc(n * width * 32);
    for (let i = 0; i < n * width; i++) input.writeUInt32BE((i * 2654435761) >>> 0, i * 32 + 28);
    poseidon2HashBatch(input, width);
    let reps = 0;
    const t = performance.now();
    while (performance.now() - t < 400) {
      poseidon2HashBatch(input, width);
      reps++;
    }
    cost[width] = ((performance.now() - t) * 1000) / (reps * n);
  }
  return cost;
}

function openFresh(hasher) {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-ws-bench-'));
  const db = openNodeDatabase(join(dir, 'node.sqlite'));
  const ws = WorldState.open(db, { hasher });
  return {
    ws,
    db,
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function commitNext(ws, fork, blockHash) {
  ws.commitFork(fork, { blockNumber: ws.latestBlockNumber + 1, blockHash });
  return ws.fork();
}

const roots = (ws, fork) => {
  const v = fork ?? ws.view();
  return [0, 1, 2, 3, 4].map((id) => v.getTreeInfo(id).root);
};

/** Runs every measurement; returns figures, hash counts and roots for cross-checking. */
export function runL2node(w, log) {
  const hasher = new CountingHasher();
  const out = { hashes: {} };
  const env = openFresh(hasher);
  const { ws } = env;
  try {
    // Prefill: the nullifiers and public data in 64k blocks through the ordinary fork path.
    let t = performance.now();
    const CH = 65536;
    for (let i = 0; i < w.prefillNullifiers.length; i += CH) {
      const fork = ws.fork();
      fork.insertNullifiers(w.prefillNullifiers.slice(i, i + CH));
      fork.writePublicData(w.prefillData.slice(i, i + CH).map((d) => ({ leafSlot: d.slot, value: d.value })));
      commitNext(ws, fork, BigInt(i + 1));
    }
    out.prefillSeconds = (performance.now() - t) / 1000;
    out.prefillRoots = roots(ws);
    log(`  l2node prefill: ${out.prefillSeconds.toFixed(1)} s`);
    hasher.take();

    // Appends: 64-leaf batches with the root after each, in a fork only (as the native anchor), then with a
    // commit every 1024 leaves (as the TypeScript anchor).
    let fork = ws.fork();
    t = performance.now();
    for (const batch of w.appendBatches) {
      fork.appendNoteHashes(batch);
      fork.getTreeInfo(MerkleTreeId.NOTE_HASH_TREE);
    }
    out.appendsForkPerSec = (w.appendBatches.length * 64) / ((performance.now() - t) / 1000);
    out.hashes.appendsFork = hasher.take();
    fork.close();
    fork = ws.fork();
    t = performance.now();
    w.appendBatches.forEach((batch, i) => {
      fork.appendNoteHashes(batch);
      fork.getTreeInfo(MerkleTreeId.NOTE_HASH_TREE);
      if (i % 16 === 15) fork = commitNext(ws, fork, BigInt(1e9 + i));
    });
    out.appendsPerSec = (w.appendBatches.length * 64) / ((performance.now() - t) / 1000);
    out.hashes.appends = hasher.take();
    out.appendRoot = fork.getTreeInfo(MerkleTreeId.NOTE_HASH_TREE).root;
    fork.close();

    // Nullifier inserts into the prefilled tree: in a fork only (like the native anchor), then with commits.
    const nullifierRun = (commit) => {
      let f = ws.fork();
      const start = performance.now();
      w.nullifierBatches.forEach((batch, i) => {
        f.insertNullifiers(batch);
        f.getTreeInfo(MerkleTreeId.NULLIFIER_TREE);
        if (commit && i % 16 === 15) f = commitNext(ws, f, BigInt(2e9 + i));
      });
      const rate = (w.nullifierBatches.length * 64) / ((performance.now() - start) / 1000);
      const root = f.getTreeInfo(MerkleTreeId.NULLIFIER_TREE).root;
      f.close();
      return { rate, root };
    };
    // The fork-only pass runs twice; the first warms SQLite's page cache and the upper-level node cache.
    out.nullifierForkColdPerSec = nullifierRun(false).rate;
    hasher.take();
    out.nullifierForkPerSec = nullifierRun(false).rate;
    out.hashes.nullifiersFork = hasher.take();
    const committed = nullifierRun(true);
    out.nullifierCommittedPerSec = committed.rate;
    out.nullifierRoot = committed.root;
    out.hashes.nullifiers = hasher.take();

    // Public data writes (a quarter update prefilled slots), with commits.
    fork = ws.fork();
    t = performance.now();
    w.publicDataBatches.forEach((batch, i) => {
      fork.writePublicData(batch.map((d) => ({ leafSlot: d.slot, value: d.value })));
      fork.getTreeInfo(MerkleTreeId.PUBLIC_DATA_TREE);
      if (i % 16 === 15) fork = commitNext(ws, fork, BigInt(3e9 + i));
    });
    out.publicDataPerSec = (w.publicDataBatches.length * 64) / ((performance.now() - t) / 1000);
    out.hashes.publicData = hasher.take();
    fork.close();

    // Sibling path reads of random nullifier leaves at the latest block (two passes; the second is reported).
    for (let pass = 0; pass < 2; pass++) {
      t = performance.now();
      for (const index of w.siblingIndices) ws.getSiblingPath('latest', MerkleTreeId.NULLIFIER_TREE, BigInt(index));
      out.siblingPathUs = ((performance.now() - t) * 1000) / w.siblingIndices.length;
    }
    hasher.take();
  } finally {
    env.close();
  }

  return out;
}

/**
 * Runs `fn` with the world state's per-record checksums taken out (bench only: the "without" side of the
 * checksum cost): rows are written without a checksum and read back unverified, through the same SQL.
 */
export function withoutChecksums(fn) {
  const proto = WorldStateRepository.prototype;
  const saved = { checked: proto.checked, insertNodes: proto.insertNodes, insertLeaves: proto.insertLeaves };
  proto.checked = (_table, _key, _block, stored) => stored;
  const bare = (repo) =>
    (repo.bareInserts ??= {
      node: repo.db.prepare('INSERT INTO ws_node (k, block, hash) VALUES (?, ?, ?)'),
      leaf: repo.db.prepare('INSERT INTO ws_leaf (k, block, leaf, hash) VALUES (?, ?, ?, ?)'),
    });
  proto.insertNodes = function (block, rows) {
    const { node } = bare(this);
    for (const [k, hash] of rows) node.run(k, block, hash);
  };
  proto.insertLeaves = function (block, rows) {
    const { leaf } = bare(this);
    for (const [k, preimage, hash] of rows) leaf.run(k, block, preimage, hash);
  };
  try {
    return fn();
  } finally {
    Object.assign(proto, saved);
  }
}

export function runL2nodeBlocks(bySize, hasher = new CountingHasher()) {
  const result = { times: {}, cpuTimes: {}, hashes: {}, roots: {}, siblingPathUs: {} };
  for (const [size, blocks] of Object.entries(bySize)) {
    const e = openFresh(hasher);
    try {
      const times = [];
      const cpuTimes = [];
      const rootsAfter = [];
      for (const b of blocks) {
        const txs = b.txs.map((tx) => ({
          noteHashes: tx.noteHashes,
          nullifiers: tx.nullifiers,
          publicDataWrites: tx.publicDataWrites.map((d) => ({ leafSlot: d.slot, value: d.value })),
        }));
        // The header's state comes from building the block first, as a sequencer would (not timed).
        const f = e.ws.fork();
        for (const tx of txs) f.applyTxEffects(tx);
        f.appendCheckpointMessages(b.messages);
        const state = f.getStateReference();
        f.close();
        hasher.take();
        const cpu = process.cpuUsage();
        const start = performance.now();
        e.ws.applyBlock({
          blockNumber: e.ws.latestBlockNumber + 1,
          blockHash: b.blockHash,
          state,
          txs,
          firstInCheckpoint: true,
          l1ToL2Messages: b.messages,
        });
        times.push(performance.now() - start);
        const used = process.cpuUsage(cpu);
        cpuTimes.push((used.user + used.system) / 1000);
        rootsAfter.push(roots(e.ws));
      }
      result.times[size] = times;
      result.cpuTimes[size] = cpuTimes;
      result.hashes[size] = hasher.take();
      result.roots[size] = rootsAfter;
      // Reads of the trees just built: sibling paths of random note hash leaves (the newest rows).
      const size_ = Number(e.ws.view().getTreeInfo(MerkleTreeId.NOTE_HASH_TREE).size);
      const reads = 2000;
      const t = performance.now();
      for (let i = 0; i < reads; i++) {
        e.ws.getSiblingPath('latest', MerkleTreeId.NOTE_HASH_TREE, BigInt((i * 7919) % Math.max(1, size_)));
      }
      result.siblingPathUs[size] = ((performance.now() - t) * 1000) / reads;
    } finally {
      e.close();
    }
  }
  return result;
}
