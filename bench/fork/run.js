// Forking (issue 31): how long `l2node start --fork-url` takes to serve, and the first tx on the fork to be
// mined, beside a plain dev start and the same tx on it (same run, interleaved), with the upstream calls the fork
// made (counted by a proxy in front of the upstream, batch items counted one by one). The upstream is a dev node
// of BLOCKS empty blocks; each round forks it three ways: replay mode at its latest block (blocks 1 to BLOCKS
// re-executed), lazy mode at its latest block and lazy mode at BLOCKS/10, to show the lazy start does not grow
// with the fork block (docs/dev-chain.md, "Forking a network").
//
//   npm run build && node bench/fork/run.js [blocks=100] [rounds=3]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { GasFees } from '../../dist/core/gas/gas-fees.js';
import { TEST_ACCOUNTS } from '../../dist/core/test-accounts.js';
import { TxBuilder } from '../../dist/core/tx/tx-builder.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../dist/daemon/config/published-chain-values.js';
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

/** Starts a fork through the counting proxy, then sends the first tx on it: ms and upstream calls of each. */
async function forkRun(proxy, args) {
  proxy.take();
  const fork = await start(['--fork-url', proxy.url, ...args]);
  const startCalls = proxy.take();
  try {
    const txMs = await firstTx(fork);
    return { startMs: fork.ms, startCalls, txMs, txCalls: proxy.take() };
  } finally {
    await fork.stop();
  }
}

const small = Math.max(1, Math.floor(blocks / 10));
const upstream = await start([]);
await call(upstream.adminUrl, 'nodeDev_mineBlocks', [blocks], upstream.key);
const proxy = await countingProxy(upstream.publicUrl);
const plainStart = [];
const plainTx = [];
const runs = { replay: [], lazy: [], lazySmall: [] };
try {
  for (let r = 0; r < rounds; r++) {
    const plain = await start([]);
    plainStart.push(plain.ms);
    plainTx.push(await firstTx(plain));
    await plain.stop();
    runs.replay.push(await forkRun(proxy, ['--fork-mode', 'replay']));
    runs.lazy.push(await forkRun(proxy, ['--fork-mode', 'lazy']));
    runs.lazySmall.push(await forkRun(proxy, ['--fork-mode', 'lazy', '--fork-block', String(small)]));
  }
} finally {
  await proxy.close();
  await upstream.stop();
}
const ps = median(plainStart);
const pt = median(plainTx);
const of = (list, key) => median(list.map((x) => x[key]));
console.log(`plain dev start ${ps.toFixed(0)} ms, first tx ${pt.toFixed(0)} ms`);
for (const [label, list] of [
  [`replay fork at block ${blocks}`, runs.replay],
  [`lazy fork at block ${blocks}`, runs.lazy],
  [`lazy fork at block ${small}`, runs.lazySmall],
]) {
  console.log(
    `${label}: start ${of(list, 'startMs').toFixed(0)} ms (${of(list, 'startCalls')} upstream calls), first tx ` +
      `${of(list, 'txMs').toFixed(0)} ms (${of(list, 'txCalls')} upstream calls)`,
  );
}
const figures = [];
for (const [mode, at, list] of [
  ['replay', blocks, runs.replay],
  ['lazy', blocks, runs.lazy],
  ['lazy', small, runs.lazySmall],
]) {
  figures.push(
    {
      name: `${mode} fork at block ${at}: start to serving`,
      value: Math.round(of(list, 'startMs')),
      unit: 'ms',
      baseline: { name: 'plain dev start to serving', value: Math.round(ps) },
      ratio: of(list, 'startMs') / ps,
      lowerIsBetter: true,
    },
    {
      name: `${mode} fork at block ${at}: upstream calls during the start`,
      value: of(list, 'startCalls'),
      unit: 'calls',
    },
    {
      name: `${mode} fork at block ${at}: first tx, sent to mined`,
      value: Math.round(of(list, 'txMs')),
      unit: 'ms',
      baseline: { name: 'first tx on a plain dev node', value: Math.round(pt) },
      ratio: of(list, 'txMs') / pt,
      lowerIsBetter: true,
    },
    {
      name: `${mode} fork at block ${at}: upstream calls during the first tx`,
      value: of(list, 'txCalls'),
      unit: 'calls',
    },
  );
}
benchResult('fork', figures, { blocks, rounds });
