// P2P benchmark (issue 28): five nodes on loopback joined over libp2p (one bootstrap node, four that know only its
// ENR), none building blocks so every tx stays in every pool. Measured in one run:
//   - propagation: a tx sent to one node (round robin) until all five pools hold it, p50 and p99, beside the
//     node_sendTx call alone (the tx in the first pool) of the same txs;
//   - throughput: a burst of txs sent to one node until the four others hold them all (txs/s through gossip),
//     beside the node_sendTx rate of that node for the same burst.
// Pools are probed over JSON-RPC (node_getTxByHash, node_getPendingTxCount) in a tight loop: the figures include
// one probe's round trip (a few ms). Usage: npm run build && node bench/p2p/run.js [txs=60] [burst=200]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AztecAddress } from '../../dist/core/aztec-address.js';
import { BlockHeader } from '../../dist/core/block/block-header.js';
import { Fr } from '../../dist/core/fr.js';
import { GasFees } from '../../dist/core/gas/gas-fees.js';
import { TxBuilder } from '../../dist/core/tx/tx-builder.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../dist/daemon/config/published-chain-values.js';
import { resolveConfig } from '../../dist/daemon/config/resolve-config.js';
import { genesisPublicData } from '../../dist/daemon/sequencer/genesis-funding.js';
import { openNodeDatabase } from '../../dist/daemon/store/node-database.js';
import { WorldState } from '../../dist/daemon/world-state/world-state.js';
import { benchResult } from '../bench-result.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TXS = Number(process.argv[2] ?? 60);
const BURST = Number(process.argv[3] ?? 200);
if (!(TXS >= 10) || !(BURST >= 10)) {
  console.error('usage: node bench/p2p/run.js [txs >= 10] [burst >= 10]');
  process.exit(2);
}
const NODES = 5;
const PAYER = new AztecAddress(0x5eedn);
const PREFUNDED = `${PAYER}:${10n ** 24n}`;
const configHome = mkdtempSync(join(tmpdir(), 'l2node-bench-p2p-'));

// ---- the nodes ----
const children = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGTERM');
});

async function startNode(extra) {
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin/run.js'),
      'start',
      '--port',
      '0',
      '--admin-port',
      '0',
      '--prefunded-accounts',
      PREFUNDED,
      '--disable-admin-api-key',
      '--sequencer-mode',
      'off',
      '--p2p-enabled',
      '--p2p-port',
      '0',
      '--p2p-listen-address',
      '127.0.0.1',
      '--json',
      ...extra,
    ],
    { cwd: root, env: { ...process.env, XDG_CONFIG_HOME: configHome }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      buf = (buf + chunk).slice(-100_000);
      const m = /"publicUrl":"([^"]+)","adminUrl":"([^"]+)"/.exec(buf);
      if (m) resolve({ url: m[1], adminUrl: m[2] });
    });
    child.once('exit', (code) => {
      if (code) process.stderr.write(`a node exited (${code}); its last output:\n${buf.slice(-4000)}\n`);
      reject(new Error(`a node exited (${code}) before listening`));
    });
  });
}

async function post(at, body) {
  // A keep-alive socket the node closes just as a request goes out fails that request: it is sent again.
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(at, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return await res.json();
    } catch (err) {
      if (attempt >= 3 || children.some((c) => c.exitCode !== null)) throw err;
    }
  }
}

async function rpc(at, method, params = []) {
  const body = await post(at, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function waitFor(what, probe, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const bootstrap = await startNode([]);
const enr = await rpc(bootstrap.url, 'node_getEncodedEnr');
const nodes = [
  bootstrap,
  ...(await Promise.all(Array.from({ length: NODES - 1 }, () => startNode(['--bootstrap-nodes', enr])))),
];
await waitFor('every node to have a handshaken peer', async () => {
  const peers = await Promise.all(nodes.map((n) => rpc(n.adminUrl, 'nodeAdmin_getPeers')));
  return peers.every((p) => p.some((x) => x.status)) ? true : undefined;
});

// ---- the txs ----
const { config } = resolveConfig({ 'prefunded-accounts': PREFUNDED }, {});
const db = openNodeDatabase(null);
const ws = WorldState.open(db, { genesisPublicData: genesisPublicData(config) });
const builder = new TxBuilder({
  chainId: 31337n,
  rollupVersion: 1n,
  vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
  protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  anchorBlockHeader: BlockHeader.empty({ state: ws.getInitialStateReference() }),
});
db.close();
const fees = await rpc(bootstrap.url, 'node_getCurrentMinFees');
const maxFee = 2n * BigInt(fees.feePerL2Gas);
let nonce = 0n;
const nextTx = () =>
  builder.build({
    feePayer: PAYER,
    txRequestHash: new Fr(++nonce + 5_000_000n),
    maxFeesPerGas: new GasFees(0n, maxFee),
  });

const everywhere = async (hash) =>
  (await Promise.all(nodes.map((n) => rpc(n.url, 'node_getTxByHash', [hash])))).every(
    (t) => t !== null && t !== undefined,
  );

// Warm-up: the gossipsub mesh forms over a few heartbeats; the first tx reaches everyone once it has.
const warm = nextTx();
await rpc(bootstrap.url, 'node_sendTx', [warm.toJSON()]);
await waitFor('the warm-up tx on every node', () => everywhere(warm.txHash.toString()));

// ---- propagation ----
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const toAll = [];
const sendOnly = [];
for (let i = 0; i < TXS; i++) {
  const tx = nextTx();
  const at = nodes[i % NODES];
  const t0 = performance.now();
  await rpc(at.url, 'node_sendTx', [tx.toJSON()]);
  sendOnly.push(performance.now() - t0);
  const hash = tx.txHash.toString();
  while (!(await everywhere(hash))) {
    if (performance.now() - t0 > 60_000) throw new Error(`tx ${hash} did not reach every node in 60 s`);
  }
  toAll.push(performance.now() - t0);
}

// ---- throughput ----
const before = await Promise.all(nodes.map((n) => rpc(n.url, 'node_getPendingTxCount')));
const burst = Array.from({ length: BURST }, () => JSON.stringify(nextTx().toJSON()));
const t0 = performance.now();
let sent = 0;
const sender = async () => {
  while (sent < burst.length) {
    const json = burst[sent++];
    const res = await post(bootstrap.url, `{"jsonrpc":"2.0","id":1,"method":"node_sendTx","params":[${json}]}`);
    if (res.error) throw new Error(`node_sendTx: ${res.error.message}`);
  }
};
const gossiped = (async () => {
  for (;;) {
    const counts = await Promise.all(nodes.slice(1).map((n) => rpc(n.url, 'node_getPendingTxCount')));
    if (counts.every((c, i) => c >= before[i + 1] + BURST)) return performance.now() - t0;
    if (performance.now() - t0 > 300_000) throw new Error('the burst did not reach every node in 300 s');
    await new Promise((r) => setTimeout(r, 10));
  }
})();
await Promise.all(Array.from({ length: 8 }, sender));
const sendMs = performance.now() - t0;
const gossipMs = await gossiped;
const sendRate = (BURST / sendMs) * 1000;
const gossipRate = (BURST / gossipMs) * 1000;

const r = (x) => Math.round(x * 10) / 10;
const figures = [
  {
    name: `tx propagation to all ${NODES} nodes, p50`,
    value: r(quantile(toAll, 0.5)),
    unit: 'ms',
    baseline: { name: 'node_sendTx to one node, p50', value: r(quantile(sendOnly, 0.5)) },
    ratio: r(quantile(toAll, 0.5) / quantile(sendOnly, 0.5)),
    lowerIsBetter: true,
  },
  {
    name: `tx propagation to all ${NODES} nodes, p99`,
    value: r(quantile(toAll, 0.99)),
    unit: 'ms',
    baseline: { name: 'node_sendTx to one node, p99', value: r(quantile(sendOnly, 0.99)) },
    ratio: r(quantile(toAll, 0.99) / quantile(sendOnly, 0.99)),
    lowerIsBetter: true,
  },
  {
    name: `gossip throughput (${BURST} txs to one node, held by the ${NODES - 1} others)`,
    value: r(gossipRate),
    unit: 'txs/s',
    baseline: { name: 'node_sendTx rate of that node (8 clients)', value: r(sendRate) },
    ratio: r(gossipRate / sendRate),
  },
];
for (const f of figures) console.log(`${f.name}: ${f.value} ${f.unit} (${f.baseline.name}: ${f.baseline.value})`);
benchResult('p2p', figures, { nodes: NODES, txs: TXS, burst: BURST, probe: 'JSON-RPC, tight loop' });
process.exit(0);
