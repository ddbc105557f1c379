// Builds the native Poseidon2 addon (binding.gyp -> build/Release/poseidon2.node). Run by the root `install`
// script during `npm ci`/`npm install`, and by hand with `node native/build.mjs`.
//
// It never fails the install: without a C compiler, headers or node-gyp it prints one line and exits 0, and
// src/core/crypto/poseidon2.ts then hashes with the bb.js WebAssembly engine. Set L2NODE_SKIP_NATIVE=1 to skip.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const addonPath = join(root, 'build', 'Release', 'poseidon2.node');
const logPath = join(root, 'build', 'poseidon2-build.log');
const FALLBACK = 'Poseidon2 will use the bb.js WebAssembly engine (about 10x slower in batches)';
// hash(1, 2), the check the runtime also makes before trusting the addon.
const HASH_1_2 = '038682aa1cb5ae4e0a3f13da432a95c77c5c111f6f030faf9cad641ce1ed7383';

function say(line) {
  console.log(`l2node: ${line}`);
}

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });
}

/** The node-gyp bundled with an npm found on PATH (npm's bin is a link into its package: .../npm/bin/npm-cli.js). */
function nodeGypBesideNpm() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const npm = join(dir, 'npm');
    if (!dir || !existsSync(npm)) continue;
    const gyp = join(dirname(realpathSync(npm)), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    if (existsSync(gyp)) return gyp;
  }
  return undefined;
}

/** node-gyp: npm passes the copy it bundles in npm_config_node_gyp; otherwise npm's copy, then one on PATH. */
function findNodeGyp() {
  for (const c of [process.env.npm_config_node_gyp, nodeGypBesideNpm()]) {
    if (c && existsSync(c)) return { cmd: process.execPath, args: [c] };
  }
  const onPath = run('node-gyp', ['--version']);
  if (onPath.status === 0) return { cmd: 'node-gyp', args: [] };
  return null;
}

/**
 * Headers: the addon uses only node_api.h (ABI-stable), so any Node release's headers will do. Use a configured
 * nodedir, else headers installed beside this Node or the system Node, so node-gyp does not try to download.
 */
function nodedirArgs() {
  if (process.env.npm_config_nodedir) return [];
  const dirs = [join(dirname(process.execPath), '..'), '/usr', '/usr/local'];
  for (const d of dirs) if (existsSync(join(d, 'include', 'node', 'node_api.h'))) return [`--nodedir=${d}`];
  return [];
}

function main() {
  if (process.env.L2NODE_SKIP_NATIVE === '1') {
    say(`L2NODE_SKIP_NATIVE=1, not building the native Poseidon2 addon; ${FALLBACK}.`);
    return;
  }
  const cc = process.env.CC || 'cc';
  if (run(cc, ['--version']).error) {
    say(`no C compiler (${cc}) found, skipping the native Poseidon2 addon; ${FALLBACK}.`);
    return;
  }
  const gyp = findNodeGyp();
  if (!gyp) {
    say(`node-gyp not found, skipping the native Poseidon2 addon; ${FALLBACK}.`);
    return;
  }
  const res = run(gyp.cmd, [...gyp.args, 'rebuild', ...nodedirArgs()], { timeout: 300_000 });
  const log = `${res.stdout ?? ''}${res.stderr ?? ''}${res.error ? `\n${res.error.message}` : ''}`;
  mkdirSync(dirname(logPath), { recursive: true });
  writeFileSync(logPath, log);
  if (res.status !== 0 || !existsSync(addonPath)) {
    const errLine = log.split('\n').find((l) => /error|not found|ERR!/i.test(l)) ?? 'no output';
    say(`building the native Poseidon2 addon failed (${errLine.trim()}; full log: ${logPath}); ${FALLBACK}.`);
    return;
  }
  try {
    const addon = createRequire(import.meta.url)(addonPath);
    const pair = Buffer.alloc(64);
    pair[31] = 1;
    pair[63] = 2;
    const got = addon.hash(pair).toString('hex');
    if (got !== HASH_1_2) throw new Error(`self-check hash(1, 2) gave 0x${got}`);
    say(`native Poseidon2 addon built (${addonPath}, kernel ${addon.kernel()}).`);
  } catch (e) {
    say(`the native Poseidon2 addon was built but does not load or check out (${e.message}); ${FALLBACK}.`);
  }
}

try {
  main();
} catch (e) {
  say(`unexpected error while building the native Poseidon2 addon (${e.message}); ${FALLBACK}.`);
}
