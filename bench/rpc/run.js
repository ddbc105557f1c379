// RPC serving benchmark (issue 3): requests/s, p50 and p99 of node_getBlockNumber and of a ~20 KB result,
// for the node's server beside a bare node:http JSON handler measured in the same run, and their ratio.
// Targets: >= 0.9 of bare for both. Each server runs in its own process (pinned to CPU 0 when taskset
// exists); autocannon drives it from this process (pinned to CPU 1) with 64 keep-alive connections.
// Usage: node bench/rpc/run.js [--duration 10] [--warmup 3] [--reps 1] [--connections 64]
// (`npm run bench` builds first; this file needs dist/.)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchResult } from '../bench-result.js';
import { heavyPayload } from './heavy-payload.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(args[i + 1]);
};
const duration = opt('duration', 10);
const warmup = opt('warmup', 3);
const reps = opt('reps', 1);
const connections = opt('connections', 64);

if (!existsSync(fileURLToPath(new URL('../../dist/rpc/server/rpc-service.js', import.meta.url)))) {
  process.stderr.write('bench/rpc needs the built code: run `npm run build` first (or `npm run bench`).\n');
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
if (hasTaskset) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

const SERVER = fileURLToPath(new URL('./bench-server.js', import.meta.url));
const CASES = {
  small: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber', params: [] }),
  heavy: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getBlock', params: [1] }),
};

function startServer(kind) {
  const cmd = hasTaskset ? 'taskset' : process.execPath;
  const argv = hasTaskset ? ['-c', '0', process.execPath, SERVER, kind] : [SERVER, kind];
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line) => resolve({ child, port: JSON.parse(line).port }));
    child.once('exit', (code) => reject(new Error(`bench server ${kind} exited with ${code}`)));
  });
}

function load(port, body, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}/`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        connections,
        duration: seconds,
        pipelining: 1,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** CPU time (user + system, µs) the server process has used, from /proc; undefined off Linux. */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return undefined;
  }
}

async function measure(kind, caseName) {
  const { child, port } = await startServer(kind);
  try {
    const probe = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: CASES[caseName],
    }).then((r) => r.json());
    if (probe.error) throw new Error(`${kind} answered ${caseName} with an error: ${probe.error.message}`);
    await load(port, CASES[caseName], warmup);
    const cpu0 = cpuMicros(child.pid);
    const r = await load(port, CASES[caseName], duration);
    const cpu1 = cpuMicros(child.pid);
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${kind} ${caseName}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    // CPU per request is steadier than req/s on a shared machine: other tenants slow both sides alike.
    const cpuPerRequest = cpu0 === undefined ? Number.NaN : (cpu1 - cpu0) / r.requests.total;
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuPerRequest };
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const heavyBytes = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, result: heavyPayload() }));
process.stdout.write(
  `bench/rpc: ${duration} s per run after ${warmup} s warm-up, ${connections} keep-alive connections, ${reps} rep(s); ` +
    `20 KB case = node_getBlock, ${heavyBytes} bytes per response; taskset ${hasTaskset ? 'on (server CPU 0, load CPU 1)' : 'unavailable'}\n`,
);
const rows = [];
for (const caseName of ['small', 'heavy']) {
  const ratios = [];
  const cpuRatios = [];
  const runs = { bare: [], l2node: [] };
  for (let rep = 0; rep < reps; rep++) {
    // Alternate the order so neither server always runs on a warmer (or noisier) machine.
    const order = rep % 2 === 0 ? ['bare', 'l2node'] : ['l2node', 'bare'];
    const got = {};
    for (const kind of order) got[kind] = await measure(kind, caseName);
    runs.bare.push(got.bare);
    runs.l2node.push(got.l2node);
    ratios.push(got.l2node.rps / got.bare.rps);
    cpuRatios.push(got.bare.cpuPerRequest / got.l2node.cpuPerRequest);
  }
  for (const kind of ['bare', 'l2node']) {
    const r = runs[kind];
    rows.push({
      case: caseName === 'small' ? 'node_getBlockNumber' : `node_getBlock (~${Math.round(heavyBytes / 1024)} KB)`,
      server: kind === 'bare' ? 'bare node:http' : 'l2node',
      rps: median(r.map((x) => x.rps)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      ratio: kind === 'bare' ? 1 : median(ratios),
      cpu: median(r.map((x) => x.cpuPerRequest)),
      cpuRatio: kind === 'bare' ? 1 : median(cpuRatios),
    });
  }
}
process.stdout.write(
  '\ncase                       server           req/s  p50 ms  p99 ms  ratio   CPU µs/req  CPU ratio\n',
);
for (const r of rows) {
  const verdict = r.server === 'l2node' ? `  target >= 0.90: ${r.ratio >= 0.9 ? 'met' : 'NOT met'}` : '';
  process.stdout.write(
    `${r.case.padEnd(27)}${r.server.padEnd(15)}${String(Math.round(r.rps)).padStart(7)}  ${r.p50.toFixed(2).padStart(6)}` +
      `  ${r.p99.toFixed(2).padStart(6)}  ${r.ratio.toFixed(2).padStart(5)}  ${r.cpu.toFixed(1).padStart(10)}  ${r.cpuRatio
        .toFixed(2)
        .padStart(9)}${verdict}\n`,
  );
}
process.stdout.write(
  '\nratio = l2node req/s ÷ bare req/s in the same rep (median over reps); CPU ratio = bare CPU per request ÷ ' +
    "l2node CPU per request (server process, from /proc): the share of bare's efficiency l2node keeps. " +
    'Latencies are autocannon percentiles at 1 ms resolution (closed loop: busy-server latency, not an SLO).\n',
);
benchResult(
  'rpc',
  rows
    .filter((r) => r.server === 'l2node')
    .flatMap((r) => {
      const bare = rows.find((b) => b.case === r.case && b.server !== 'l2node');
      return [
        {
          name: `${r.case} req/s`,
          value: Math.round(r.rps),
          unit: 'req/s',
          baseline: { name: 'bare node:http', value: Math.round(bare.rps) },
          ratio: r.ratio,
          target: '>= 0.90',
        },
        {
          name: `${r.case} p99`,
          value: r.p99,
          unit: 'ms',
          baseline: { name: 'bare node:http', value: bare.p99 },
          ratio: bare.p99 > 0 ? r.p99 / bare.p99 : undefined,
          lowerIsBetter: true,
        },
      ];
    }),
  { duration, connections, reps },
);
