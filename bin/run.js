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
  Promise.resolve([builtin('node:fs'), builtin('node:os')])
    .then(([fs, os]) => {
      const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
      if (oclifPlatform(fs, os) === 'wsl' || !pkg.name || !pkg.version) throw new Error('oclif answers');
      process.stdout.write(`${userAgent(pkg, process.platform)}\n`);
    })
    .catch(() => runCli());
} else {
  runCli();
}

/**
 * A builtin module as CommonJS has it (Node 24.12+, which the top of this file checks): an `import()` of a builtin
 * makes its ES module facade, a copy of every export, and costs an asynchronous module job.
 */
function builtin(name) {
  return process.getBuiltinModule(name);
}

/** oclif's name of the platform (its getPlatform): `wsl` inside WSL, else Node's. */
function oclifPlatform(fs, os) {
  const wsl =
    process.platform === 'linux' &&
    (os.release().toLowerCase().includes('microsoft') ||
      fs.readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft'));
  return wsl ? 'wsl' : process.platform;
}

/** oclif's Config.userAgent: `<name>/<version> <platform>-<arch> node-<version>`. */
function userAgent(pkg, platform) {
  const arch = process.arch === 'ia32' ? 'x86' : process.arch;
  return `${pkg.name}/${pkg.version} ${platform}-${arch} node-${process.version}`;
}

/**
 * The CLI proper: one of l2node's own commands runs straight from its bundle (runOwnCommand); anything else (help,
 * topics, mistyped commands, the autocomplete plugin) goes through oclif, which finds the command in
 * oclif.manifest.json and loads only that command's bundle.
 */
function runCli() {
  // V8's compile cache roughly halves the time to load oclif and the command modules on every later run; the CLI's
  // start-up budget is a few hundred ms (bench/startup). It lives in the user's cache directory
  // ($XDG_CACHE_HOME/l2node, default ~/.cache/l2node), or the OS temp directory when that cannot be written;
  // NODE_COMPILE_CACHE names another, NODE_DISABLE_COMPILE_CACHE=1 turns it off. A cache that cannot be used
  // only costs the speed-up, never the run.
  Promise.resolve([builtin('node:module'), builtin('node:os'), builtin('node:path')])
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
    .then(() => ownCommand())
    .then((own) => (own?.direct ? runOwnCommand(own) : runOclif(own?.loadOptions)));
}

/** oclif as `npm run build` bundled it with the commands (scripts/bundle-cli.mjs): the commands' bundles share it. */
function runOclif(loadOptions) {
  return import('../dist/cli/oclif.js').then(({ default: oclif }) =>
    oclif.execute({ dir: import.meta.url, loadOptions }),
  );
}

/**
 * A run of one of l2node's own commands (not its help), found in argv as oclif finds it (its collation of a
 * spaced command id, with dist/cli/commands.json for the ids and which of them take arguments), or undefined.
 *  - `direct`: it runs without oclif's Config.load (runOwnCommand), which reads the manifest, each plugin's
 *    package.json and manifest, the theme, and spawns nothing but costs a CLI call about 35 ms of CPU: the command
 *    class parses its argv with oclif's own parser as before. Not under DEBUG (oclif's debug output stays oclif's),
 *    nor when package.json gives oclif hooks a run would run (l2node's only hook is command_not_found), exit codes
 *    or a theme (which oclif keeps in its cache for its parser and spinner).
 *  - `loadOptions`: oclif's load options without its core plugins, for a run oclif makes of an own command. oclif
 *    loads each core plugin (@oclif/plugin-autocomplete: its package.json, its manifest, a glob of the dependencies
 *    to find it) on every call, and such a run never uses it: the plugin adds the `autocomplete` command and an
 *    install hook only.
 * Any other run (help, the `autocomplete` command, a topic, a mistyped command, whose suggestions list every
 * command) gets oclif's usual load.
 */
async function ownCommand() {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0].includes(':') || argv[0] === 'autocomplete' || argv[0] === 'help') return;
  if (argv.some((a) => a === '--help' || a === '-h')) return;
  const [fs, url] = [builtin('node:fs'), builtin('node:url')];
  let commands;
  try {
    commands = JSON.parse(fs.readFileSync(new URL('../dist/cli/commands.json', import.meta.url), 'utf8'));
  } catch {
    return;
  }
  const id = commandId(argv, commands);
  if (!Object.hasOwn(commands, id)) return;
  const pjson = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const { plugins: _corePlugins, ...oclifConfig } = pjson.oclif;
  const root = url.fileURLToPath(new URL('..', import.meta.url));
  const hooks = Object.keys(oclifConfig.hooks ?? {});
  const direct =
    !process.env.DEBUG &&
    oclifConfig.topicSeparator === ' ' &&
    !oclifConfig.flexibleTaxonomy &&
    !oclifConfig.additionalHelpFlags &&
    !oclifConfig.exitCodes &&
    !oclifConfig.theme &&
    hooks.every((h) => h === 'command_not_found');
  return {
    direct,
    id,
    argv: argv.slice(id.split(':').length),
    root,
    pjson: { ...pjson, oclif: oclifConfig },
    loadOptions: { root, pjson: { ...pjson, oclif: oclifConfig } },
  };
}

/**
 * The command id oclif reads from argv with topics separated by spaces (its collateSpacedCmdIDFromArgs): words
 * that extend a command or topic id join it; at a flag, a `name=value` or once the id is a command that takes
 * arguments, the id ends; any other word joins it too (making an id oclif does not know: its not-found hook).
 */
function commandId(argv, commands) {
  if (argv.length === 1) return argv[0];
  const usable = new Set();
  for (const id of Object.keys(commands)) {
    const parts = id.split(':');
    for (let i = 1; i <= parts.length; i++) usable.add(parts.slice(0, i).join(':'));
  }
  const words = [];
  for (const arg of argv) {
    const current = words.join(':');
    if (usable.has(current ? `${current}:${arg}` : arg)) words.push(arg);
    else if (arg.includes('=') || arg.startsWith('-') || commands[current]?.takesArgs) break;
    else words.push(arg);
  }
  return words.join(':');
}

/**
 * Runs an own command as oclif's Config.runCommand and Command.run would, without Config.load and without loading
 * the full oclif: the command's class from its bundle (on oclif's lean part, dist/cli/oclif-lean.js; its base is
 * src/commands/_lib/command.ts), given the id oclif gives it, on the config a command reads (ownConfig). A failure
 * ends the run through oclif's own handler (Errors.handle, its exit codes included), loaded then.
 */
async function runOwnCommand({ id, argv, root, pjson }) {
  const [module, lean] = await Promise.all([
    import(`../dist/cli/commands/${id.split(':').join('/')}.js`),
    import('../dist/cli/oclif-lean.js'),
  ]);
  const [fs, os, path] = [builtin('node:fs'), builtin('node:os'), builtin('node:path')];
  try {
    const Command = module.default;
    // A command class (oclif's Command or l2node's base, which oclif runs alike): `new`, then `_run`.
    if (typeof Command !== 'function' || typeof Command.prototype?._run !== 'function')
      return runOclif({ root, pjson });
    Command.id = id;
    await new Command(argv, ownConfig(root, pjson, oclifPlatform(fs, os), os, path))._run();
    await lean.flush();
  } catch (error) {
    const { default: oclif } = await import('../dist/cli/oclif.js');
    await oclif.handle(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * What a command reads of oclif's Config (its bin, name, version, userAgent, the scoped environment variables such
 * as L2NODE_CONTENT_TYPE, its directories), with no plugins, commands or hooks (runHook answers nothing, as oclif's
 * would with none registered). oclif's Config class comes with its plugin loader (most of oclif's loading time);
 * these are its own definitions (Config: scopedEnvVar, scopedEnvVarKeys, dir), kept to what a run reads.
 */
function ownConfig(root, pjson, platform, os, path) {
  const config = {
    root,
    pjson,
    name: pjson.name,
    version: pjson.version || '0.0.0',
    arch: process.arch === 'ia32' ? 'x86' : process.arch,
    platform,
    windows: platform === 'win32',
    bin: pjson.oclif.bin || pjson.name,
    binAliases: pjson.oclif.binAliases,
    dirname: pjson.oclif.dirname || pjson.name,
    topicSeparator: pjson.oclif.topicSeparator,
    userAgent: userAgent(pjson, platform),
    home: process.env.HOME || os.homedir() || os.tmpdir(),
    runHook: async () => ({ failures: [], successes: [] }),
    scopedEnvVarKeys: (k) =>
      [config.bin, ...(config.binAliases ?? [])]
        .filter(Boolean)
        .map((alias) => [alias.replaceAll('@', '').replaceAll(/[/-]/g, '_'), k].join('_').toUpperCase()),
    scopedEnvVarKey: (k) =>
      [config.bin, k]
        .map((p) => p.replaceAll('@', '').replaceAll(/[/-]/g, '_'))
        .join('_')
        .toUpperCase(),
    scopedEnvVar: (k) => process.env[config.scopedEnvVarKeys(k).find((key) => process.env[key])],
    scopedEnvVarTrue: (k) => ['1', 'true'].includes(config.scopedEnvVar(k)),
    dir: (category) => {
      const base =
        process.env[`XDG_${category.toUpperCase()}_HOME`] ||
        (config.windows && process.env.LOCALAPPDATA) ||
        path.join(config.home, category === 'data' ? '.local/share' : `.${category}`);
      return path.join(base, config.dirname);
    },
  };
  config.cacheDir = config.scopedEnvVar('CACHE_DIR') || config.dir('cache');
  config.configDir = config.scopedEnvVar('CONFIG_DIR') || config.dir('config');
  config.dataDir = config.scopedEnvVar('DATA_DIR') || config.dir('data');
  return config;
}
