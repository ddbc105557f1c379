#!/usr/bin/env node
// Entry of the l2node CLI. The version check comes first and uses only syntax old Node versions parse,
// so an old runtime gets one clear line instead of a stack trace.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 24 || (major === 24 && minor < 12)) {
  process.stderr.write(
    `l2node needs Node.js 24.12 or newer; this is ${process.version}. Run it through npm (npm start, npx l2node) ` +
      'which uses the Node 24.12 the project installs, or install Node 24.12+.\n',
  );
  process.exitCode = 1;
} else {
  // V8's compile cache (kept in the OS temp directory) roughly halves the time to load oclif and the command
  // modules on every later run; the CLI's start-up budget is a few hundred ms (bench/cli).
  import('node:module')
    .then((m) => m.enableCompileCache?.())
    .catch(() => undefined)
    .then(() => import('@oclif/core'))
    .then(({ execute }) => execute({ dir: import.meta.url }));
}
