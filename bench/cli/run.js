// CLI start-up benchmark (issue 10): wall time of `l2node --version` and `l2node query tips` (against a dev node
// spawned here) beside a bare `node -e 0` measured in the same run. Target: both under 300 ms. Each command runs
// --warmup times first (V8's compile cache, which bin/run.js enables, fills then), then --runs times; the
// figures are the median and p90 of those runs. The node runs on CPU 0 and the commands on CPU 1 when taskset
// exists. Then the local network's two figures (issue 20): `l2node start` on a fresh data directory to its first
// JSON-RPC answer (--starts times; target under 1 s), and the official wallet's default wait for a tx in the
// default (instant) mode, timed by test/e2e/local-network.test.ts (--wallet-waits txs; target under 1.5 s), beside
// one node_getTxReceipt round trip of the same run.
// Usage: node bench/cli/run.js [--runs 20] [--warmup 3] [--starts 5] [--wallet-waits 10]   (needs `npm run build`)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchResult } from '../bench-result.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(args[i + 1]);
};
const runs = opt('runs', 20);
const warmup = opt('warmup', 3);
const starts = opt('starts', 5);
const walletWaits = opt('wallet-waits', 10);
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
  ]);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('NODE_') || k === 'NODE_OPTIONS'),
  );
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      for (const line of buffer.split('\n')) {
        if (!line.startsWith('{')) continue;
        const record = JSON.parse(line);
        if (record.msg === 'rpc listening') resolve({ child, url: record.publicUrl });
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
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

/** Median, p90 and minimum of some timings. */
function quantiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), min: sorted[0] };
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
    target: `< ${targetMs} ms`,
    lowerIsBetter: true,
  };
}

/** Milliseconds from spawning `l2node start` (fresh data directory, no other flags but ports) to its first answer. */
async function startToFirstAnswer() {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-bench-start-'));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('NODE_') || k === 'NODE_OPTIONS'),
  );
  const t = process.hrtime.bigint();
  const [cmd, argv] = onCpu(0, [
    process.execPath,
    ...[BIN, 'start', '--port', '0', '--admin-port', '0', '--data-directory', dataDirectory, '--no-save-api-key'],
  ]);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'ignore'], env });
  try {
    const url = await new Promise((resolve, reject) => {
      let buffer = '';
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        buffer += chunk;
        const listening =
          /"msg":"rpc listening".*?"publicUrl":"([^"]+)"|"publicUrl":"([^"]+)".*?"msg":"rpc listening"/.exec(buffer);
        if (listening) resolve(listening[1] ?? listening[2]);
      });
      child.once('exit', (code) => reject(new Error(`l2node start exited with ${code} before listening`)));
    });
    for (;;) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber', params: [] }),
        });
        if ((await res.json()).result !== undefined) break;
      } catch {
        // Not answering yet.
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    return Number(process.hrtime.bigint() - t) / 1e6;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
    rmSync(dataDirectory, { recursive: true, force: true });
  }
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

  const start = quantiles(
    await (async () => {
      const times = [];
      for (let i = 0; i < starts; i++) times.push(await startToFirstAnswer());
      return times;
    })(),
  );
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
      medianFigure(
        "wallet's default wait for a tx",
        waitQ.median,
        'node_getTxReceipt round trip',
        receiptQ.median,
        WAIT_TARGET_MS,
      ),
    ],
    { runs, warmup, starts, walletWaits: wait.runs },
  );
} finally {
  child.kill('SIGTERM');
}
