// RPC serving benchmark (issue 3): requests/s, p50 and p99 of node_getBlockNumber and of a ~20 KB result,
// for the node's server beside two bare node:http JSON handlers measured in the same run, and the ratios.
//   bare              - docs/baselines.md section 1.2: content-type and content-length only. The target
//                       (>= 0.90 for both cases) is set against this one.
//   bare-same-headers - the same handler writing the headers l2node's answers carry (the version headers of
//                       spec part 1, Vary on long answers): what is left between it and l2node is the
//                       server's own cost.
// Each server runs in its own process pinned to CPU 0 when taskset exists; the load generator (wrk when
// installed, as in docs/baselines.md section 1.1, else autocannon) runs on CPU 1 with 64 keep-alive connections.
// Usage: node bench/rpc/run.js [--duration 10] [--warmup 3] [--reps 3] [--connections 64] [--load wrk|autocannon]
// (`npm run bench` builds first; this file needs dist/.)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchResult } from '../bench-result.js';
import { heavyPayload } from './heavy-payload.js';
import { runLoad, wrkAvailable } from './load-generator.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : args[i + 1];
};
const duration = Number(opt('duration', 10));
const warmup = Number(opt('warmup', 3));
const reps = Number(opt('reps', 3));
const connections = Number(opt('connections', 64));
const tool = opt('load', wrkAvailable() ? 'wrk' : 'autocannon');
if (tool !== 'wrk' && tool !== 'autocannon') {
  process.stderr.write(`--load must be wrk or autocannon, got ${tool}\n`);
  process.exit(2);
}

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
// autocannon runs in this process; wrk is started pinned.
if (hasTaskset) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
const loadPin = hasTaskset ? '1' : undefined;

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
    const load = { url: `http://127.0.0.1:${port}/`, body: CASES[caseName], connections, pin: loadPin };
    await runLoad(tool, { ...load, seconds: warmup });
    const cpu0 = cpuMicros(child.pid);
    const r = await runLoad(tool, { ...load, seconds: duration });
    const cpu1 = cpuMicros(child.pid);
    if (r.failures > 0) throw new Error(`${kind} ${caseName}: ${r.failures} failed requests`);
    // CPU per request is steadier than req/s on a shared machine: other tenants slow both sides alike.
    const cpuPerRequest = cpu0 === undefined ? Number.NaN : (cpu1 - cpu0) / r.requests;
    return { rps: r.rps, p50: r.p50, p99: r.p99, cpuPerRequest };
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const heavyBytes = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, result: heavyPayload() }));
const loadLabel = tool === 'wrk' ? 'wrk (1 thread)' : 'autocannon (its own CPU can be the limit; install wrk)';
process.stdout.write(
  `bench/rpc: ${duration} s per run after ${warmup} s warm-up, ${connections} keep-alive connections, ${reps} rep(s), ` +
    `load ${loadLabel}; 20 KB case = node_getBlock, ${heavyBytes} bytes per response; ` +
    `taskset ${hasTaskset ? 'on (server CPU 0, load CPU 1)' : 'unavailable'}\n`,
);
const SERVERS = ['bare', 'bare-same-headers', 'l2node'];
const LABEL = { bare: 'bare node:http', 'bare-same-headers': 'bare + our headers', l2node: 'l2node' };
const rows = [];
for (const caseName of ['small', 'heavy']) {
  const runs = { bare: [], 'bare-same-headers': [], l2node: [] };
  for (let rep = 0; rep < reps; rep++) {
    // Rotate the order so no server always runs on a warmer (or noisier) machine.
    for (let i = 0; i < SERVERS.length; i++) {
      const kind = SERVERS[(i + rep) % SERVERS.length];
      runs[kind].push(await measure(kind, caseName));
    }
  }
  // Ratios are taken within a rep (same machine state), then the median over reps.
  const ratio = (kind, base, field, invert) =>
    median(runs[kind].map((r, i) => (invert ? runs[base][i][field] / r[field] : r[field] / runs[base][i][field])));
  for (const kind of SERVERS) {
    const r = runs[kind];
    rows.push({
      case: caseName === 'small' ? 'node_getBlockNumber' : `node_getBlock (~${Math.round(heavyBytes / 1024)} KB)`,
      kind,
      rps: median(r.map((x) => x.rps)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      cpu: median(r.map((x) => x.cpuPerRequest)),
      ratio: ratio(kind, 'bare', 'rps'),
      cpuRatio: ratio(kind, 'bare', 'cpuPerRequest', true),
      ratioSameHeaders: ratio(kind, 'bare-same-headers', 'rps'),
    });
  }
}
process.stdout.write(
  '\ncase                       server               req/s  p50 ms  p99 ms  CPU µs/req  ratio  CPU ratio  vs same headers\n',
);
for (const r of rows) {
  const verdict = r.kind === 'l2node' ? `  target >= 0.90 of bare: ${r.ratio >= 0.9 ? 'met' : 'NOT met'}` : '';
  process.stdout.write(
    `${r.case.padEnd(27)}${LABEL[r.kind].padEnd(19)}${String(Math.round(r.rps)).padStart(7)}  ${r.p50.toFixed(2).padStart(6)}` +
      `  ${r.p99.toFixed(2).padStart(6)}  ${r.cpu.toFixed(1).padStart(10)}  ${r.ratio.toFixed(2).padStart(5)}` +
      `  ${r.cpuRatio.toFixed(2).padStart(9)}  ${r.kind === 'bare' ? '' : r.ratioSameHeaders.toFixed(2).padStart(15)}${verdict}\n`,
  );
}
process.stdout.write(
  '\nratio = req/s ÷ bare req/s in the same rep (median over reps); CPU ratio = bare CPU per request ÷ this ' +
    "server's (server process, from /proc); vs same headers = req/s ÷ (bare + our headers) req/s, the server's " +
    'own cost once the bytes every answer must carry are paid. ' +
    (tool === 'wrk'
      ? 'Latencies are wrk percentiles (closed loop: busy-server latency, not an SLO).\n'
      : 'Latencies are autocannon percentiles at 1 ms resolution (closed loop: busy-server latency, not an SLO).\n'),
);
benchResult(
  'rpc',
  rows
    .filter((r) => r.kind !== 'bare')
    .flatMap((r) => {
      const bare = rows.find((b) => b.case === r.case && b.kind === 'bare');
      const figures = [
        {
          name: `${r.case} req/s, ${LABEL[r.kind]}`,
          value: Math.round(r.rps),
          unit: 'req/s',
          baseline: { name: 'bare node:http', value: Math.round(bare.rps) },
          ratio: r.ratio,
          ...(r.kind === 'l2node' ? { target: '>= 0.90' } : {}),
        },
      ];
      if (r.kind === 'l2node') {
        const same = rows.find((b) => b.case === r.case && b.kind === 'bare-same-headers');
        figures.push(
          {
            name: `${r.case} req/s, l2node vs the same headers`,
            value: Math.round(r.rps),
            unit: 'req/s',
            baseline: { name: 'bare + our headers', value: Math.round(same.rps) },
            ratio: r.ratioSameHeaders,
          },
          {
            name: `${r.case} p99`,
            value: r.p99,
            unit: 'ms',
            baseline: { name: 'bare node:http', value: bare.p99 },
            ratio: bare.p99 > 0 ? r.p99 / bare.p99 : undefined,
            lowerIsBetter: true,
          },
        );
      }
      return figures;
    }),
  { duration, connections, reps, load: tool },
);
