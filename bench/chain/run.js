// Chain benchmarks (issue 6), each figure beside a baseline measured in the same run on the same disk:
//
//  1. block ingest: the chain store writing blocks of 64 txs and 320 tagged private logs (one SQLite
//     transaction per block) beside a bare better-sqlite3 loop inserting the very same rows with the same
//     schema, and beside the docs/baselines.md section 2.1 loop (its own schema and row sizes) for reference;
//  2. blocks built per second by the dev sequencer (tx effects, fees, world state, sponge, applyBlock), with
//     full blocks (64 txs) and with 1-tx blocks;
//  3. query latency on a 10k-block store: getBlock, getPublicLogs, getLogsByTags (store read and JSON encoding,
//     what the RPC handler does; the HTTP layer is bench/rpc's).
//
//   npm run build && node bench/chain/run.js [ingestBlocks=1500] [builtBlocks=12] [queryBlocks=10000]
//
// Databases go to a fresh directory under the OS temp dir (same disk as the repo here), WAL, synchronous=NORMAL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AztecAddress } from '../../dist/core/aztec-address.js';
import { AppendOnlyTreeSnapshot } from '../../dist/core/block/append-only-tree-snapshot.js';
import { BlockHeader } from '../../dist/core/block/block-header.js';
import { Body } from '../../dist/core/block/body.js';
import { GlobalVariables } from '../../dist/core/block/global-variables.js';
import { L2Block } from '../../dist/core/block/l2-block.js';
import { POSEIDON2_ENGINE } from '../../dist/core/crypto/poseidon2.js';
import { Fr } from '../../dist/core/fr.js';
import { GasFees } from '../../dist/core/gas/gas-fees.js';
import { PrivateLog } from '../../dist/core/logs/private-log.js';
import { PublicLog } from '../../dist/core/logs/public-log.js';
import { PublicDataWrite } from '../../dist/core/tx/public-data-write.js';
import { TxEffect } from '../../dist/core/tx/tx-effect.js';
import { TxHash } from '../../dist/core/tx-hash.js';
import { ChainLogQueries } from '../../dist/daemon/store/chain-log-queries.js';
import { ChainStore } from '../../dist/daemon/store/chain-store.js';
import { openNodeDatabase } from '../../dist/daemon/store/node-database.js';
import { recordChecksum } from '../../dist/daemon/store/record-checksum.js';
import { StoredTxEffect } from '../../dist/daemon/store/stored-tx-effect.js';
import { startBenchDevChain } from '../bench-dev-chain.js';
import { benchResult } from '../bench-result.js';

const ingestBlocks = Number(process.argv[2] ?? 1500);
const builtBlocks = Number(process.argv[3] ?? 12);
const queryBlocks = Number(process.argv[4] ?? 10_000);
const dir = mkdtempSync(join(tmpdir(), 'l2node-bench-chain-'));
const TXS = 64;
const LOGS_PER_TX = 5;
const TAG_POOL = Array.from({ length: 100_000 }, () => new Fr(BigInt(`0x${randomBytes(31).toString('hex')}`)));
const rand = (n) => Math.floor(Math.random() * n);
const fmt = (n, d = 1) => n.toFixed(d);

console.log(`chain bench: Poseidon2 engine ${POSEIDON2_ENGINE}, data in ${dir}`);

// ---- data ----

let txCounter = 1n;
function effect({ logs = LOGS_PER_TX, publicLogs = 0 } = {}) {
  const h = txCounter++;
  return new TxEffect(
    0,
    new TxHash(BigInt(`0x${randomBytes(31).toString('hex')}`)),
    new Fr(1000n + h),
    [],
    [new Fr(h * 7919n + 1n)],
    [],
    [new PublicDataWrite(new Fr(h + 5n), new Fr(h))],
    Array.from({ length: logs }, () =>
      PrivateLog.fromEmitted([
        TAG_POOL[rand(TAG_POOL.length)],
        ...Array.from({ length: 7 }, (_, k) => new Fr(h + BigInt(k))),
      ]),
    ),
    Array.from(
      { length: publicLogs },
      (_, k) => new PublicLog(new AztecAddress(BigInt(1 + (k % 4))), [TAG_POOL[rand(TAG_POOL.length)], new Fr(h)]),
    ),
    [],
  );
}

function block(n, effects) {
  const header = BlockHeader.empty({
    lastArchive: new AppendOnlyTreeSnapshot(new Fr(BigInt(n)), n),
    globalVariables: GlobalVariables.empty({ blockNumber: n, slotNumber: n, timestamp: 1_800_000_000n + BigInt(n) }),
  });
  return new L2Block(new AppendOnlyTreeSnapshot(new Fr(BigInt(n) + 10n ** 9n), n + 1), header, new Body(effects), n, 0);
}

// ---- 1. ingest ----

/** The rows ChainStore.writeBlock writes for a block, encoded ahead of time for the bare loop. */
function rowsOf(b) {
  const txs = b.body.txEffects.map((e, i) => {
    const stored = StoredTxEffect.of(e);
    const tags = [];
    for (let k = 0; k < stored.privateLogCount; k++) tags.push([stored.privateLogTag(k), 0, i * 2048 + k]);
    return { id: b.number * 2 ** 20 + i, hash: stored.bytes.subarray(1, 33), effect: stored.bytes, tags };
  });
  return {
    block: [
      b.number,
      b.hash().toBuffer(),
      b.archive.root.toBuffer(),
      b.checkpointNumber,
      0,
      txs.length,
      0,
      0,
      b.header.toBuffer(),
    ],
    txs,
  };
}

/**
 * A bare better-sqlite3 writer of prepared rows into the chain store's schema, one transaction per block;
 * `checksums`: with the per-record checksums the store writes (docs/architecture.md section 4.11), to show
 * their cost on the same rows.
 */
function bareWriter(file, checksums = false) {
  const db = openNodeDatabase(file);
  const insBlock = db.prepare(
    'INSERT INTO chain_block (number, hash, archive_root, checkpoint, index_in_checkpoint, tx_count, public_log_count, class_log_count, header, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insTx = db.prepare('INSERT INTO chain_tx (id, hash, effect, crc) VALUES (?, ?, ?, ?)');
  const insTag = db.prepare('INSERT OR IGNORE INTO chain_log_tag (tag, kind, block, position) VALUES (?, ?, ?, ?)');
  const write = db.transaction((r) => {
    for (const t of r.txs) {
      insTx.run(t.id, t.hash, t.effect, checksums ? recordChecksum(t.id, t.hash, t.effect) : null);
      for (const [tag, kind, pos] of t.tags) insTag.run(tag, kind, r.block[0], pos);
    }
    const [number, hash, archive, , , , , , header] = r.block;
    insBlock.run(...r.block, checksums ? recordChecksum(number, hash, archive, header) : null);
  });
  return { write, close: () => db.close() };
}

/** The chain store writing L2Blocks (encoding included), one transaction per block as applyBlock does. */
function storeWriter(file) {
  const db = openNodeDatabase(file);
  const store = new ChainStore(db);
  const write = db.transaction((b) => store.writeBlock({ block: b, l1ToL2Messages: [], l1ToL2MessageStartIndex: 0 }));
  return { write, close: () => db.close() };
}

/**
 * Both writers in turns of 50 blocks, each timed on its own: disk conditions drift over a run (WAL
 * checkpoints, cache), and alternating exposes both to the same drift.
 */
function ingestSideBySide(blocks, prepared) {
  const bare = bareWriter(join(dir, 'bare.sqlite'));
  const summed = bareWriter(join(dir, 'bare-checksums.sqlite'), true);
  const store = storeWriter(join(dir, 'store.sqlite'));
  let bareMs = 0;
  let summedMs = 0;
  let storeMs = 0;
  for (let from = 0; from < blocks.length; from += 50) {
    const to = Math.min(blocks.length, from + 50);
    let t = performance.now();
    for (let i = from; i < to; i++) bare.write(prepared[i]);
    bareMs += performance.now() - t;
    t = performance.now();
    for (let i = from; i < to; i++) summed.write(prepared[i]);
    summedMs += performance.now() - t;
    t = performance.now();
    for (let i = from; i < to; i++) store.write(blocks[i]);
    storeMs += performance.now() - t;
  }
  bare.close();
  summed.close();
  store.close();
  const rate = (ms) => (blocks.length * 1000) / ms;
  return { bare: rate(bareMs), summed: rate(summedMs), store: rate(storeMs) };
}

/** docs/baselines.md section 2.1: 1 block row (320 B header), 64 tx rows (256 B), 320 log rows (tag + 256 B). */
function anchorLoop(file, n) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -65536');
  db.exec(`CREATE TABLE blocks (number INTEGER PRIMARY KEY, hash BLOB NOT NULL, timestamp INTEGER NOT NULL, header BLOB NOT NULL);
    CREATE TABLE txs (hash BLOB PRIMARY KEY, block_number INTEGER NOT NULL, tx_index INTEGER NOT NULL, effect BLOB NOT NULL) WITHOUT ROWID;
    CREATE TABLE logs (id INTEGER PRIMARY KEY, block_number INTEGER NOT NULL, tx_index INTEGER NOT NULL, log_index INTEGER NOT NULL, tag BLOB NOT NULL, data BLOB NOT NULL);
    CREATE INDEX logs_by_tag ON logs(tag);`);
  const insBlock = db.prepare('INSERT INTO blocks VALUES (?, ?, ?, ?)');
  const insTx = db.prepare('INSERT INTO txs VALUES (?, ?, ?, ?)');
  const insLog = db.prepare('INSERT INTO logs VALUES (?, ?, ?, ?, ?, ?)');
  const header = randomBytes(320);
  const eff = randomBytes(256);
  const data = randomBytes(256);
  const tags = TAG_POOL.map((t) => t.toBuffer());
  const write = db.transaction((k, hashes) => {
    insBlock.run(k, randomBytes(32), 1730000000 + k * 36, header);
    for (let t = 0; t < 64; t++) {
      insTx.run(hashes[t], k, t, eff);
      for (let l = 0; l < 5; l++) insLog.run(k * 1048576 + t * 256 + l, k, t, l, tags[rand(tags.length)], data);
    }
  });
  const hashes = Array.from({ length: n }, () => Array.from({ length: 64 }, () => randomBytes(32)));
  const t0 = performance.now();
  for (let k = 1; k <= n; k++) write(k, hashes[k - 1]);
  const s = (performance.now() - t0) / 1000;
  db.close();
  return n / s;
}

console.log(`\n1. block ingest: ${ingestBlocks} blocks of ${TXS} txs and ${TXS * LOGS_PER_TX} tagged logs each`);
const blocks = Array.from({ length: ingestBlocks }, (_, i) =>
  block(
    i + 1,
    Array.from({ length: TXS }, () => effect()),
  ),
);
const prepared = blocks.map(rowsOf);
const rowBytes = prepared[0].txs.reduce((a, t) => a + t.effect.length + 32, 0) + 440;
const { bare, summed, store } = ingestSideBySide(blocks, prepared);
const anchor = anchorLoop(join(dir, 'anchor.sqlite'), ingestBlocks);
const size = (f) => `${fmt(statSync(join(dir, f)).size / 2 ** 20)} MiB`;
console.log(
  `   rows per block: 1 block, ${TXS} tx effects (${fmt(rowBytes / TXS / 1024, 2)} KiB each), ${TXS * LOGS_PER_TX} tag index entries`,
);
console.log(`   bare better-sqlite3 loop, same rows : ${fmt(bare)} blocks/s (${size('bare.sqlite')})`);
console.log(
  `   the same loop with record checksums : ${fmt(summed)} blocks/s (${size('bare-checksums.sqlite')})  ratio ${fmt(summed / bare, 2)} (the checksums' cost)`,
);
console.log(
  `   chain store (ChainStore.writeBlock) : ${fmt(store)} blocks/s (${size('store.sqlite')})  ratio ${fmt(store / bare, 2)} (target >= 0.7)`,
);
benchResult(
  'chain',
  [
    {
      name: 'block ingest (ChainStore.writeBlock)',
      value: Number(store.toFixed(1)),
      unit: 'blocks/s',
      baseline: { name: 'bare better-sqlite3 loop, same rows', value: Number(bare.toFixed(1)) },
      ratio: store / bare,
      target: '>= 0.7',
    },
    {
      name: 'block ingest, bare loop with per-record checksums',
      value: Number(summed.toFixed(1)),
      unit: 'blocks/s',
      baseline: { name: 'bare better-sqlite3 loop, same rows', value: Number(bare.toFixed(1)) },
      ratio: summed / bare,
    },
  ],
  { engine: POSEIDON2_ENGINE, blocks: ingestBlocks, txsPerBlock: TXS },
);
console.log(
  `   baselines.md 2.1 insert loop        : ${fmt(anchor)} blocks/s (its own schema; reference 81 blocks/s)  store/anchor ${fmt(store / anchor, 2)}`,
);

// ---- 2. blocks built ----

async function buildRun(label, txsPerBlock, nBlocks) {
  const payers = Array.from({ length: 8 }, (_, i) => new AztecAddress(0x9000n + BigInt(i)));
  const flags = {
    'slot-duration': '4',
    'blocks-per-slot': '4',
    'max-txs-per-block': String(txsPerBlock),
    'prefunded-accounts': payers.map((p) => `${p}:${10n ** 30n}`).join(','),
  };
  const { clock, db, pending, service, builder } = await startBenchDevChain(
    flags,
    join(dir, `built-${txsPerBlock}.sqlite`),
  );
  const all = Array.from({ length: txsPerBlock * nBlocks }, (_, i) =>
    builder.build({
      feePayer: payers[i % payers.length],
      maxFeesPerGas: new GasFees(0n, 2000n),
      now: BigInt(Math.floor(clock.now() / 1000)),
      privateLogs: Array.from({ length: LOGS_PER_TX }, (_, k) =>
        PrivateLog.fromEmitted([TAG_POOL[rand(TAG_POOL.length)], new Fr(BigInt(i * 8 + k))]),
      ),
    }),
  );
  // The pool hashed each tx when it arrived (node_sendTx); block building reuses the hash.
  for (const tx of all) void tx.txHash;
  await service.sequencer.start();
  const t0 = performance.now();
  for (let k = 0; k < nBlocks; k++) {
    pending.push(...all.slice(k * txsPerBlock, (k + 1) * txsPerBlock));
    clock.advance(service.slots.blockIntervalMs);
  }
  const s = (performance.now() - t0) / 1000;
  const built = service.chain.latestBlockNumber;
  const txs = service.chain.store.getBlocks(1, built).reduce((a, b) => a + b.body.txEffects.length, 0);
  await service.sequencer.stop();
  db.close();
  if (built !== nBlocks || txs !== all.length) throw new Error(`${label}: built ${built} blocks with ${txs} txs`);
  console.log(
    `   ${label.padEnd(34)}: ${fmt(built / s, 2)} blocks/s, ${fmt(txs / s)} txs/s (${fmt((s * 1000) / built)} ms per block)`,
  );
}

console.log('\n2. blocks built by the dev sequencer (fees, world state, sponge, applyBlock; file database)');
await buildRun(`full blocks (${TXS} txs, ${LOGS_PER_TX} logs each)`, TXS, builtBlocks);
await buildRun('1-tx blocks', 1, builtBlocks * 8);

// ---- 3. queries at 10k blocks ----

console.log(`\n3. query latency on a ${queryBlocks}-block store (8 txs x 5 private + 2 public logs per block tx)`);
{
  const db = openNodeDatabase(join(dir, 'queries.sqlite'));
  const qs = new ChainStore(db);
  const write = db.transaction((b) => qs.writeBlock({ block: b, l1ToL2Messages: [], l1ToL2MessageStartIndex: 0 }));
  const t0 = performance.now();
  for (let n = 1; n <= queryBlocks; n++)
    write(
      block(
        n,
        Array.from({ length: 8 }, () => effect({ publicLogs: 2 })),
      ),
    );
  console.log(
    `   (built in ${fmt((performance.now() - t0) / 1000)} s, ${fmt(statSync(join(dir, 'queries.sqlite')).size / 2 ** 20)} MiB)`,
  );
  const logs = new ChainLogQueries(qs);
  const latency = (label, n, fn) => {
    for (let i = 0; i < Math.min(20, n); i++) fn(i);
    const times = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      fn(i);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
    console.log(`   ${label.padEnd(52)}: p50 ${fmt(q(0.5), 3)} ms, p99 ${fmt(q(0.99), 3)} ms`);
  };
  // The checksum check on reads: a block's effects through the store (checked) and by a bare SELECT.
  const bareEffects = db.prepare('SELECT effect FROM chain_tx WHERE id >= ? AND id < ? ORDER BY id').pluck();
  latency('block effects, bare SELECT (no checksum)', 2000, () => {
    const n = 1 + rand(queryBlocks);
    return bareEffects.all(n * 2 ** 20, (n + 1) * 2 ** 20);
  });
  latency('block effects, store read (checksums checked)', 2000, () => qs.txs.ofBlock(1 + rand(queryBlocks)));
  latency('getBlock (8 txs, JSON)', 500, () => JSON.stringify(qs.getBlock(1 + rand(queryBlocks)).toJSON()));
  latency('getPublicLogs {fromBlock, toBlock: +10}', 300, () => {
    const from = 1 + rand(queryBlocks - 10);
    return JSON.stringify(logs.getPublicLogs({ fromBlock: from, toBlock: from + 10 }).logs.map((l) => l.toJSON()));
  });
  latency('getPublicLogs {contractAddress} (first page of 1000)', 50, () =>
    JSON.stringify(
      logs
        .getPublicLogs({ contractAddress: new AztecAddress(2n), fromBlock: 1 + rand(queryBlocks / 2) })
        .logs.map((l) => l.toJSON()),
    ),
  );
  latency('getLogsByTags (1 tag)', 2000, () =>
    JSON.stringify(logs.getLogsByTags([TAG_POOL[rand(TAG_POOL.length)]], 10)),
  );
  latency('getLogsByTags (100 tags)', 200, () =>
    JSON.stringify(
      logs.getLogsByTags(
        Array.from({ length: 100 }, () => TAG_POOL[rand(TAG_POOL.length)]),
        10,
      ),
    ),
  );
  db.close();
}

rmSync(dir, { recursive: true, force: true });
