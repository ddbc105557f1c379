/**
 * A command's bundle runs as a V8 script with a code cache of its own (issue 27; scripts/command-script.mjs): the
 * cache is written by the first run of a build, beside Node's compile cache, and used as it is by the next runs; a
 * cache V8 rejects is replaced, a cache file or directory others could write to is not used, and
 * NODE_DISABLE_COMPILE_CACHE turns it off. Every run answers the same. Under --enable-source-maps the script loads
 * as a CommonJS module instead, whose stack frames Node maps to src/. `l2node config --json` is the command:
 * offline, and its script is its own (dist/cli/commands/config.script.cjs).
 */

import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { l2node } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/spawn-node.js';

const dir = mkdtempSync(join(tmpdir(), 'l2node-script-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `l2node config --json` with Node's compile cache in `cacheDir` (and `env`); answers its output. */
async function config(cacheDir: string, env: Record<string, string> = {}): Promise<string> {
  const run = await l2node(['config', '--json'], { env: { NODE_COMPILE_CACHE: cacheDir, ...env } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

/** The command caches under `cacheDir` (Node puts its own in a directory per Node version, ours beside them). */
function scriptCaches(cacheDir: string): string[] {
  if (!existsSync(cacheDir)) return [];
  return readdirSync(cacheDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.v8'))
    .map((f) => join(cacheDir, f));
}

/** The cache of `l2node config`'s own script under `cacheDir`. */
function configCache(cacheDir: string): string {
  const [file] = scriptCaches(cacheDir).filter((f) => f.includes('/commands%2Fconfig.script.cjs-'));
  expect(file).toBeDefined();
  return file;
}

describe('the code cache of a command script', () => {
  const cacheDir = join(dir, 'cache');
  let first: string;

  it('is written by the first run and used as it is by the next', async () => {
    first = await config(cacheDir);
    // The command's script, and oclif's lean part with its chunks, each named by its path and the build's hash.
    const caches = scriptCaches(cacheDir);
    const names = caches.map((f) => f.slice(f.lastIndexOf('/l2node-scripts/') + '/l2node-scripts/'.length));
    for (const name of names) expect(name).toMatch(/^[\w%.-]+\.script\.cjs-[0-9a-f]{16}\.v8$/);
    expect(names.map((n) => n.replace(/-[0-9a-f]{16}\.v8$/, ''))).toEqual(
      expect.arrayContaining(['commands%2Fconfig.script.cjs', 'oclif-lean.script.cjs']),
    );
    const file = configCache(cacheDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = readFileSync(file);
    expect(written.length).toBeGreaterThan(1000);

    expect(await config(cacheDir)).toBe(first);
    expect(readFileSync(file).equals(written)).toBe(true);
  });

  it('is replaced when V8 rejects it, and the run answers the same', async () => {
    const file = configCache(cacheDir);
    const garbage = Buffer.alloc(readFileSync(file).length, 0x5a);
    writeFileSync(file, garbage);
    expect(await config(cacheDir)).toBe(first);
    const replaced = readFileSync(file);
    expect(replaced.equals(garbage)).toBe(false);
    expect(replaced.length).toBeGreaterThan(1000);
  });

  it('is not used when others could have written it, and is written again', async () => {
    const file = configCache(cacheDir);
    chmodSync(file, 0o666);
    expect(await config(cacheDir)).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('is not used from a directory others can write to', async () => {
    const shared = join(dir, 'shared');
    await config(shared);
    const scriptsDir = join(configCache(shared), '..');
    for (const file of scriptCaches(shared)) rmSync(file);
    chmodSync(scriptsDir, 0o777);
    expect(await config(shared)).toBe(first);
    expect(scriptCaches(shared)).toEqual([]);
  });

  it('gives way to the CommonJS module the script also is under --enable-source-maps: frames map to src/', async () => {
    // A frame inside the start command's script: its usage error asks the command whether it prints JSON.
    const program = [
      `const { default: Start } = await import(${JSON.stringify(`${REPO_ROOT}dist/cli/commands/start.js`)});`,
      "try { Start.prototype.usageError.call({ jsonEnabled() { throw new Error('asked'); } }, 'x'); }",
      'catch (err) { console.log(err.stack); }',
    ].join('\n');
    const stackWith = (flags: string[]) =>
      execFileSync(process.execPath, [...flags, '--input-type=module', '-e', program], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '', NODE_COMPILE_CACHE: join(dir, 'maps') },
      });
    expect(stackWith(['--enable-source-maps'])).toMatch(
      /at Object\.usageError \(\S*src\/commands\/start\.ts:\d+:\d+\)/,
    );
    expect(stackWith([])).toMatch(/at Object\.usageError \(\S*dist\/cli\/commands\/start\.script\.cjs:\d+:\d+\)/);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const off = join(dir, 'off');
    expect(await config(off, { NODE_DISABLE_COMPILE_CACHE: '1' })).toBe(first);
    expect(scriptCaches(off)).toEqual([]);
  });
});
