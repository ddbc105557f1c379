// Runs the same l2node command lines in two checkouts and compares what a user sees: stdout, stderr and the exit
// code of each (the checkout's own path is written <root> in both). For a change to the CLI's plumbing that must not
// change its behaviour (the lean oclif of issue 27): success, --json, usage errors, unknown flags, bad arguments,
// RPC errors against a stopped node, help, topics, mistyped commands, `help` and `autocomplete --help`.
//
//   node_modules/.bin/node scripts/compare-cli-output.mjs <checkout A> <checkout B>
//
// Each checkout must be built (npm run build). A dev node of checkout A (in memory, loopback, port 0, without the
// local network's deployments; it builds no block without a tx, so every query answers the same in both) serves the successful calls; a port that was free a
// moment ago stands for a stopped node. Exits 1 on any difference, printing it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [a, b] = process.argv.slice(2).map((p) => resolve(p));
if (!a || !b) {
  process.stderr.write('usage: compare-cli-output.mjs <checkout A> <checkout B>\n');
  process.exit(2);
}
const home = mkdtempSync(join(tmpdir(), 'l2node-compare-'));
// The same environment for both: no terminal, no credentials file or compile cache of the user's.
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
  XDG_DATA_HOME: join(home, 'data'),
  LANG: 'C',
};
const nodeBin = process.execPath;

/** A loopback port nothing listens on (bound, then closed). */
async function stoppedPort() {
  const server = createServer();
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

/** A dev node of checkout A on port 0: its public and admin URLs and admin key, from its --json banner. */
async function startNode(root) {
  const child = spawn(
    nodeBin,
    // No local network setup: its deployments build blocks for a while after the banner, and the chain must not move.
    [
      join(root, 'bin/run.js'),
      'start',
      ...['--port', '0', '--admin-port', '0', '--json', '--no-save-api-key', '--local-network-setup', 'false'],
    ],
    { env: { ...env, NODE_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const banner = await new Promise((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) ok(JSON.parse(out.slice(0, out.indexOf('\n'))).result);
    });
    child.on('exit', (code) => fail(new Error(`the node exited (${code}) before its banner`)));
  });
  return { child, ...banner };
}

const node = await startNode(a);
const stopped = `http://127.0.0.1:${await stoppedPort()}`;
const U = ['--node-url', node.publicUrl];
const A = ['--admin-url', node.adminUrl, '--api-key', node.adminApiKey];
const lines = [
  // success, and --json success
  ['--version'],
  ['query', 'tips', ...U],
  ['query', 'tips', ...U, '--json'],
  ['query', 'block', 'latest', ...U],
  ['query', 'block', 'latest', ...U, '--json'],
  ['query', 'node-info', ...U, '--json'],
  ['query', 'fees', ...U],
  ['status', ...U],
  ['rpc', 'node_getBlockNumber', ...U],
  ['rpc', 'node_getBlockNumber', ...U, '--json'],
  ['admin', 'config', 'get', 'maxPendingTxCount', ...A],
  ['admin', 'config', 'get', 'maxPendingTxCount', ...A, '--json'],
  ['config', '--port', '1234'],
  ['config', '--json'],
  // usage errors, unknown flags, bad arguments
  ['query', 'tips', '--bogus'],
  ['query', 'tips', '--bogus', '--json'],
  ['query', 'block', 'abc', ...U],
  ['query', 'block', 'abc', ...U, '--json'],
  ['query', 'block', '1', '2', ...U],
  ['query', 'tips', '--node-url'],
  ['query', 'tips', '--node-url', 'not a url'],
  ['start', '--prot', '1'],
  ['start', '--port', 'abc'],
  ['start', '--port', 'abc', '--json'],
  ['start', '--port'],
  ['start', '--log-file', join(home, 'missing', 'dir', 'node.log'), '--port', '0'],
  ['db', 'check', '--data-directory', join(home, 'no-such-dir')],
  ['admin', 'rollback', ...A],
  // --json through the environment, and a --json after `--` (an argument, not the flag)
  { args: ['query', 'tips', ...U], env: { L2NODE_CONTENT_TYPE: 'json' } },
  { args: ['query', 'tips', '--node-url', stopped], env: { L2NODE_CONTENT_TYPE: 'json' } },
  ['rpc', 'node_getBlockNumber', ...U, '--', '--json'],
  // RPC errors: a stopped node, a block that does not exist
  ['query', 'tips', '--node-url', stopped],
  ['query', 'tips', '--node-url', stopped, '--json'],
  ['rpc', 'node_getBlockNumber', '--node-url', stopped],
  ['admin', 'config', 'get', '--admin-url', stopped, '--api-key', 'x'],
  ['admin', 'config', 'get', '--admin-url', stopped, '--api-key', 'x', '--json'],
  ['query', 'block', '999', ...U],
  ['rpc', 'node_noSuchMethod', ...U],
  // help, topics, mistyped commands, `help`, autocomplete
  [],
  ['--help'],
  ['help'],
  ['help', 'query'],
  ['query'],
  ['admin', 'config'],
  ['query', '--help'],
  ['query', 'tips', '--help'],
  ['query', 'tips', '-h'],
  ['start', '--help'],
  ['tx', 'send', '--help'],
  ['query', 'tipz'],
  ['quer'],
  ['autocomplete', '--help'],
];

/** One run (a line is its arguments, or `{ args, env }`): its exit code, stdout and stderr, with <root>. */
function run(root, line) {
  const { args, env: extra } = Array.isArray(line) ? { args: line } : line;
  const r = spawnSync(nodeBin, [join(root, 'bin/run.js'), ...args], {
    env: { ...env, ...extra },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const clean = (s) => (s ?? '').split(root).join('<root>');
  return { code: r.status ?? r.signal, stdout: clean(r.stdout), stderr: clean(r.stderr) };
}

let differences = 0;
try {
  for (const line of lines) {
    const [x, y] = [run(a, line), run(b, line)];
    const differ = ['code', 'stdout', 'stderr'].filter((k) => x[k] !== y[k]);
    const { args, env: extra = {} } = Array.isArray(line) ? { args: line } : line;
    const words = [...Object.entries(extra).map(([k, v]) => `${k}=${v}`), 'l2node', ...args];
    const shown = words.join(' ').replace(node.adminApiKey, '<key>');
    if (differ.length === 0) {
      process.stdout.write(`same  (exit ${x.code}) ${shown}\n`);
      continue;
    }
    differences++;
    process.stdout.write(`DIFFERENT ${differ.join(', ')}: ${shown}\n`);
    for (const k of differ)
      process.stdout.write(`  ${k} A: ${JSON.stringify(x[k])}\n  ${k} B: ${JSON.stringify(y[k])}\n`);
  }
} finally {
  node.child.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
}
process.stdout.write(`${lines.length} command lines, ${differences} different\n`);
process.exitCode = differences === 0 ? 0 : 1;
