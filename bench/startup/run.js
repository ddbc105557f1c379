// Start-up benchmark (issue 27): how fast a dev node starts and the CLI answers, each beside `node -e 0` measured
// in the same run and interleaved with it (one round runs every case once), --runs rounds; medians reported, with
// the CPU time (user + system) of each run as well (of a start, to serving), which a busy machine inflates far
// less than the wall time.
// Cases: `l2node --version`, `l2node query tips` (against a node started here), `npx l2node --version`,
// `l2node start` to the first GET /status answer in memory and on an existing data directory of 1,000 blocks (made
// here with nodeDev_mineBlocks), and `l2node start --l1 anvil` to serving (node_getL1ContractAddresses answers)
// on a fresh data directory and again on the same one (a restart: the deployment is reused), --l1-runs times
// (0 skips them; --runs 0 skips the other cases, the L1 rows then stand beside the `node -e 0` of their rounds).
// The restart is also split into its phases, from the node's own log: loading the start command (to its first log
// line), the database and the L1 stack's modules (to "starting anvil"), anvil up with its state loaded, the stored
// deployment checked, and the rest of the node to serving. The in-memory start is split the same way: loading the
// start command, the node with its services and listeners (to "rpc listening"), then the first /status answer.
// Targets (quiet 2-core machine): start < 0.5 s and at most 4x node -e 0, --version < 0.15 s,
// query tips < 0.25 s, an --l1 anvil restart < 4 s.
// Usage: node bench/startup/run.js [--runs 10] [--l1-runs 10]   (needs `npm run build`)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchResult } from '../bench-result.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(args[i + 1]);
};
const runs = opt('runs', 10);
const l1Runs = opt('l1-runs', 10);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'run.js');
const NODE = process.execPath;
/** The environment of every run: the outer shell's NODE_* settings would change what a node does. */
const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('NODE_') || k === 'NODE_OPTIONS'),
);
ENV.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'l2node-bench-config-'));
// The local network set-up (test accounts deployed at first start) would run beside the figures: off.
const NODE_FLAGS = [
  '--port',
  '0',
  '--admin-port',
  '0',
  '--log-format',
  'json',
  '--no-save-api-key',
  '--local-network-setup',
  'false',
];

const msSince = (t) => Number(process.hrtime.bigint() - t) / 1e6;

/** GNU time, when installed: it reports each run's CPU time (user + system), else only the wall time is. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Runs a command to its exit: wall ms and CPU ms (through GNU time when there). */
function timeCommand(cmd, argv) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const [file, rest] = TIME ? [TIME, ['-f', 'CPUTIME %U %S', cmd, ...argv]] : [cmd, argv];
    const child = spawn(file, rest, { env: ENV, cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c) => (err += c));
    child.once('exit', (code) => {
      const wall = msSince(t);
      const times = /CPUTIME ([\d.]+) ([\d.]+)/.exec(err);
      if (code !== 0) reject(new Error(`${argv.join(' ')} exited with ${code}: ${err.slice(-500)}`));
      else resolve({ wall, cpu: times ? (Number(times[1]) + Number(times[2])) * 1000 : Number.NaN });
    });
  });
}

async function jsonRpc(url, method, params = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()).result;
}

/**
 * The CPU time (user + system, ms) a running process has used so far, from /proc (Linux; NaN elsewhere): a start's
 * CPU time to serving, which a busy machine inflates far less than its wall time.
 */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
/** Clock ticks per second of /proc's times (USER_HZ): 100 on Linux. */
const CLOCK_TICKS = 100;

/**
 * Spawns `l2node start` and resolves once `ready(publicUrl)` answers: the wall ms from spawn, the node's URLs and
 * a stop function (SIGTERM, waits for the exit).
 */
async function startNode(extra, ready) {
  const t = process.hrtime.bigint();
  const spawnedAt = Date.now();
  const child = spawn(NODE, [BIN, 'start', ...NODE_FLAGS, ...extra], {
    env: ENV,
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c) => (err += c));
  try {
    const urls = await new Promise((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        out += chunk;
        const line = out.split('\n').find((l) => l.includes('"rpc listening"'));
        if (line) {
          const record = JSON.parse(line);
          resolve({ publicUrl: record.publicUrl, adminUrl: record.adminUrl });
        }
      });
      child.once('exit', (code) =>
        reject(new Error(`l2node start ${extra.join(' ')} exited with ${code}: ${(err || out).slice(-800)}`)),
      );
    });
    for (;;) {
      try {
        if (await ready(urls.publicUrl)) break;
      } catch {
        // Not serving yet.
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    const records = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return undefined;
        }
      })
      .filter(Boolean);
    return { ms: msSince(t), cpu: cpuMsOf(child.pid), spawnedAt, records, ...urls, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

const statusAnswers = async (url) => (await fetch(`${url}/status`)).status === 200;
const l1Answers = async (url) => Boolean((await jsonRpc(url, 'node_getL1ContractAddresses'))?.rollupAddress);

/** A data directory holding 1,000 blocks, built by a dev node with nodeDev_mineBlocks. */
async function dataDirectoryOf1000Blocks() {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-bench-1000-'));
  const node = await startNode(['--data-directory', dir, '--disable-admin-api-key'], statusAnswers);
  try {
    const mined = await jsonRpc(node.adminUrl, 'nodeDev_mineBlocks', [1000]);
    if (mined?.length !== 1000) throw new Error(`nodeDev_mineBlocks(1000) built ${mined?.length} blocks`);
  } finally {
    await node.stop();
  }
  return dir;
}

/**
 * The phases of an --l1 anvil start, in ms, from the node's log records (their `time`) and the spawn time:
 * undefined when a line is missing (a log format change), so a phase is never made up.
 */
function l1StartPhases(start) {
  const at = (match) => start.records.find((r) => match(String(r.msg)))?.time;
  const first = start.records[0]?.time;
  const anvil = at((m) => m === 'starting anvil');
  const anvilUp = at((m) => m.startsWith('anvil listening on'));
  const l1Ready = at((m) => m.startsWith('L1 chain '));
  const listening = at((m) => m === 'rpc listening');
  if ([first, anvil, anvilUp, l1Ready, listening].some((v) => v === undefined)) return undefined;
  return {
    'loading the start command (to its first log line)': first - start.spawnedAt,
    'database and L1 stack modules (to starting anvil)': anvil - first,
    'anvil up, its state loaded': anvilUp - anvil,
    'stored deployment checked (L1 ready)': l1Ready - anvilUp,
    'chain, services and listeners (to rpc listening)': listening - l1Ready,
  };
}

/**
 * The phases of an in-memory start, in ms, from the node's log records (their `time`), the spawn time and when
 * `/status` answered: loading the start command (to its first log line), opening the node and its services and
 * binding the listeners (to "rpc listening"), then the first `/status` answer. Undefined when a line is missing.
 */
function startPhases(start) {
  const first = start.records[0]?.time;
  const listening = start.records.find((r) => r.msg === 'rpc listening')?.time;
  if (first === undefined || listening === undefined) return undefined;
  return {
    'loading the start command (to its first log line)': first - start.spawnedAt,
    'the node, its services and listeners (to rpc listening)': listening - first,
    'rpc listening to the first /status answer': start.spawnedAt + start.ms - listening,
  };
}

function median(values) {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)];
}

const load = () => loadavg()[0].toFixed(1);
const loadBefore = load();
const samples = new Map();
const record = (name, sample) => {
  if (!samples.has(name)) samples.set(name, []);
  samples.get(name).push(typeof sample === 'number' ? { wall: sample, cpu: Number.NaN } : sample);
};

const blocksDir = runs > 0 ? await dataDirectoryOf1000Blocks() : undefined;
const client = runs > 0 ? await startNode([], statusAnswers) : undefined;
try {
  for (let round = 0; round < runs; round++) {
    record('node -e 0', await timeCommand(NODE, ['-e', '0']));
    record('l2node --version', await timeCommand(NODE, [BIN, '--version']));
    record('l2node query tips', await timeCommand(NODE, [BIN, 'query', 'tips', '--node-url', client.publicUrl]));
    record('npx l2node --version', await timeCommand('npx', ['l2node', '--version']));
    const inMemory = await startNode([], statusAnswers);
    record('l2node start to first /status (in memory)', { wall: inMemory.ms, cpu: inMemory.cpu });
    for (const [phase, ms] of Object.entries(startPhases(inMemory) ?? {})) record(`in-memory phase: ${phase}`, ms);
    await inMemory.stop();
    const onBlocks = await startNode(['--data-directory', blocksDir], statusAnswers);
    record('l2node start to first /status (1,000 blocks on disk)', { wall: onBlocks.ms, cpu: onBlocks.cpu });
    await onBlocks.stop();
  }
} finally {
  await client?.stop();
}
// An --l1 anvil start that fails (anvil or forge too slow on a loaded machine) is counted and reported, not fatal.
const l1Failures = [];
for (let round = 0; round < l1Runs; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-bench-l1-'));
  try {
    const first = await startNode(['--l1', 'anvil', '--data-directory', dir], l1Answers);
    record('l2node start --l1 anvil to serving (first start)', first.ms);
    await first.stop();
    const again = await startNode(['--l1', 'anvil', '--data-directory', dir], l1Answers);
    record('l2node start --l1 anvil to serving (restart)', again.ms);
    for (const [phase, ms] of Object.entries(l1StartPhases(again) ?? {})) record(`restart phase: ${phase}`, ms);
    await again.stop();
    record('node -e 0 (beside the L1 starts)', await timeCommand(NODE, ['-e', '0']));
  } catch (err) {
    l1Failures.push(err.message.split('\n')[0].slice(0, 300));
    process.stderr.write(`an --l1 anvil start failed: ${err.message}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (blocksDir) rmSync(blocksDir, { recursive: true, force: true });
rmSync(ENV.XDG_CONFIG_HOME, { recursive: true, force: true });
const loadAfter = load();

const TARGETS = {
  'l2node --version': 150,
  'l2node query tips': 250,
  'l2node start to first /status (in memory)': 500,
  'l2node start --l1 anvil to serving (restart)': 4000,
};
// With --runs 0 only the L1 rounds ran: their own `node -e 0` is the baseline.
const BASELINE = samples.has('node -e 0') ? 'node -e 0' : 'node -e 0 (beside the L1 starts)';
const baseline = samples.get(BASELINE);
const baseWall = median(baseline.map((s) => s.wall));
const baseCpu = median(baseline.map((s) => s.cpu));
process.stdout.write(
  `Start-up, ${runs} rounds (${l1Runs} for --l1 anvil), medians; 1-minute load average ${loadBefore} before, ${loadAfter} after\n` +
    `${'case'.padEnd(56)}${'wall'.padStart(10)}${'x node -e 0'.padStart(13)}${'cpu'.padStart(10)}${'target'.padStart(10)}\n`,
);
const figures = [];
for (const [name, list] of samples) {
  const wall = median(list.map((s) => s.wall));
  const cpu = median(list.map((s) => s.cpu));
  const target = TARGETS[name];
  process.stdout.write(
    `${name.padEnd(56)}${`${wall.toFixed(0)} ms`.padStart(10)}${`${(wall / baseWall).toFixed(1)}x`.padStart(13)}` +
      `${Number.isNaN(cpu) ? '-'.padStart(10) : `${cpu.toFixed(0)} ms`.padStart(10)}${target ? `< ${target} ms`.padStart(10) : ''}\n`,
  );
  if (name === BASELINE) continue;
  figures.push({
    name: `${name} median`,
    value: Number(wall.toFixed(1)),
    unit: 'ms',
    // A phase is a part of a start above, not a start of its own: no baseline.
    ...(name.startsWith('restart phase:') || name.startsWith('in-memory phase:')
      ? {}
      : { baseline: { name: BASELINE, value: Number(baseWall.toFixed(1)) }, ratio: wall / baseWall }),
    ...(target ? { target: `< ${target} ms` } : {}),
    lowerIsBetter: true,
  });
  if (!Number.isNaN(cpu)) {
    figures.push({
      name: `${name} CPU time median`,
      value: Number(cpu.toFixed(1)),
      unit: 'ms',
      baseline: { name: `${BASELINE} CPU time`, value: Number(baseCpu.toFixed(1)) },
      ratio: cpu / baseCpu,
      lowerIsBetter: true,
    });
  }
}
benchResult('startup', figures, {
  runs,
  l1Runs,
  l1Failures,
  loadAverageBefore: loadBefore,
  loadAverageAfter: loadAfter,
});
