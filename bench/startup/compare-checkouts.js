// Compares `l2node start` (in memory) to its first GET /status answer across built checkouts of l2node, interleaved
// (one round starts each checkout once, in the order given) beside `node -e 0` in the same rounds: for judging a
// start-up change against main's build in the same minutes, which a busy machine's figures need (bench/startup's
// run.js reports one checkout against its targets).
// Usage: node_modules/.bin/node bench/startup/compare-checkouts.js [--runs 10] <checkout> <checkout> [...]
// Prints each checkout's medians: spawn to the first log line, the first log line to "rpc listening", listening to
// the first /status answer, the total, the process's CPU time when it answered (all threads, /proc, 10 ms ticks)
// and the main thread's CPU time when the first request arrived (exact, from first-request-cpu.js).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
let runs = 10;
const checkouts = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else checkouts.push(resolve(args[i]));
}
if (checkouts.length === 0 || !(runs > 0)) {
  process.stderr.write('usage: compare-checkouts.js [--runs N] <checkout> [<checkout> ...]\n');
  process.exit(2);
}
const PRELOAD = new URL('./first-request-cpu.js', import.meta.url).href;
const work = mkdtempSync(join(tmpdir(), 'l2node-compare-start-'));
const FLAGS = ['--port', '0', '--admin-port', '0', '--log-format', 'json', '--no-save-api-key'];

/** CPU ms (user + system) of a process from /proc (Linux: 100 ticks a second). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

async function startOnce(checkout, round) {
  const cpuFile = join(work, `cpu-${round}`);
  const env = {
    ...process.env,
    NODE_OPTIONS: `--import=${PRELOAD}`,
    L2NODE_FIRST_REQUEST_CPU: cpuFile,
    XDG_CONFIG_HOME: join(work, 'config'),
  };
  const spawnedAt = Date.now();
  const child = spawn(
    process.execPath,
    [join(checkout, 'bin', 'run.js'), 'start', ...FLAGS, '--local-network-setup', 'false'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
      env,
    },
  );
  let pending = '';
  let firstLog;
  let listening;
  let url;
  await new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`${checkout}: l2node start exited with ${code}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      for (const line of lines) {
        let record;
        try {
          record = JSON.parse(line);
        } catch {
          continue;
        }
        firstLog ??= record.time;
        if (record.msg === 'rpc listening') {
          listening = record.time;
          url = record.publicUrl;
          done();
        }
      }
    });
  });
  for (;;) {
    try {
      if ((await fetch(`${url}/status`)).status === 200) break;
    } catch {
      // Not answering yet.
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const answered = Date.now();
  const cpu = cpuMs(child.pid);
  child.removeAllListeners('exit');
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  const mainCpu = Number(readFileSync(cpuFile, 'utf8'));
  return [firstLog - spawnedAt, listening - firstLog, answered - listening, answered - spawnedAt, cpu, mainCpu];
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const figures = new Map(checkouts.map((c) => [c, []]));
const baseline = [];
try {
  for (let round = 0; round < runs; round++) {
    const t = Date.now();
    spawnSync(process.execPath, ['-e', '0']);
    baseline.push(Date.now() - t);
    for (const checkout of checkouts) figures.get(checkout).push(await startOnce(checkout, round));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(
  `node -e 0: ${median(baseline)} ms; ${runs} rounds, interleaved; 1-minute load average ${loadavg()[0].toFixed(1)}`,
);
const columns = [
  'to 1st log',
  '1st log to listening',
  'listening to /status',
  'total',
  'CPU',
  'main-thread CPU to 1st request',
];
console.log(['checkout', ...columns].join(' | '));
for (const [checkout, rows] of figures) {
  const cells = columns.map((_, k) => `${Math.round(median(rows.map((r) => r[k])) * 10) / 10} ms`);
  console.log(
    [
      checkout === fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')
        ? `${checkout} (this one)`
        : checkout,
      ...cells,
    ].join(' | '),
  );
}
