// CLI start-up benchmark (issue 10): wall time of `l2node --version` and `l2node query tips` (against a dev node
// spawned here) beside a bare `node -e 0` measured in the same run. Target: both under 300 ms. Each command runs
// --warmup times first (V8's compile cache, which bin/run.js enables, fills then), then --runs times; the
// figures are the median and p90 of those runs. The node runs on CPU 0 and the commands on CPU 1 when taskset
// exists. Then the local network's two figures (issue 20): `l2node start` on a fresh data directory to its first
// JSON-RPC answer (--starts times; target under 1 s), and the official wallet's default wait for a tx in the
// default (instant) mode, timed by test/e2e/local-network.test.ts (--wallet-waits txs; target under 1.5 s), beside
// one node_getTxReceipt round trip of the same run. Then `l2node start --l1 anvil` (issue 21) on a fresh data
// directory to serving: node_getBlockNumber answers and the rollup node_getL1ContractAddresses names has code on the
// node's anvil (--l1-starts times, 0 skips it), split by the node's info log lines into its own start, anvil up and
// the deployment, beside a plain `l2node start` and anvil alone (to eth_chainId) timed as often in the same run.
// Usage: node bench/cli/run.js [--runs 20] [--warmup 3] [--starts 5] [--wallet-waits 10] [--l1-starts 5]
// (needs `npm run build`)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http } from 'viem';
import { foundryBinary } from '../../dist/daemon/l1/foundry-binary.js';
import { benchResult } from '../bench-result.js';
import { onLogRecords } from '../node-log-records.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(args[i + 1]);
};
const runs = opt('runs', 20);
const warmup = opt('warmup', 3);
const starts = opt('starts', 5);
const walletWaits = opt('wallet-waits', 10);
const l1Starts = opt('l1-starts', 5);
const TARGET_MS = 300;
const START_TARGET_MS = 1000;
const WAIT_TARGET_MS = 1500;

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
if (!existsSync(fileURLToPath(new URL('../../oclif.manifest.json', import.meta.url)))) {
  process.stderr.write('bench/cli needs the built CLI and its manifest: run `npm run build` first.\n');
  process.exit(1);
}

const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const onCpu = (cpu, argv) => (hasTaskset ? ['taskset', ['-c', String(cpu), ...argv]] : [argv[0], argv.slice(1)]);

function startNode() {
  const [cmd, argv] = onCpu(0, [
    process.execPath,
    BIN,
    'start',
    ...['--port', '0', '--admin-port', '0', '--log-format', 'json', '--no-save-api-key'],
    // The local network set-up (test accounts deployed at first start) would run beside the figures: off.
    ...['--local-network-setup', 'false'],
  ]);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('NODE_') || k === 'NODE_OPTIONS'),
  );
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    onLogRecords(child.stdout, (record) => {
      if (record.msg === 'rpc listening') resolve({ child, url: record.publicUrl });
    });
    child.once('exit', (code) => reject(new Error(`the node exited with ${code} before listening`)));
  });
}

/** Wall time of one run in ms; the command must succeed. */
function timeOnce(argv) {
  const [cmd, rest] = onCpu(1, argv);
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, rest, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.slice(1).join(' ')} exited with ${r.status}: ${r.stderr}`);
  return ms;
}

/** Median, p90, minimum and maximum of some timings. */
function quantiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), min: sorted[0], max: sorted[sorted.length - 1] };
}

function measure(argv) {
  for (let i = 0; i < warmup; i++) timeOnce(argv);
  return quantiles(Array.from({ length: runs }, () => timeOnce(argv)));
}

/** A median beside the same run's baseline median, for the report. */
function medianFigure(name, median, baselineName, baselineMedian, targetMs) {
  return {
    name: `${name} median`,
    value: Number(median.toFixed(1)),
    unit: 'ms',
    baseline: { name: baselineName, value: Number(baselineMedian.toFixed(1)) },
    ratio: median / baselineMedian,
    target: targetMs === undefined ? undefined : `< ${targetMs} ms`,
    lowerIsBetter: true,
  };
}

/** Milliseconds from `t` (a process.hrtime.bigint()) to now. */
const msSince = (t) => Number(process.hrtime.bigint() - t) / 1e6;

/** Resolves `ready()`'s first defined answer, asking every 2 ms; a refused or failed ask counts as not yet. */
async function firstAnswer(ready) {
  for (;;) {
    try {
      const answer = await ready();
      if (answer !== undefined) return answer;
    } catch {
      // Not answering yet.
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function jsonRpc(url, method, params = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()).result;
}

/** The milestones of an `--l1 anvil` start, by the node's log messages (info level), in the order they come. */
const L1_MILESTONES = [
  ['starting anvil', (msg) => msg === 'starting anvil'],
  ['anvil listening', (msg) => msg.startsWith('anvil listening on')],
  ['deployed', (msg) => msg.startsWith("deployed Aztec's L1 contracts")],
];

/**
 * Spawns `l2node start` (fresh data directory, ports 0, plus `extraArgs`) and times it to serving: its first
 * node_getBlockNumber answer, and with `--l1 anvil` also node_getL1ContractAddresses naming a rollup that has
 * code on the node's anvil (eth_getCode through viem). Answers the total in ms and, with an L1, its phases: the
 * node up to starting anvil, anvil up, the deployment (anvil listening to the contracts deployed), and the rest
 * up to serving.
 */
async function timeStart(extraArgs = []) {
  const l1 = extraArgs.includes('--l1');
  const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-bench-start-'));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('NODE_') || k === 'NODE_OPTIONS'),
  );
  const t = process.hrtime.bigint();
  const [cmd, argv] = onCpu(0, [
    process.execPath,
    ...[BIN, 'start', '--port', '0', '--admin-port', '0', '--data-directory', dataDirectory, '--no-save-api-key'],
    ...['--local-network-setup', 'false'],
    ...extraArgs,
  ]);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'ignore'], env });
  const seen = {};
  let anvilUrl;
  try {
    const url = await new Promise((resolve, reject) => {
      onLogRecords(child.stdout, (record) => {
        for (const [name, matches] of L1_MILESTONES)
          if (seen[name] === undefined && matches(record.msg)) seen[name] = msSince(t);
        if (record.msg?.startsWith('anvil listening on')) anvilUrl = record.rpcUrl;
        if (record.msg === 'rpc listening') resolve(record.publicUrl);
      });
      child.once('exit', (code) =>
        reject(new Error(`l2node start ${extraArgs.join(' ')} exited with ${code} before listening`)),
      );
    });
    await firstAnswer(async () => ((await jsonRpc(url, 'node_getBlockNumber')) === undefined ? undefined : true));
    if (!l1) return { total: msSince(t) };
    const client = createPublicClient({ transport: http(anvilUrl) });
    await firstAnswer(async () => {
      const rollup = (await jsonRpc(url, 'node_getL1ContractAddresses'))?.rollupAddress;
      const code = rollup && (await client.getCode({ address: rollup }));
      return code && code !== '0x' ? true : undefined;
    });
    const total = msSince(t);
    const missing = L1_MILESTONES.map(([name]) => name).filter((name) => seen[name] === undefined);
    if (missing.length > 0) throw new Error(`the node did not log ${missing.join(', ')} at info level`);
    return {
      total,
      phases: {
        boot: seen['starting anvil'],
        anvil: seen['anvil listening'] - seen['starting anvil'],
        deploy: seen.deployed - seen['anvil listening'],
        serving: total - seen.deployed,
      },
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

/**
 * The baseline of the L1 start: anvil alone, the binary and arguments the node runs (its state in a fresh
 * directory), from spawn to answering eth_chainId. Milliseconds.
 */
async function anvilAlone() {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-bench-anvil-'));
  const t = process.hrtime.bigint();
  const [cmd, argv] = onCpu(0, [
    foundryBinary('anvil'),
    ...['--host', '127.0.0.1', '--port', '0', '--chain-id', '31337'],
    ...['--state', join(dataDirectory, 'anvil-state.json'), '--state-interval', '5'],
  ]);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let buffer = '';
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        buffer += chunk;
        const listening = /Listening on \S+:(\d+)/.exec(buffer);
        if (listening) resolve(`http://127.0.0.1:${listening[1]}`);
      });
      child.once('exit', (code) => reject(new Error(`anvil exited with ${code} before listening`)));
    });
    await firstAnswer(async () => jsonRpc(url, 'eth_chainId'));
    return msSince(t);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

/** `times` runs of `once` one after the other. */
async function repeat(times, once) {
  const results = [];
  for (let i = 0; i < times; i++) results.push(await once());
  return results;
}

/** The wallet's default wait per tx and one receipt round trip, as the local network e2e test times them. */
function walletWait() {
  const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [vitest, 'run', 'test/e2e/local-network.test.ts'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, L2NODE_WALLET_WAIT_RUNS: String(walletWaits) },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const line = /wallet-wait: (\{.*\})/.exec(r.stdout ?? '');
  if (r.status !== 0 || !line) throw new Error(`test/e2e/local-network.test.ts failed (exit ${r.status})`);
  return JSON.parse(line[1]);
}

/**
 * `l2node start --l1 anvil` to serving, --l1-starts times, beside the same run's baselines: a plain `l2node start`
 * (the dev stand-in) to its first answer and anvil alone to its first eth_chainId answer, each as often. Prints
 * min, median and max of each and of the L1 start's phases; answers the report's figures.
 */
async function l1StartRows() {
  const l1Runs = await repeat(l1Starts, () => timeStart(['--l1', 'anvil']));
  const plain = quantiles(await repeat(l1Starts, async () => (await timeStart()).total));
  const anvil = quantiles(await repeat(l1Starts, anvilAlone));
  const total = quantiles(l1Runs.map((r) => r.total));
  const phase = (name) => quantiles(l1Runs.map((r) => r.phases[name]));
  const phases = {
    boot: phase('boot'),
    anvil: phase('anvil'),
    deploy: phase('deploy'),
    serving: phase('serving'),
    node: quantiles(l1Runs.map((r) => r.phases.boot + r.phases.serving)),
  };
  process.stdout.write(
    `\nl2node start --l1 anvil to serving (node_getBlockNumber answers, the rollup it reports has code on anvil), ` +
      `${l1Starts} starts on fresh data directories, beside the same run's baselines\n` +
      `${''.padEnd(52)}${'min'.padStart(10)}${'median'.padStart(10)}${'max'.padStart(10)}\n`,
  );
  const row = (name, q) =>
    process.stdout.write(
      `${name.padEnd(52)}${[q.min, q.median, q.max].map((v) => `${v.toFixed(0)} ms`.padStart(10)).join('')}\n`,
    );
  row('l2node start --l1 anvil to serving', total);
  row('  node start up to spawning anvil', phases.boot);
  row('  anvil up (spawn to listening)', phases.anvil);
  row('  contracts deployed (forge)', phases.deploy);
  row('  deployed to serving', phases.serving);
  row('l2node start to first answer (baseline, stand-in)', plain);
  row('anvil alone to first eth_chainId (baseline)', anvil);
  const mmm = (q) => [q.min, q.median, q.max].map((v) => Math.round(v));
  return {
    minMedianMax: {
      l1Start: mmm(total),
      anvilUp: mmm(phases.anvil),
      deploy: mmm(phases.deploy),
      nodeOwn: mmm(phases.node),
      plainStart: mmm(plain),
      anvilAlone: mmm(anvil),
    },
    figures: [
      medianFigure(
        'l2node start --l1 anvil to serving',
        total.median,
        'l2node start to first answer (stand-in)',
        plain.median,
      ),
      medianFigure('--l1 anvil start: anvil up', phases.anvil.median, 'anvil alone to first eth_chainId', anvil.median),
      {
        name: '--l1 anvil start: contracts deployed (forge) median',
        value: Number(phases.deploy.median.toFixed(1)),
        unit: 'ms',
      },
      medianFigure(
        '--l1 anvil start: the node itself (total less anvil and deployment)',
        phases.node.median,
        'l2node start to first answer (stand-in)',
        plain.median,
      ),
    ],
  };
}

const { child, url } = await startNode();
try {
  const rows = [
    ['node -e 0 (baseline)', measure([process.execPath, '-e', '0'])],
    ['l2node --version', measure([process.execPath, BIN, '--version'])],
    ['l2node query tips', measure([process.execPath, BIN, 'query', 'tips', '--node-url', url])],
  ];
  const baseline = rows[0][1].median;
  process.stdout.write(
    `CLI start-up, ${runs} runs after ${warmup} warm-up runs${hasTaskset ? ' (commands on CPU 1, node on CPU 0)' : ''}; target < ${TARGET_MS} ms\n`,
  );
  process.stdout.write(
    `${'command'.padEnd(24)}${'median'.padStart(10)}${'p90'.padStart(10)}${'min'.padStart(10)}${'over node -e 0'.padStart(17)}\n`,
  );
  for (const [name, r] of rows) {
    const over = name.startsWith('node') ? '' : `+${(r.median - baseline).toFixed(0)} ms`;
    const verdict = name.startsWith('node') ? '' : r.median < TARGET_MS ? '  ok' : '  OVER TARGET';
    process.stdout.write(
      `${name.padEnd(24)}${`${r.median.toFixed(0)} ms`.padStart(10)}${`${r.p90.toFixed(0)} ms`.padStart(10)}${`${r.min.toFixed(0)} ms`.padStart(10)}${over.padStart(17)}${verdict}\n`,
    );
  }
  child.kill('SIGTERM');

  const start = quantiles(await repeat(starts, async () => (await timeStart()).total));
  const l1 = l1Starts > 0 ? await l1StartRows() : undefined;
  const wait = walletWait();
  const waitQ = quantiles(wait.waitMs);
  const receiptQ = quantiles(wait.receiptMs);
  process.stdout.write(
    `\nLocal network: l2node start to first answer, ${starts} starts on fresh data directories; the official wallet's ` +
      `default wait (waitForTx until checkpointed) for ${wait.runs} txs in instant mode\n`,
  );
  const line = (name, q, target) =>
    process.stdout.write(
      `${name.padEnd(40)}${`${q.median.toFixed(0)} ms`.padStart(10)}${`${q.p90.toFixed(0)} ms`.padStart(10)}${`${q.min.toFixed(0)} ms`.padStart(10)}` +
        `${target ? (q.median < target ? '  ok' : '  OVER TARGET') : ''}\n`,
    );
  line('l2node start to first answer', start, START_TARGET_MS);
  line("wallet's default wait for a tx", waitQ, WAIT_TARGET_MS);
  line('node_getTxReceipt round trip (baseline)', receiptQ);

  benchResult(
    'cli',
    [
      ...rows.slice(1).map(([name, r]) => medianFigure(name, r.median, 'node -e 0', baseline, TARGET_MS)),
      medianFigure('l2node start to first answer', start.median, 'node -e 0', baseline, START_TARGET_MS),
      ...(l1?.figures ?? []),
      medianFigure(
        "wallet's default wait for a tx",
        waitQ.median,
        'node_getTxReceipt round trip',
        receiptQ.median,
        WAIT_TARGET_MS,
      ),
    ],
    { runs, warmup, starts, l1Starts, walletWaits: wait.runs, ...(l1 ? { l1StartMs: l1.minMedianMax } : {}) },
  );
} finally {
  child.kill('SIGTERM');
}
