// Forking (issue 31): how long `l2node start --fork-url` takes to serve, and the first tx on the fork to be
// mined, beside a plain dev start and the same tx on it (same run, interleaved), with the upstream calls the fork
// made (counted by a proxy in front of the upstream, batch items counted one by one). The upstream is a dev node
// of BLOCKS empty blocks; the fork replays them all (docs/dev-chain.md, "Forking a network").
//
//   npm run build && node bench/fork/run.js [blocks=100] [rounds=3]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { GasFees } from '../../dist/core/gas/gas-fees.js';
import { TEST_ACCOUNTS } from '../../dist/core/test-accounts.js';
import { TxBuilder } from '../../dist/core/tx/tx-builder.js';
import { worldStateInput } from '../../dist/daemon/chain/apply-block.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../dist/daemon/config/published-chain-values.js';
import { RpcWitnessSource } from '../../dist/daemon/fork/rpc-witness-source.js';
import { UpstreamStateFetcher } from '../../dist/daemon/fork/upstream-state-fetcher.js';
import { openNodeDatabase } from '../../dist/daemon/store/node-database.js';
import { RpcUpstream } from '../../dist/daemon/sync/rpc-upstream.js';
import { WorldState } from '../../dist/daemon/world-state/world-state.js';
import { RPC_METHODS } from '../../dist/rpc/method-table.js';
import { benchResult } from '../bench-result.js';

const blocks = Number(process.argv[2] ?? 100);
const rounds = Number(process.argv[3] ?? 3);
const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Starts `l2node start --json` with `args`; resolves with its URLs, key and the ms to its banner. */
function start(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // The local network set-up (test accounts deployed at first start) would run beside the figures: off.
    const flags = [
      'start',
      '--local-network-setup',
      'false',
      '--port',
      '0',
      '--admin-port',
      '0',
      '--host',
      '127.0.0.1',
      '--json',
    ];
    const p = spawn(process.execPath, [BIN, ...flags, '--log-level', 'error', '--no-save-api-key', ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stderr.setEncoding('utf8').on('data', (c) => {
      err = (err + c).slice(-2000);
    });
    p.stdout.setEncoding('utf8').on('data', (c) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const banner = JSON.parse(out.slice(0, nl));
      if (!banner.result) return reject(new Error(`start failed: ${out}`));
      resolve({
        ms: performance.now() - started,
        publicUrl: banner.result.publicUrl,
        adminUrl: banner.result.adminUrl,
        key: banner.result.adminApiKey,
        stop: () => new Promise((r) => (p.once('exit', r), p.kill('SIGTERM'))),
      });
    });
    p.once('exit', (code) => reject(new Error(`l2node start ${args.join(' ')} exited with ${code}: ${out}${err}`)));
  });
}

async function call(url, method, params = [], key) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await r.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** A proxy in front of `target` counting JSON-RPC calls. */
async function countingProxy(target) {
  let calls = 0;
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const json = JSON.parse(body.toString('utf8'));
    calls += Array.isArray(json) ? json.length : 1;
    const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.writeHead(r.status, { 'content-type': 'application/json' });
    res.end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    take: () => {
      const n = calls;
      calls = 0;
      return n;
    },
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))),
  };
}

/** Sends one fee-paying tx from the first test account and times it until its receipt says mined. */
async function firstTx(node) {
  const anchor = RPC_METHODS.node_getBlockHeader.result.decode(
    await call(node.publicUrl, 'node_getBlockHeader', ['latest']),
  );
  const info = await call(node.publicUrl, 'node_getNodeInfo');
  const min = RPC_METHODS.node_getCurrentMinFees.result.decode(await call(node.publicUrl, 'node_getCurrentMinFees'));
  const tx = new TxBuilder({
    chainId: BigInt(info.l1ChainId),
    rollupVersion: BigInt(info.rollupVersion),
    vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
    protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
    anchorBlockHeader: anchor,
  }).build({
    feePayer: TEST_ACCOUNTS[0].address,
    maxFeesPerGas: new GasFees(min.feePerDaGas * 2n, min.feePerL2Gas * 2n),
  });
  const started = performance.now();
  await call(node.publicUrl, 'node_sendTx', [tx.toJSON()]);
  for (;;) {
    const receipt = await call(node.publicUrl, 'node_getTxReceipt', [tx.txHash.toString()]);
    if (receipt && receipt.blockNumber) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The lazy fork's world state (not yet what `start --fork-url` runs): opened on the upstream's block N through
 * `via` (the counting proxy), its frontiers fetched; then the fork's blocks past N applied on it, fetching what
 * they touch. Returns the ms and upstream calls of each part.
 */
async function lazyWorldState(via, fork) {
  const limit = 64 << 20;
  const started = performance.now();
  const chain = new RpcUpstream({ url: via, maxResponseSize: limit });
  const n = (await chain.tips()).proposed.number;
  const [atN] = await chain.blocks(n, 1);
  const ws = WorldState.openSparse(openNodeDatabase(null), {
    blockNumber: n,
    blockHash: atN.hash().value,
    state: atN.header.state,
    archive: atN.archive,
  });
  const fetcher = new UpstreamStateFetcher(ws, new RpcWitnessSource({ url: via, maxResponseSize: limit }));
  await fetcher.fetchFrontiers();
  const openMs = performance.now() - started;
  const openCalls = 2 + fetcher.calls;
  const ours = new RpcUpstream({ url: fork.publicUrl, maxResponseSize: limit });
  const blocks = await ours.blocks(n + 1, 100);
  const applyStarted = performance.now();
  for (const b of blocks) {
    const messages = b.indexWithinCheckpoint === 0 ? ((await ours.l1ToL2Messages(b.checkpointNumber)) ?? []) : [];
    const input = worldStateInput(b, messages, (await ours.stateOverrides(b.number)) ?? []);
    await fetcher.run(() => ws.applyBlock(input));
  }
  return {
    openMs,
    openCalls,
    applyMs: performance.now() - applyStarted,
    applyCalls: fetcher.calls + 2 - openCalls,
    blocks: blocks.length,
  };
}

const upstream = await start([]);
await call(upstream.adminUrl, 'nodeDev_mineBlocks', [blocks], upstream.key);
const proxy = await countingProxy(upstream.publicUrl);
const plainStart = [];
const forkStart = [];
const plainTx = [];
const forkTx = [];
const startCalls = [];
const txCalls = [];
const lazy = [];
try {
  for (let r = 0; r < rounds; r++) {
    const plain = await start([]);
    plainStart.push(plain.ms);
    plainTx.push(await firstTx(plain));
    await plain.stop();
    proxy.take();
    const fork = await start(['--fork-url', proxy.url]);
    forkStart.push(fork.ms);
    startCalls.push(proxy.take());
    forkTx.push(await firstTx(fork));
    txCalls.push(proxy.take());
    lazy.push(await lazyWorldState(proxy.url, fork));
    proxy.take();
    await fork.stop();
  }
} finally {
  await proxy.close();
  await upstream.stop();
}
const fs = median(forkStart);
const ps = median(plainStart);
const ft = median(forkTx);
const pt = median(plainTx);
console.log(
  `fork of ${blocks} blocks: start ${fs.toFixed(0)} ms (${median(startCalls)} upstream calls), first tx ${ft.toFixed(0)} ms ` +
    `(${median(txCalls)} upstream calls); plain dev start ${ps.toFixed(0)} ms, first tx ${pt.toFixed(0)} ms`,
);
const lo = median(lazy.map((l) => l.openMs));
const la = median(lazy.map((l) => l.applyMs));
console.log(
  `lazy world state: open on block ${blocks} with frontiers ${lo.toFixed(0)} ms (${median(lazy.map((l) => l.openCalls))} upstream calls); ` +
    `the fork's ${lazy[0].blocks} new block(s) applied on it ${la.toFixed(0)} ms (${median(lazy.map((l) => l.applyCalls))} upstream calls)`,
);
benchResult(
  'fork',
  [
    {
      name: `fork start to serving (${blocks}-block upstream)`,
      value: Math.round(fs),
      unit: 'ms',
      baseline: { name: 'plain dev start to serving', value: Math.round(ps) },
      ratio: fs / ps,
      lowerIsBetter: true,
    },
    {
      name: 'first tx on the fork, sent to mined',
      value: Math.round(ft),
      unit: 'ms',
      baseline: { name: 'first tx on a plain dev node', value: Math.round(pt) },
      ratio: ft / pt,
      lowerIsBetter: true,
    },
    { name: 'upstream calls during the fork start', value: median(startCalls), unit: 'calls' },
    { name: 'upstream calls during the first tx on the fork', value: median(txCalls), unit: 'calls' },
    {
      name: "lazy fork world state (not yet used by start): open on the upstream's block N, frontiers fetched",
      value: Math.round(lo),
      unit: 'ms',
      baseline: { name: 'fork start to serving (replay)', value: Math.round(fs) },
      ratio: lo / fs,
      lowerIsBetter: true,
    },
    { name: 'upstream calls to open the lazy world state', value: median(lazy.map((l) => l.openCalls)), unit: 'calls' },
    {
      name: "the fork's new blocks (first tx) applied on the lazy world state, fetching what they touch",
      value: Math.round(la),
      unit: 'ms',
    },
    {
      name: 'upstream calls to apply them on the lazy world state',
      value: median(lazy.map((l) => l.applyCalls)),
      unit: 'calls',
    },
  ],
  { blocks, rounds },
);
