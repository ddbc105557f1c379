#!/usr/bin/env node
// From the built commands (dist/commands; run `tsc -b` first), writes:
//  - oclif.manifest.json: oclif reads it at start-up instead of importing every command (CLI start-up time);
//  - dist/cli/commands.json: for each command id, whether it takes arguments (bin/run.js's own-command dispatcher
//    finds the command in argv as oclif does, without loading oclif's config);
//  - man/<bin>.1 and one man/<bin>-<topic>-<command>.1 per command, and package.json's `man` list of them;
//  - with --docs: docs/cli.md, the command reference.
// `npm run build` runs it without --docs; `npm run docs` with. test/cli/cli-docs.test.ts fails when
// any of these differs from what the commands render.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { buildCliManifest } = await import('../dist/commands/_lib/docs/cli-manifest.js');
const { renderManPages } = await import('../dist/commands/_lib/docs/render-man-page.js');

const pkgFile = join(root, 'package.json');
const pkgText = readFileSync(pkgFile, 'utf8');
const pkg = JSON.parse(pkgText);
const manifest = await buildCliManifest(root);
writeFileSync(join(root, 'oclif.manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
// oclif reads a word after a command that takes arguments (or is not strict) as an argument, not as part of the id.
const commandTable = Object.fromEntries(
  Object.values(manifest.commands).map((c) => [
    c.id,
    { takesArgs: c.strict === false || Object.keys(c.args ?? {}).length > 0 },
  ]),
);
writeFileSync(join(root, 'dist/cli/commands.json'), `${JSON.stringify(commandTable)}\n`);

const bin = pkg.oclif.bin;
const pages = renderManPages(manifest, { bin, version: pkg.version, description: pkg.description });
const manDir = join(root, 'man');
mkdirSync(manDir, { recursive: true });
for (const f of readdirSync(manDir)) {
  if (f.endsWith('.1') && !pages.has(f)) rmSync(join(manDir, f));
}
let changed = 0;
for (const [name, content] of pages) {
  const file = join(manDir, name);
  let old = '';
  try {
    old = readFileSync(file, 'utf8');
  } catch {}
  if (old !== content) {
    writeFileSync(file, content);
    changed++;
  }
}
const man = [...pages.keys()].map((name) => `./man/${name}`);
if (JSON.stringify(pkg.man) !== JSON.stringify(man)) {
  pkg.man = man;
  writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
  process.stdout.write('updated the man list of package.json\n');
}
process.stdout.write(
  `oclif.manifest.json: ${Object.keys(manifest.commands).length} commands; man/: ${pages.size} pages (${changed} changed)\n`,
);

if (process.argv.includes('--docs')) {
  const { renderCliDocs } = await import('../dist/commands/_lib/docs/render-cli-docs.js');
  const file = join(root, 'docs', 'cli.md');
  let old = '';
  try {
    old = readFileSync(file, 'utf8');
  } catch {}
  const content = await renderCliDocs(root, manifest);
  if (content !== old) {
    writeFileSync(file, content);
    process.stdout.write('docs/cli.md: command reference updated\n');
  } else process.stdout.write('docs/cli.md: command reference already current\n');
}
