/**
 * docs/wallet.md is executed: its `js` code blocks, in order, are one program run against a node started as the
 * page says (no flags but a data directory), so the page fails this test as soon as it drifts from what works.
 * The one `js norun` block (the wallet of `@aztec/wallets/embedded`, which needs `@aztec/native`) cannot run
 * here; its import is checked against the package instead. The page's `npm install` line must name every
 * package the program imports, at 4.1.2.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { scaled } from '../helpers/until.js';

interface CodeBlock {
  readonly info: string;
  readonly code: string;
}

const page = readFileSync(join(REPO_ROOT, 'docs/wallet.md'), 'utf8');
const blocks: CodeBlock[] = [...page.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  info: (m[1] ?? '').trim(),
  code: m[2] ?? '',
}));
const program = blocks.filter((b) => b.info === 'js');
const notRun = blocks.filter((b) => b.info === 'js norun');

/** The packages a program's static imports and `resolve('...')` calls name (node: built-ins left out). */
function importedPackages(code: string): string[] {
  const specifiers = [...code.matchAll(/^import [^;]*? from '([^']+)';$|resolve\('([^']+)'\)/gm)].map(
    (m) => (m[1] ?? m[2]) as string,
  );
  const packages = specifiers
    .filter((s) => !s.startsWith('node:'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] as string)));
  return [...new Set(packages)].sort();
}

let dataDirectory: string;
let node: RunningNode;

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-wallet-doc-'));
  // As a user starts it: the first start deploys the test accounts and the BananaFPC (the page waits for it).
  node = await spawnNode({
    bare: true,
    args: ['--data-directory', dataDirectory],
    env: { NODE_LOCAL_NETWORK_SETUP: 'true' },
  });
});

afterAll(async () => {
  await node?.stop();
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
});

describe('docs/wallet.md', () => {
  it('installs, at 4.1.2, every package its program imports', () => {
    const install = blocks.find((b) => b.info === 'sh' && b.code.includes('npm install'))?.code ?? '';
    const named = [...install.matchAll(/(@aztec\/[a-z0-9.-]+)@([0-9.]+)/g)];
    expect(named.every((m) => m[2] === '4.1.2')).toBe(true);
    expect(importedPackages(program.map((b) => b.code).join('\n'))).toEqual(named.map((m) => m[1]).sort());
  });

  it('shows the standard wallet as the package exports it (not run: it loads @aztec/native)', () => {
    expect(notRun).toHaveLength(1);
    expect(importedPackages(notRun[0]?.code ?? '')).toEqual(['@aztec/wallets']);
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/@aztec/wallets/package.json'), 'utf8'));
    const entry = manifest.exports['./embedded'].default.types as string;
    const types = readFileSync(join(REPO_ROOT, 'node_modules/@aztec/wallets', entry), 'utf8');
    expect(types).toMatch(/export \{ NodeEmbeddedWallet as EmbeddedWallet \}/);
    expect(types).toMatch(/static create<[^\n]*nodeOrUrl: string \| AztecNode, options\?: EmbeddedWalletOptions\)/);
    expect(notRun[0]?.code).toContain("EmbeddedWallet.create('http://localhost:8080', { ephemeral: true })");
    const options = readFileSync(
      join(REPO_ROOT, 'node_modules/@aztec/wallets/dest/embedded/embedded_wallet.d.ts'),
      'utf8',
    );
    expect(options).toMatch(/ephemeral\?: boolean;/);
  });

  it(
    'runs its program against a fresh node: accounts, sponsored fees, a contract, receipts',
    async () => {
      expect(program.length).toBeGreaterThanOrEqual(5);
      // Under the repository's node_modules so the program resolves the packages as an installed project would.
      const dir = join(REPO_ROOT, 'node_modules/.cache/l2node-wallet-doc');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `wallet-doc-${process.pid}.mjs`);
      writeFileSync(file, program.map((b) => b.code).join('\n'));
      try {
        const run = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
          const child = spawn(process.execPath, [file], {
            env: { ...process.env, AZTEC_NODE_URL: node.publicUrl, LOG_LEVEL: 'warn' },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          let err = '';
          child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
          child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
          child.once('exit', (code) => resolve({ code, out, err }));
        });
        expect(run.code, `${run.out}\n${run.err.slice(-3000)}`).toBe(0);
        expect(run.out).toMatch(/^connected to chain 31337, block \d+$/m);
        expect(run.out).toMatch(/^carol 0x[0-9a-f]{64} deployed, fee paid by the sponsored FPC 0x[0-9a-f]{64}$/m);
        expect(run.out).toMatch(/^balances: alice 900, carol 60, bob 40$/m);
        expect(run.out).toMatch(/^fee paid in BananaCoin: true$/m);
        expect(run.out).toMatch(/^tx 0x[0-9a-f]{64} (checkpointed|proven|finalized) in block \d+$/m);
      } finally {
        rmSync(file, { force: true });
      }
    },
    scaled(480_000),
  );
});
