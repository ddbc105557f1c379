// Load benchmark (issue 12): the load e2e test (test/e2e/load.test.ts: 64 concurrent clients mixing block,
// witness and log reads with node_sendTx against a dev node building blocks) run for 60 s instead of the test
// suite's 10 (L2NODE_LOAD_SECONDS overrides). Reports throughput, p50/p99 latency and the node's RSS; the
// baseline of the memory figure is the same run's second-quarter RSS (flat memory: ratio near 1).
// Usage: node bench/load/run.js   (`npm run bench` builds first; the test spawns dist/.)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchResult } from '../bench-result.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const seconds = Number(process.env.L2NODE_LOAD_SECONDS ?? 60);
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const child = spawn(process.execPath, [vitest, 'run', 'test/e2e/load.test.ts'], {
  cwd: root,
  env: { ...process.env, L2NODE_LOAD_SECONDS: String(seconds) },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
child.stdout.setEncoding('utf8').on('data', (chunk) => {
  out += chunk;
  process.stdout.write(chunk);
});
const code = await new Promise((resolve) => child.once('exit', resolve));
const line = /load: (\{"seconds".*\})/.exec(out);
if (code !== 0 || !line) {
  process.stderr.write(`bench/load: the load test failed (exit ${code})\n`);
  process.exit(1);
}
const r = JSON.parse(line[1]);
benchResult(
  'load',
  [
    { name: 'requests/s (64 clients, mixed reads + sendTx)', value: r.rps, unit: 'req/s' },
    { name: 'p50 latency', value: r.p50Ms, unit: 'ms', lowerIsBetter: true },
    { name: 'p99 latency', value: r.p99Ms, unit: 'ms', lowerIsBetter: true },
    {
      name: 'RSS, last quarter mean',
      value: r.rssMb.q4,
      unit: 'MiB',
      baseline: { name: 'RSS, second quarter mean', value: r.rssMb.q2 },
      ratio: r.rssMb.q4 / r.rssMb.q2,
      target: '< 1.5 (flat)',
      lowerIsBetter: true,
    },
    { name: 'errors', value: r.errors, unit: 'count', target: '0', lowerIsBetter: true },
  ],
  {
    seconds: r.seconds,
    clients: r.clients,
    requests: r.requests,
    txsSent: r.txsSent,
    blocks: r.blocks,
    rssMaxMb: r.rssMb.max,
  },
);
