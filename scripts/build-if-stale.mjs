// `npm start`'s and `npm test`'s pre-step: runs `npm run build` only when something it builds from changed since
// the last build, so a restart of the dev node costs no compile, and `npm test` right after `npm ci` (CI) does not
// build a second time. The last build leaves dist/.build-stamp (`npm run build` ends with
// `node scripts/build-if-stale.mjs --stamp`); the build is stale when that stamp is missing or older than any file
// under src/ or a build input named below. `npm ci` builds through `prepare` and leaves the stamp.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');
/**
 * What `npm run build` reads besides src/: the compiler's settings, the oclif config, the bundler and the runtime
 * modules it builds from scripts/, the docs generator.
 */
const INPUTS = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.api.json',
  'scripts/bundle-cli.mjs',
  'scripts/oclif-lean.mjs',
  'scripts/command-script.mjs',
  'scripts/generate-cli-docs.js',
];

if (process.argv.includes('--stamp')) {
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}

/** The newest modification time (ms) of the files under `dir`, recursively. */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sources = Math.max(
  newestUnder(join(root, 'src')),
  ...INPUTS.map((f) => join(root, f)).map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)),
);
if (built > sources) process.exit(0);
process.stderr.write(built === 0 ? 'no build yet: building\n' : 'sources changed since the last build: building\n');
const npm = process.env.npm_execpath;
const run = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
