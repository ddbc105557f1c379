import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildCliManifest,
  type CliManifest,
  manPageName,
  visibleCommands,
} from '../../src/commands/_lib/docs/cli-manifest.js';
import { renderCliDocs } from '../../src/commands/_lib/docs/render-cli-docs.js';
import { renderManPages } from '../../src/commands/_lib/docs/render-man-page.js';
import { REPO_ROOT } from '../helpers/spawn-node.js';

/**
 * The generated CLI documents against the commands they come from (the built dist/commands, read the way
 * `oclif manifest` reads them): oclif.manifest.json, one man page per command plus l2node.1 and package.json's
 * `man` list (all three rewritten by `npm run build`), and the command reference docs/cli.md (by `npm run
 * docs`). A stale one fails here with the command that regenerates it. Also: the pages render without a single
 * man/groff warning, and a snapshot of every command's flags (a removed or renamed flag breaks scripts).
 */
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  description: string;
  man: string[];
  oclif: { bin: string };
};
const ctx = { bin: pkg.oclif.bin, version: pkg.version, description: pkg.description };
let manifest: CliManifest;

const hasMan = spawnSync('man', ['--version'], { encoding: 'utf8' }).status === 0;
const NO_MAN = '`man` is not installed here (apt-get install man-db): the man page rendering checks are skipped';
if (!hasMan) process.stderr.write(`test/cli/cli-docs.test.ts: ${NO_MAN}\n`);

beforeAll(async () => {
  manifest = await buildCliManifest(REPO_ROOT);
});

describe('oclif.manifest.json', () => {
  it('is what the commands give (else: npm run build)', () => {
    const committed = JSON.parse(readFileSync(join(REPO_ROOT, 'oclif.manifest.json'), 'utf8')) as unknown;
    expect(committed, 'oclif.manifest.json is stale: run `npm run build`').toEqual(
      JSON.parse(JSON.stringify(manifest)),
    );
  });
});

describe('man pages', () => {
  it('man/ holds exactly one page per command and l2node.1, as rendered (else: npm run build)', () => {
    const pages = renderManPages(manifest, ctx);
    const onDisk = readdirSync(join(REPO_ROOT, 'man'))
      .filter((f) => f.endsWith('.1'))
      .sort();
    expect(onDisk).toEqual([...pages.keys()].sort());
    for (const [name, content] of pages) {
      expect(
        readFileSync(join(REPO_ROOT, 'man', name), 'utf8') === content,
        `man/${name} is stale: run \`npm run build\``,
      ).toBe(true);
    }
    expect(pages.has('l2node-admin-rollback.1')).toBe(true);
    for (const id of Object.keys(manifest.commands)) expect(pages.has(`${manPageName('l2node', id)}.1`)).toBe(true);
  });

  it("are installed through package.json's man field", () => {
    expect(pkg.man).toEqual([...renderManPages(manifest, ctx).keys()].map((n) => `./man/${n}`));
  });

  it('man -l man/l2node-admin-rollback.1 renders at 80 columns without a warning', (ctx) => {
    ctx.skip(!hasMan, NO_MAN);
    const run = spawnSync('man', ['--warnings', '-l', join(REPO_ROOT, 'man', 'l2node-admin-rollback.1')], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' },
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^NAME\n\s+l2node-admin-rollback - Roll the chain back to a block/m);
    expect(run.stdout).toMatch(/^EXIT STATUS$/m);
  });

  it('every page renders without a warning', (ctx) => {
    ctx.skip(!hasMan, NO_MAN);
    const warnings: string[] = [];
    for (const f of readdirSync(join(REPO_ROOT, 'man'))) {
      const run = spawnSync('man', ['--warnings', '-l', join(REPO_ROOT, 'man', f)], {
        encoding: 'utf8',
        env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' },
      });
      if (run.status !== 0 || run.stderr !== '') warnings.push(`${f}: ${run.stderr}`);
    }
    expect(warnings).toEqual([]);
  });
});

describe('docs/cli.md', () => {
  it('is what the commands render (else: npm run docs)', async () => {
    const committed = readFileSync(join(REPO_ROOT, 'docs', 'cli.md'), 'utf8');
    const rendered = await renderCliDocs(REPO_ROOT, manifest);
    for (const c of visibleCommands(manifest)) expect(rendered).toContain(`## \`l2node ${c.id.replaceAll(':', ' ')}\``);
    expect(committed === rendered, 'docs/cli.md is stale: run `npm run docs`').toBe(true);
  });
});

describe('flags of every command', () => {
  it('match the snapshot (names, types, env twins, defaults, options)', () => {
    const flags = Object.fromEntries(
      Object.values(manifest.commands).map((c) => [
        c.id.replaceAll(':', ' '),
        Object.values(c.flags)
          .filter((f) => !f.hidden)
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((f) => {
            const parts = [`--${f.name}`, f.char ? `-${f.char}` : '', f.type === 'option' ? '<value>' : 'switch'];
            if (f.type === 'boolean' && f.allowNo) parts.push(`--no-${f.name}`);
            if (f.env) parts.push(`env ${f.env}`);
            if (f.type === 'option' && f.default !== undefined) parts.push(`default ${String(f.default)}`);
            if (f.type === 'option' && f.options) parts.push(`one of ${f.options.join('|')}`);
            if (f.type === 'option' && f.multiple) parts.push('repeatable');
            if (f.required) parts.push('required');
            return parts.filter(Boolean).join(' ');
          }),
      ]),
    );
    expect(flags).toMatchSnapshot();
  });
});
