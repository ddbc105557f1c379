#!/usr/bin/env node
// Completes package-lock.json with the platform-only optional packages that the registry reachable
// from these machines does not carry (it answers 404 for e.g. @biomejs/cli-win32-x64). npm then leaves
// them out of the lockfile, and `npm ci` refuses the lockfile as "out of sync" (npm/cli#9342, #9846).
// Each missing package gets a full record (version, os, cpu, libc) read off its name, so npm skips it
// on a platform mismatch without fetching it. Run it after any `npm install` that rewrites the lockfile.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

function platformOf(name) {
  const base = name.split('/').pop();
  const os = ['android', 'darwin', 'linux', 'win32', 'freebsd'].find((o) => base.includes(o));
  const cpu = ['arm64', 'x64', 'ia32', 'arm'].find((c) => new RegExp(`(^|-)${c}(-|$)`).test(base));
  const libc = /musl/.test(base) ? 'musl' : /-gnu/.test(base) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${dep}`;
    if (packages[nested] || packages[`node_modules/${dep}`]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os || !cpu) {
      console.error(`cannot tell the platform of ${dep}; add its lockfile record by hand`);
      process.exitCode = 1;
      continue;
    }
    const version = String(range).replace(/^[\^~=]/, '');
    packages[`node_modules/${dep}`] = {
      version,
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      os: [os],
    };
    added++;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform-only optional package record(s)`);
