#!/usr/bin/env node
// Entry of the l2node CLI. The version check comes first and uses only syntax old Node versions parse,
// so an old runtime gets one clear line instead of a stack trace.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 24 || (major === 24 && minor < 12)) {
  // A checkout installed with `npm install -g <checkout>` or `npm link` is linked, dev dependencies included:
  // the Node 24.12 the project pins (the `node` package) runs the CLI, whatever `node` is first on PATH.
  const pinned = new URL('../node_modules/node/bin/node', import.meta.url);
  Promise.all([import('node:fs'), import('node:child_process'), import('node:url')]).then(([fs, cp, url]) => {
    if (!fs.existsSync(pinned)) {
      process.stderr.write(
        `l2node needs Node.js 24.12 or newer; this is ${process.version}. Run it through npm (npm start, npx l2node) ` +
          'which uses the Node 24.12 the project installs, or install Node 24.12+.\n',
      );
      process.exitCode = 1;
      return;
    }
    const child = cp.spawn(
      url.fileURLToPath(pinned),
      [url.fileURLToPath(import.meta.url)].concat(process.argv.slice(2)),
      {
        stdio: 'inherit',
      },
    );
    // Every stop signal sent to this process is passed on, SIGINT included (a `kill -INT` of this wrapper must stop
    // the command). A terminal's Ctrl-C reaches both processes (one process group), so the child sees it twice
    // within milliseconds: the node and the bot take a repeat that close as the same request, not as "force".
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => {
      if (signal) {
        process.removeAllListeners(signal);
        process.kill(process.pid, signal);
      } else process.exitCode = code;
    });
  });
} else if (process.argv[2] === '--version') {
  // `l2node --version` without oclif: loading it and its config is most of that call's time (bench/startup). The
  // line is oclif's own (`<name>/<version> <platform>-<arch> node-<version>`, its Config.userAgent); oclif names
  // the platform `wsl` inside WSL, so there, and whenever package.json cannot be read, oclif answers as before.
  Promise.all([import('node:fs'), import('node:os')])
    .then(([fs, os]) => {
      const wsl =
        process.platform === 'linux' &&
        (os.release().toLowerCase().includes('microsoft') ||
          fs.readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft'));
      const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
      if (wsl || !pkg.name || !pkg.version) throw new Error('oclif answers');
      const arch = process.arch === 'ia32' ? 'x86' : process.arch;
      process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${arch} node-${process.version}\n`);
    })
    .catch(() => runOclif());
} else {
  runOclif();
}

/** The CLI proper: oclif, which finds the command in oclif.manifest.json and loads only that command's bundle. */
function runOclif() {
  // V8's compile cache roughly halves the time to load oclif and the command modules on every later run; the CLI's
  // start-up budget is a few hundred ms (bench/startup). It lives in the user's cache directory
  // ($XDG_CACHE_HOME/l2node, default ~/.cache/l2node), or the OS temp directory when that cannot be written;
  // NODE_COMPILE_CACHE names another, NODE_DISABLE_COMPILE_CACHE=1 turns it off. A cache that cannot be used
  // only costs the speed-up, never the run.
  Promise.all([import('node:module'), import('node:os'), import('node:path')])
    .then(([m, os, path]) => {
      if (!m.enableCompileCache || process.env.NODE_COMPILE_CACHE) return m.enableCompileCache?.();
      const home = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
      for (const dir of [path.join(home, 'l2node', 'compile-cache'), path.join(os.tmpdir(), 'l2node-compile-cache')]) {
        if (m.enableCompileCache(dir).status !== m.constants.compileCacheStatus.FAILED) return;
      }
    })
    .catch(() => undefined)
    // oclif's check of its own engines range (semver and a package.json read on every call) is moot: the top of
    // this file requires a newer Node than oclif does.
    .then(() => {
      if (process.env.OCLIF_DISABLE_ENGINE_WARNING === undefined) process.env.OCLIF_DISABLE_ENGINE_WARNING = '1';
    })
    // oclif as `npm run build` bundled it with the commands (scripts/bundle-cli.mjs): the commands' bundles share it.
    .then(() => Promise.all([import('../dist/cli/oclif.js'), ownCommandOptions()]))
    .then(([{ default: oclif }, loadOptions]) => oclif.execute({ dir: import.meta.url, loadOptions }));
}

/**
 * oclif's load options for a run of one of l2node's own commands (not its help): package.json without its core
 * plugins. oclif loads each core plugin (@oclif/plugin-autocomplete: its package.json, its manifest, a glob of the
 * dependencies to find it) on every call, about a third of its Config.load (bench/startup), and such a run never
 * uses it: the plugin adds the `autocomplete` command and an install hook only. Any other run (help, the
 * `autocomplete` command, a mistyped command, whose suggestions list every command) gets oclif's usual load.
 * The command is own when its bundle exists: dist/cli/commands/<topic>/<name>.js, the words up to the first flag.
 */
async function ownCommandOptions() {
  const args = process.argv.slice(2);
  const words = [];
  for (const arg of args) {
    if (arg === '--' || arg.startsWith('-')) break;
    words.push(arg);
  }
  if (words.length === 0 || words[0] === 'autocomplete' || words[0] === 'help') return undefined;
  if (args.some((a) => a === '--help' || a === '-h')) return undefined;
  const [fs, url] = await Promise.all([import('node:fs'), import('node:url')]);
  const own = words.some((_, i) =>
    fs.existsSync(new URL(`../dist/cli/commands/${words.slice(0, i + 1).join('/')}.js`, import.meta.url)),
  );
  if (!own) return undefined;
  const pjson = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const { plugins: _corePlugins, ...oclifConfig } = pjson.oclif;
  // The root oclif would find from this file: the package's directory.
  return { root: url.fileURLToPath(new URL('..', import.meta.url)), pjson: { ...pjson, oclif: oclifConfig } };
}
