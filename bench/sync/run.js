// Follower sync benchmark (issue 7): blocks per second for a follower (`l2node start --sync-from`) catching up a
// chain of mixed-size blocks from an upstream l2node over loopback JSON-RPC, beside the ceiling measured in the
// same run: the same node code applying the very same blocks locally (applyBlock from blocks already in memory,
// no network, no JSON, no verification beyond applyBlock's own).
//
//   npm run build && node bench/sync/run.js [blocks=2000]
//
// 1. A leader chain is built in-process by the dev sequencer (4 blocks per checkpoint; blocks of 1 to 32 txs,
//    each tx with a note hash, a nullifier, a fee payment and two private logs; an L1-to-L2 message every 100
//    blocks) into a file database.
// 2. Ceiling: in a process of its own, a fresh database applies those blocks through Chain.applyBlock in one loop
//    (bench/sync/apply-locally.js), once before and once after the follower; the baseline is their mean.
// 3. Follower: the leader's database is served by `l2node start --sequencer-mode off`; a second process follows
//    it from genesis. Its rate is taken from its own log: "following ... from block 0" to "caught up".
// Databases go to a fresh directory under the OS temp dir, removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AztecAddress } from '../../dist/core/aztec-address.js';
import { POSEIDON2_ENGINE } from '../../dist/core/crypto/poseidon2.js';
import { Fr } from '../../dist/core/fr.js';
import { GasFees } from '../../dist/core/gas/gas-fees.js';
import { PrivateLog } from '../../dist/core/logs/private-log.js';
import { NODE_DATABASE_FILE } from '../../dist/daemon/store/node-database.js';
import { startBenchDevChain } from '../bench-dev-chain.js';
import { benchResult } from '../bench-result.js';

const BLOCKS = Number(process.argv[2] ?? 2000);
const SIZES = [1, 2, 1, 4, 8, 1, 16, 2, 32, 4];
const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'l2node-bench-sync-'));
const fmt = (n, d = 1) => n.toFixed(d);
const payers = Array.from({ length: 8 }, (_, i) => new AztecAddress(0xa000n + BigInt(i)));
const prefundedFlag = payers.map((p) => `${p}:${10n ** 30n}`).join(',');
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`,
);
console.log(
  `sync bench: ${BLOCKS} blocks of ${SIZES.join('/')} txs, Poseidon2 engine ${POSEIDON2_ENGINE}, data in ${dir}`,
);

// ---- 1. the leader chain ----

const leaderDir = join(dir, 'leader');
mkdirSync(leaderDir);
const t0 = performance.now();
const txCount = await buildLeader();
const buildSeconds = (performance.now() - t0) / 1000;
console.log(`\n1. leader chain: ${BLOCKS} blocks, ${txCount} txs, built in ${fmt(buildSeconds)} s`);

async function buildLeader() {
  const { clock, db, pending, service, builder } = await startBenchDevChain(
    { 'slot-duration': '4', 'blocks-per-slot': '4', 'max-txs-per-block': '64', 'prefunded-accounts': prefundedFlag },
    join(leaderDir, NODE_DATABASE_FILE),
  );
  await service.sequencer.start();
  let n = 0;
  for (let k = 0; k < BLOCKS; k++) {
    if (k % 100 === 0) service.devL1.sendL1ToL2Message(BigInt(0x5000 + k));
    const size = SIZES[k % SIZES.length];
    for (let i = 0; i < size; i++) {
      n++;
      pending.push(
        builder.build({
          feePayer: payers[n % payers.length],
          maxFeesPerGas: new GasFees(0n, 2000n),
          now: BigInt(Math.floor(clock.now() / 1000)),
          noteHashes: [new Fr(BigInt(n) * 7n + 1n)],
          privateLogs: [
            PrivateLog.fromEmitted([new Fr(BigInt(n) + 11n), new Fr(1n)]),
            PrivateLog.fromEmitted([new Fr(BigInt(n) + 13n), new Fr(2n)]),
          ],
        }),
      );
    }
    clock.advance(service.slots.blockIntervalMs);
    if (service.chain.latestBlockNumber !== k + 1) throw new Error(`leader: block ${k + 1} was not built`);
  }
  // Publish the last checkpoint and let its epoch be proven and finalized.
  clock.advance(service.slots.timing.slotDuration * 1000 * 40);
  await service.sequencer.stop();
  db.close();
  return n;
}

// ---- 2. the ceiling: the same blocks applied locally, before and after the follower ----

/** Applies the leader's blocks to a fresh database in a process of its own; blocks per second. */
function ceilingRun(label) {
  const db = join(dir, `ceiling-${label}.sqlite`);
  const out = spawnSync(
    process.execPath,
    [
      fileURLToPath(new URL('./apply-locally.js', import.meta.url)),
      join(leaderDir, NODE_DATABASE_FILE),
      db,
      prefundedFlag,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (out.status !== 0) throw new Error('bench/sync/apply-locally.js failed');
  const r = JSON.parse(out.stdout.trim().split('\n').at(-1));
  if (r.blocks !== BLOCKS || r.txs !== txCount) throw new Error(`the ceiling applied ${r.blocks} blocks, ${r.txs} txs`);
  rmSync(db, { force: true });
  console.log(
    `   ceiling (${label}), applyBlock of the same blocks from memory: ${fmt(BLOCKS / r.seconds)} blocks/s, ` +
      `${fmt(txCount / r.seconds, 0)} txs/s (${fmt(r.seconds, 2)} s; own process)`,
  );
  return BLOCKS / r.seconds;
}

console.log('\n2. the ceiling and the follower (the ceiling runs before and after, so load drift shows)');
const before = ceilingRun('before');

// ---- 3. a follower over loopback RPC ----

const leader = await startNode(['--data-directory', leaderDir, '--sequencer-mode', 'off']);
const follower = await startNode(
  ['--sync-from', leader.publicUrl, '--data-directory', join(dir, 'follower')],
  (l) => l.module === 'sync' && /^following /.test(l.msg),
);
const caughtUp = await follower.waitFor((l) => l.module === 'sync' && /caught up at block/.test(l.msg), 1_800_000);
const startLine = follower.lines.find((l) => l.module === 'sync' && /^following /.test(l.msg));
const seconds = (caughtUp.time - startLine.time) / 1000;
const [leaderTips, followerTips] = await Promise.all([tips(leader.publicUrl), tips(follower.publicUrl)]);
if (JSON.stringify(leaderTips) !== JSON.stringify(followerTips)) {
  throw new Error(`the follower's tips differ: ${JSON.stringify(followerTips)} vs ${JSON.stringify(leaderTips)}`);
}
await Promise.all([follower.stop(), leader.stop()]);
const rate = BLOCKS / seconds;
console.log(
  `   follower, --sync-from over loopback JSON-RPC          : ${fmt(rate)} blocks/s, ${fmt(txCount / seconds, 0)} txs/s (${fmt(seconds, 2)} s)`,
);
const after = ceilingRun('after');
const ceiling = (before + after) / 2;
console.log(
  `   follower / mean ceiling: ${fmt(rate)} / ${fmt(ceiling)} = ${fmt(rate / ceiling, 2)}; the follower reached the ` +
    `leader's tips (finalized block ${followerTips.finalized.block.number}). Its progress lines:`,
);
for (const l of follower.lines.filter((l) => l.module === 'sync' && (/^sync from/.test(l.msg) || l.level >= 40))) {
  console.log(`     ${l.level >= 40 ? 'WARN ' : ''}${l.msg}`);
}
benchResult(
  'sync',
  [
    {
      name: `follower catching up ${BLOCKS} mixed-size blocks over loopback RPC`,
      value: Number(rate.toFixed(1)),
      unit: 'blocks/s',
      baseline: {
        name: 'the same blocks applied locally (applyBlock; mean of a run before and after)',
        value: Number(ceiling.toFixed(1)),
      },
      ratio: rate / ceiling,
    },
  ],
  {
    engine: POSEIDON2_ENGINE,
    blocks: BLOCKS,
    txs: txCount,
    txsPerBlock: SIZES.join('/'),
    ceilingBefore: Number(before.toFixed(1)),
    ceilingAfter: Number(after.toFixed(1)),
  },
);

rmSync(dir, { recursive: true, force: true });

// ---- helpers ----

async function tips(url) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getL2Tips', params: [] }),
  });
  return (await res.json()).result;
}

/** `l2node start` on free loopback ports with JSON logs; resolves once it serves (and `ready` matched). */
async function startNode(args, ready = () => true) {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'start',
      '--port',
      '0',
      '--admin-port',
      '0',
      '--log-format',
      'json',
      '--disable-admin-api-key',
      '--prefunded-accounts',
      prefundedFlag,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_LOG_LEVEL: 'info' } },
  );
  children.add(child);
  const lines = [];
  const waiters = new Set();
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop();
    for (const p of parts) {
      if (!p.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(p));
      } catch {}
    }
    for (const w of waiters) w();
  });
  const waitFor = (match, timeoutMs = 60_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a log line')), timeoutMs);
      const check = () => {
        const found = lines.find(match);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
      child.once('exit', () => reject(new Error(`the node exited: ${lines.at(-1)?.msg}`)));
    });
  const listening = await waitFor((l) => l.msg === 'rpc listening');
  await waitFor((l) => l.msg === 'node running');
  await waitFor(ready);
  return {
    publicUrl: listening.publicUrl,
    lines,
    waitFor,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          children.delete(child);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
