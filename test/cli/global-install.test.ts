/**
 * The one-step install of a checkout: `npm install -g --ignore-scripts <checkout>` (what the README prints, here
 * into a temporary prefix, offline) puts `l2node` and its man pages on the prefix's paths and says nothing about
 * engine versions; `l2node` from that PATH runs whatever `node` comes first there, since bin/run.js hands an
 * older runtime over to the Node 24.12 the checkout pins.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/run-command.js';
import { REPO_ROOT } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

let prefix: string;
let install: Awaited<ReturnType<typeof runCommand>>;
/** The user's PATH, without the project's node_modules/.bin that npm and vitest put first. */
const userPath = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((p) => !p.includes('node_modules'))
  .join(delimiter);
// The node's local network set-up (a minute of wallet work) is not what these cases start a node for.
const env = () => ({
  ...process.env,
  PATH: `${join(prefix, 'bin')}${delimiter}${userPath}`,
  NODE_LOCAL_NETWORK_SETUP: 'false',
});

beforeAll(async () => {
  prefix = mkdtempSync(join(tmpdir(), 'l2node-global-'));
  install = await runCommand(
    'npm',
    ['install', '--global', '--prefix', prefix, '--offline', '--ignore-scripts', '--no-fund', '--no-audit', REPO_ROOT],
    { env: { ...process.env, PATH: userPath } },
  );
}, 120_000);

afterAll(() => {
  if (prefix) rmSync(prefix, { recursive: true, force: true });
});

describe('npm install -g of a checkout', () => {
  it('puts l2node and its man pages under the prefix, quiet about engines', () => {
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/EBADENGINE|engine/i);
    expect(existsSync(join(prefix, 'bin/l2node'))).toBe(true);
    expect(existsSync(join(prefix, 'share/man/man1/l2node.1'))).toBe(true);
    expect(existsSync(join(prefix, 'share/man/man1/l2node-start.1'))).toBe(true);
  });

  it('runs l2node --version from that PATH on Node 24.12 or newer, whatever node comes first', async () => {
    const system = await runCommand('node', ['--version'], { env: env() });
    const run = await runCommand('l2node', ['--version'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const [, version] = /^l2node\/0\.1\.0 \S+ node-(v[0-9.]+)$/m.exec(run.stdout) ?? [];
    const [major = 0, minor = 0] = (system.stdout.trim().slice(1).split('.') ?? []).map(Number);
    const old = major < 24 || (major === 24 && minor < 12);
    expect(version).toBe(old ? 'v24.12.0' : system.stdout.trim());
  });

  // SIGINT too: a `kill -INT` of the wrapper alone (no terminal sends it to the whole group) must stop the node.
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on to the node it started on the pinned runtime, which stops gracefully',
    async (signal) => {
      const child = spawn('l2node', ['start', '--port', '0', '--admin-port', '0', '--log-format', 'json'], {
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      let code: number | null | undefined;
      child.once('exit', (c) => (code = c));
      await until('the node to run', async () => (out.includes('"node running"') ? true : undefined), 30_000);
      child.kill(signal);
      await until(`the wrapper to exit after ${signal}`, () => code, 20_000).catch((err) => {
        child.kill('SIGKILL');
        throw err;
      });
      expect(code).toBe(0);
      expect(out).toContain(`received ${signal}: stopping`);
      expect(out).toContain('"node stopped"');
    },
    60_000,
  );
});
