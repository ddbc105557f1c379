// Hostile-load benchmark (issue 26): the latency of node_getBlockNumber, probed every 100 ms, while
//   (a) 8 clients loop max-gas node_simulatePublicCalls (a contract whose public bytecode is
//       `POSEIDON2 0 0 0; JUMP_32 0`, default gas limits: seconds of AVM each), and
//   (b) 24 clients loop batches of 100 x node_getBlocks(1, 100),
// each beside the idle probe measured in the same run, against a spawned dev node (dist/). Target: p99 under
// 50 ms on 2 cores. The probe runs in a process of its own (probe.js), apart from the flooding clients here, so
// that their work never delays it; beside it, the node's own event-loop delay (p99, max) over each phase is read
// from its metrics (prom-client's monitorEventLoopDelay series). With BENCH_SOAK_SECONDS (e.g. 600) it also runs
// the soak: 32 clients mixing reads, sendTx and simulations, reporting the node's RSS each minute beside its
// database size. Beside the delay, the most CPU time the node's loop spent without coming back to its timers
// (bench/hostile/turn-cpu.js, preloaded): a figure a loaded machine's scheduler does not inflate.
// Usage: npm run build && node bench/hostile/run.js
// BENCH_HOSTILE_PHASE_MS: each flood's length (default 20000). BENCH_HOSTILE_PHASES: which floods to run
// (default `simulations,batches`). BENCH_NODE_OPTIONS: Node options for the node only (e.g. `--cpu-prof`).
// BENCH_NODE_STDOUT: a file for the node's stdout (e.g. with `--trace-gc`); BENCH_NODE_LOG: one for its log.
import { spawn } from 'node:child_process';
import { createWriteStream, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AztecAddress } from '../../dist/core/aztec-address.js';
import { BlockHeader } from '../../dist/core/block/block-header.js';
import { computeContractAddressFromInstance } from '../../dist/core/contract/contract-address.js';
import { ContractClassPublishedEvent } from '../../dist/core/contract/contract-class-published-event.js';
import { PublicKeys } from '../../dist/core/contract/public-keys.js';
import { Fr } from '../../dist/core/fr.js';
import { Gas } from '../../dist/core/gas/gas.js';
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
const PHASE_MS = Number(process.env.BENCH_HOSTILE_PHASE_MS ?? 20_000);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 0);
const PHASES = (process.env.BENCH_HOSTILE_PHASES ?? 'simulations,batches').split(',');
const PAYER = new AztecAddress(0x5eedn);
const PREFUNDED = `${PAYER}:${10n ** 24n}`;

// ---- the node ----
const turnCpuFile = join(tmpdir(), `l2node-bench-hostile-turn-cpu-${process.pid}.txt`);
writeFileSync(turnCpuFile, '');
const child = spawn(
  process.execPath,
  [
    ...(process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
    '--import',
    join(root, 'bench/hostile/turn-cpu.js'),
    join(root, 'bin/run.js'),
    'start',
    '--port',
    '0',
    '--admin-port',
    '0',
    '--prefunded-accounts',
    PREFUNDED,
    '--disable-admin-api-key',
    '--metrics-port',
    '0',
    '--json',
  ],
  {
    cwd: root,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(tmpdir(), 'l2node-bench-hostile'),
      TURN_CPU_FILE: turnCpuFile,
    },
    stdio: ['ignore', process.env.BENCH_NODE_STDOUT ? openSync(process.env.BENCH_NODE_STDOUT, 'w') : 'ignore', 'pipe'],
  },
);
const [url, adminUrl, metricsUrl] = await new Promise((resolve, reject) => {
  let buf = '';
  const log = process.env.BENCH_NODE_LOG ? createWriteStream(process.env.BENCH_NODE_LOG) : undefined;
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    log?.write(chunk);
    if (buf.length > 1e6) return;
    buf += chunk;
    const m = /"publicUrl":"([^"]+)","adminUrl":"([^"]+)"/.exec(buf);
    const metrics = /"metricsUrl":"([^"]+)"/.exec(buf);
    if (m && metrics) resolve([m[1], m[2], metrics[1]]);
  });
  child.once('exit', (code) => reject(new Error(`the node exited (${code}) before listening`)));
});
const stop = () => {
  child.kill('SIGTERM');
  rmSync(turnCpuFile, { force: true });
};
process.on('exit', stop);

async function rpc(method, params = [], at = url) {
  const res = await fetch(at, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return res.json();
}
async function batch(items) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
    body: JSON.stringify(items.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params }))),
  });
  // Read as it comes and dropped: decoding 24 answers of 16 MB here would stall this process's probe, not the node.
  let head = '';
  for await (const chunk of res.body) if (head === '') head = Buffer.from(chunk).subarray(0, 1).toString();
  return head;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- txs ----
const { config } = resolveConfig({ 'prefunded-accounts': PREFUNDED }, {});
const db = openNodeDatabase(null);
const genesis = BlockHeader.empty({
  state: WorldState.open(db, { genesisPublicData: genesisPublicData(config) }).getInitialStateReference(),
});
db.close();
const builder = new TxBuilder({
  chainId: 31337n,
  rollupVersion: 1n,
  vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
  protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  anchorBlockHeader: genesis,
});
const cls = {
  artifactHash: new Fr(0xf1n),
  privateFunctionsRoot: new Fr(0xf2n),
  packedBytecode: Buffer.from('3f00000000002300000000', 'hex'),
};
const classId = ContractClassPublishedEvent.create(
  cls.artifactHash,
  cls.privateFunctionsRoot,
  cls.packedBytecode,
).contractClassId;
const instance = {
  salt: new Fr(0x10f1n),
  contractClassId: classId,
  initializationHash: Fr.ZERO,
  publicKeys: PublicKeys.default(),
  deployer: AztecAddress.ZERO,
};
const LOOP = computeContractAddressFromInstance({ ...instance, originalContractClassId: classId });
const min = (await rpc('node_getCurrentMinFees')).result;
const maxFees = new GasFees(0n, 2n * BigInt(min.feePerL2Gas));
let nonce = 0;
const loopTx = (l2Gas) =>
  builder.build({
    feePayer: PAYER,
    maxFeesPerGas: maxFees,
    txRequestHash: new Fr(BigInt(90_000 + ++nonce)),
    publicCalls: { appLogic: [{ contractAddress: LOOP, msgSender: PAYER, calldata: [new Fr(1n)] }] },
    ...(l2Gas === undefined ? {} : { gasLimits: new Gas(1_000_000, l2Gas) }),
  });
const deploy = builder.build({
  feePayer: PAYER,
  maxFeesPerGas: maxFees,
  txRequestHash: new Fr(90_000n),
  publishContractClass: cls,
  publishContractInstances: [instance],
});
await rpc('node_sendTx', [deploy.toJSON()]);
while ((await rpc('node_getTxReceipt', [deploy.txHash.toString()])).result.status === 'pending') await sleep(200);
// Blocks for getBlocks(1, 100) to answer.
await rpc('nodeDev_mineBlocks', [100], adminUrl);

// ---- measuring ----
function percentiles(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), max: s.at(-1) ?? Number.NaN, n: s.length };
}
/** node_getBlockNumber every 100 ms for `ms`, from a process of its own (probe.js): its latencies' percentiles. */
async function probe(ms) {
  const p = spawn(process.execPath, [join(root, 'bench/hostile/probe.js')], {
    env: { ...process.env, PROBE_URL: url, PROBE_MS: String(ms) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  p.stdout.setEncoding('utf8').on('data', (c) => {
    out += c;
  });
  const code = await new Promise((r) => p.once('exit', r));
  if (code !== 0) throw new Error(`the probe exited with ${code}`);
  return percentiles(JSON.parse(out));
}
/**
 * The node's own event-loop delay since the previous call, in ms (prom-client's monitorEventLoopDelay series,
 * reset by each scrape): what any request waited on the node's loop, whatever the network and the bench did.
 */
async function nodeLoopDelay() {
  const text = await (await fetch(metricsUrl)).text();
  const read = (name) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1]) * 1000;
  return { p99: read('nodejs_eventloop_lag_p99_seconds'), max: read('nodejs_eventloop_lag_max_seconds') };
}
/**
 * The most CPU time (ms) the node's main thread spent in one stretch without coming back to its timers, between
 * `from` and `to` (bench/hostile/turn-cpu.js, preloaded into the node, writes each second's max).
 */
async function turnCpuMax(from, to) {
  await sleep(1100);
  let max = 0;
  for (const line of readFileSync(turnCpuFile, 'utf8').split('\n')) {
    const [t, ms] = line.split(' ').map(Number);
    if (t > from && t <= to + 1000) max = Math.max(max, ms);
  }
  return max;
}
async function underLoad(clients, work, ms = clients === 0 ? PHASE_MS / 2 : PHASE_MS) {
  let running = true;
  let calls = 0;
  const errors = {};
  // The node's delay is read from here on: the clients' first requests, which arrive together, are in the phase.
  await nodeLoopDelay();
  const from = Date.now();
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const e = await work();
      calls++;
      if (e) errors[e] = (errors[e] ?? 0) + 1;
    }
  });
  const p = await probe(ms);
  const loop = await nodeLoopDelay();
  const turnCpuMaxMs = await turnCpuMax(from, Date.now());
  running = false;
  await Promise.all(loops);
  return { ...p, calls, errors, loop: { ...loop, turnCpuMax: turnCpuMaxMs } };
}

const floodTxs = Array.from({ length: 64 }, () => loopTx());
const loadBefore = loadavg()[0];
let f = 0;
const idle1 = await underLoad(0);
const none = { p50: Number.NaN, p99: Number.NaN, max: Number.NaN, n: 0, calls: 0, errors: {}, loop: {} };
const sims = PHASES.includes('simulations')
  ? await underLoad(8, async () => {
      const a = await rpc('node_simulatePublicCalls', [floodTxs[f++ % floodTxs.length].toJSON()]);
      return a.error?.data?.setting ?? a.error?.message;
    })
  : none;
const getBlocksItems = Array.from({ length: 100 }, () => ['node_getBlocks', [1, 100]]);
const batches = PHASES.includes('batches')
  ? await underLoad(24, async () => {
      const text = await batch(getBlocksItems);
      return text.startsWith('[') ? undefined : 'not a batch answer';
    })
  : none;
const idle2 = await underLoad(0);
const idle = {
  p50: (idle1.p50 + idle2.p50) / 2,
  p99: Math.max(idle1.p99, idle2.p99),
  max: Math.max(idle1.max, idle2.max),
  loop: {
    p99: Math.max(idle1.loop.p99, idle2.loop.p99),
    max: Math.max(idle1.loop.max, idle2.loop.max),
    turnCpuMax: Math.max(idle1.loop.turnCpuMax, idle2.loop.turnCpuMax),
  },
};

// ---- soak ----
let soak;
if (SOAK_SECONDS > 0) {
  const pid = child.pid;
  const rssMb = () => {
    let status = '';
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      // The node is gone: no figure.
    }
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : Number.NaN;
  };
  const dbMb = () => {
    const dir = readdirSync(tmpdir()).find((n) => n.startsWith(`l2node-memory-${pid}-`));
    if (!dir) return Number.NaN;
    let bytes = 0;
    for (const f of readdirSync(join(tmpdir(), dir))) bytes += statSync(join(tmpdir(), dir, f)).size;
    return bytes / 2 ** 20;
  };
  /** The main thread's V8 heap in use (its metrics), beside RSS: a leak in JS objects shows there. */
  const heapMb = async () => {
    const text = await (await fetch(metricsUrl)).text();
    return Number(/^nodejs_heap_size_used_bytes ([0-9.e+]+)$/m.exec(text)?.[1]) / 2 ** 20;
  };
  /** Public execution worker threads started so far (both pools): a worker terminated over budget adds one. */
  const workersStarted = async () => {
    const text = await (await fetch(metricsUrl)).text();
    let n = 0;
    for (const m of text.matchAll(/^l2node_public_execution_workers_started_total\{[^}]*\} ([0-9.e+]+)$/gm)) {
      n += Number(m[1]);
    }
    return n;
  };
  const minutes = [];
  let running = true;
  let errors = 0;
  let requests = 0;
  /** Answers refused by a budget (LIMIT_EXCEEDED), by the setting they name. */
  const limited = {};
  const work = [
    () => rpc('node_getBlockNumber'),
    () => rpc('node_getBlocks', [1, 20]),
    () => rpc('node_sendTx', [loopTx(800_000).toJSON()]),
    () => rpc('node_simulatePublicCalls', [loopTx(800_000).toJSON()]),
  ];
  // A connection the node closed is counted, not fatal: the soak reports it beside whether the node still runs.
  let transportErrors = 0;
  const transportCauses = {};
  const loops = Array.from({ length: 32 }, async (_, i) => {
    while (running) {
      try {
        const a = await work[i % work.length]();
        if (a.error && a.error.code !== -32008) errors++;
        if (a.error?.code === -32008) {
          const setting = a.error.data?.setting ?? 'other';
          limited[setting] = (limited[setting] ?? 0) + 1;
        }
      } catch (err) {
        transportErrors++;
        const why = `${err.cause?.code ?? err.name}: ${err.cause?.message ?? err.message}`;
        transportCauses[why] = (transportCauses[why] ?? 0) + 1;
      }
      requests++;
    }
  });
  const start = Date.now();
  minutes.push({ minute: 0, rssMb: rssMb(), heapMb: await heapMb(), dbMb: dbMb(), workers: await workersStarted() });
  while (Date.now() - start < SOAK_SECONDS * 1000) {
    await sleep(Math.min(60_000, SOAK_SECONDS * 1000 - (Date.now() - start)));
    const minute = Math.round((Date.now() - start) / 60_000);
    minutes.push({ minute, rssMb: rssMb(), heapMb: await heapMb(), dbMb: dbMb(), workers: await workersStarted() });
    process.stdout.write(`soak: ${JSON.stringify(minutes.at(-1))}\n`);
  }
  running = false;
  await Promise.all(loops);
  soak = {
    seconds: SOAK_SECONDS,
    requests,
    errors,
    limited,
    transportErrors,
    transportCauses,
    nodeRunning: child.exitCode === null,
    minutes,
  };
}

stop();
const ratio = (v, b) => v / b;
benchResult(
  'hostile',
  [
    {
      name: 'getBlockNumber p50, 8 clients flooding max-gas simulations',
      value: sims.p50,
      unit: 'ms',
      baseline: { name: 'idle p50', value: idle.p50 },
      ratio: ratio(sims.p50, idle.p50),
      lowerIsBetter: true,
    },
    {
      name: 'getBlockNumber p99, 8 clients flooding max-gas simulations',
      value: sims.p99,
      unit: 'ms',
      baseline: { name: 'idle p99', value: idle.p99 },
      ratio: ratio(sims.p99, idle.p99),
      target: '< 50 ms',
      lowerIsBetter: true,
    },
    {
      name: 'getBlockNumber max, 8 clients flooding max-gas simulations',
      value: sims.max,
      unit: 'ms',
      baseline: { name: 'idle max', value: idle.max },
      ratio: ratio(sims.max, idle.max),
      lowerIsBetter: true,
    },
    {
      name: 'getBlockNumber p50, 24 clients of 100 x getBlocks(1,100) batches',
      value: batches.p50,
      unit: 'ms',
      baseline: { name: 'idle p50', value: idle.p50 },
      ratio: ratio(batches.p50, idle.p50),
      lowerIsBetter: true,
    },
    {
      name: 'getBlockNumber p99, 24 clients of 100 x getBlocks(1,100) batches',
      value: batches.p99,
      unit: 'ms',
      baseline: { name: 'idle p99', value: idle.p99 },
      ratio: ratio(batches.p99, idle.p99),
      target: '< 50 ms',
      lowerIsBetter: true,
    },
    {
      name: 'getBlockNumber max, 24 clients of 100 x getBlocks(1,100) batches',
      value: batches.max,
      unit: 'ms',
      baseline: { name: 'idle max', value: idle.max },
      ratio: ratio(batches.max, idle.max),
      lowerIsBetter: true,
    },
  ],
  {
    phaseMs: PHASE_MS,
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    probe:
      'node_getBlockNumber every 100 ms from a process of its own (bench/hostile/probe.js), apart from the flooding clients',
    nodeEventLoopDelayMs:
      "the node's own event-loop delay over each phase (its metrics: monitorEventLoopDelay p99 and max); turnCpuMax: the most main-thread CPU time between two runs of a 1 ms timer (bench/hostile/turn-cpu.js), which a loaded machine does not inflate",
    idle: { probes: idle1.n + idle2.n, nodeEventLoopDelayMs: idle.loop },
    simulations: { calls: sims.calls, errors: sims.errors, probes: sims.n, nodeEventLoopDelayMs: sims.loop },
    batches: { calls: batches.calls, errors: batches.errors, probes: batches.n, nodeEventLoopDelayMs: batches.loop },
    ...(soak ? { soak } : {}),
  },
);
process.exit(0);
