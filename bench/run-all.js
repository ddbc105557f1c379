// `npm run bench`: runs every benchmark (bench/<name>/run.js) one after the other; each prints its
// figures beside a baseline measured in the same run. Extra arguments are passed to each benchmark.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const benches = readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(`${dir}${d.name}/run.js`))
  .map((d) => d.name)
  .sort();
let failed = 0;
for (const name of benches) {
  process.stdout.write(`\n== bench/${name}\n`);
  const r = spawnSync(process.execPath, [`${dir}${name}/run.js`, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
