// startNode (issue 31): how long `import { startNode } from 'l2node'` takes to give a serving dev node in the
// calling process, beside the same node started as a child process (`l2node start --json`, until its banner),
// measured in the same run and interleaved. The first in-process start also loads the daemon's modules (cold);
// later ones reuse them (warm), which is what a test file's second node, or a watch-mode rerun, pays.
//
//   npm run build && node bench/start-node/run.js [rounds=5]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startNode } from '../../dist/index.js';
import { benchResult } from '../bench-result.js';

const rounds = Number(process.argv[2] ?? 5);
const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function inProcess() {
  const started = performance.now();
  const node = await startNode();
  const ms = performance.now() - started;
  await node.stop();
  return ms;
}

function child() {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // The local network set-up (test accounts deployed at first start) would run beside the figures: off.
    const args = [
      BIN,
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
    const p = spawn(process.execPath, [...args, '--log-level', 'error', '--no-save-api-key'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    p.stdout.setEncoding('utf8').on('data', (c) => {
      out += c;
      if (out.includes('\n')) {
        const ms = performance.now() - started;
        p.once('exit', () => resolve(ms));
        p.kill('SIGTERM');
      }
    });
    p.once('error', reject);
  });
}

const cold = await inProcess();
const warm = [];
const spawned = [];
for (let r = 0; r < rounds; r++) {
  spawned.push(await child());
  warm.push(await inProcess());
}
const childMs = median(spawned);
const warmMs = median(warm);
console.log(
  `startNode: cold ${cold.toFixed(0)} ms, warm ${warmMs.toFixed(0)} ms (median of ${rounds}); child process ${childMs.toFixed(0)} ms`,
);
benchResult(
  'start-node',
  [
    {
      name: 'startNode in process, warm (to serving)',
      value: Math.round(warmMs),
      unit: 'ms',
      baseline: { name: 'l2node start as a child process (to its banner)', value: Math.round(childMs) },
      ratio: warmMs / childMs,
      lowerIsBetter: true,
    },
    {
      name: 'startNode in process, cold (first start, loads the daemon)',
      value: Math.round(cold),
      unit: 'ms',
      baseline: { name: 'l2node start as a child process (to its banner)', value: Math.round(childMs) },
      ratio: cold / childMs,
      lowerIsBetter: true,
    },
  ],
  { rounds },
);
