// `npm test` after its build step: three things side by side on the two cores, since the test files mostly wait
// on the nodes they spawn:
//  - vitest on every file but those of the waiting lane, in two workers; its output is shown as it comes;
//  - vitest on the files of the waiting lane (test/waiting-lane.ts: L1 and P2P networks that wait for slots and
//    epochs), in one worker;
//  - the lint (`npm run lint`: biome, tsc, dependency-cruiser), about a minute of one core.
// The output of the last two is held and printed whole once all three end (so it does not interleave), a failed
// one last, followed by one line per job. A failed lint stops the tests at once. Arguments go to both vitest runs (`npm test -- test/unit`). Exits non-zero when any
// of the three fails.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitestBin = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

/** A vitest run of one lane, in a process group of its own (vitest, its workers and the nodes they spawn). */
function vitest(lane, held) {
  return spawn(process.execPath, [vitestBin, 'run', ...process.argv.slice(2)], {
    cwd: root,
    env: { ...process.env, L2NODE_TEST_LANE: lane },
    stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    detached: true,
  });
}

const npm = process.env.npm_execpath;
const lintArgs = ['run', '--silent', 'lint'];
const jobs = [
  { name: 'vitest (waiting lane: test/waiting-lane.ts)', child: vitest('waiting', true), group: true },
  {
    name: 'npm run lint',
    child: spawn(npm ? process.execPath : 'npm', npm ? [npm, ...lintArgs] : lintArgs, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    group: false,
  },
  { name: 'vitest', child: vitest('main', false), group: true },
];
const lint = jobs[1];

/** Ends a job: a vitest lane with its whole process group. */
function stop(job, signal) {
  const { child } = job;
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (job.group) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Already ended.
  }
}
// In groups of their own, the vitest runs no longer get a terminal's Ctrl-C: pass it on.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const job of jobs) stop(job, signal);
  });
}

const results = await Promise.all(
  jobs.map((job) => {
    let held = '';
    job.child.stdout?.on('data', (chunk) => {
      held += chunk;
    });
    job.child.stderr?.on('data', (chunk) => {
      held += chunk;
    });
    return new Promise((resolve) => {
      job.child.once('exit', (code, signal) => {
        const result = code ?? (signal ? 1 : 0);
        if (job === lint && result !== 0) for (const other of jobs) if (other !== lint) stop(other, 'SIGTERM');
        resolve({ job, result, held });
      });
    });
  }),
);
// The held outputs come after the shown lane's, a failed one last, then one line per job: whatever failed is in
// the last lines of the output (what a CI log shows first).
const failedLast = [...results].sort((a, b) => Number(a.result !== 0) - Number(b.result !== 0));
for (const { job, result, held } of failedLast) {
  if (job.child.stdout) process.stdout.write(`\n--- ${job.name}: ${verdict(result)}\n${held}\n`);
}
process.stdout.write(`\nnpm test: ${results.map(({ job, result }) => `${job.name} ${verdict(result)}`).join('; ')}\n`);
process.exit(results.find(({ result }) => result !== 0)?.result ?? 0);

function verdict(result) {
  return result === 0 ? 'passed' : `FAILED (exit ${result})`;
}
