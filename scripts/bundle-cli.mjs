// Bundles the CLI (issue 27): oclif and every command, from the compiled dist/commands, into dist/cli/ with esbuild,
// so a CLI call loads a few files instead of hundreds (module resolution and loading were most of `l2node query
// tips` and of a dev start before its first log line; bench/startup). Run by `npm run build` after tsc and before
// the oclif manifest, which is made from these bundles (package.json `oclif` points at dist/cli/commands).
//  - oclif itself (dist/cli/oclif.js, which bin/run.js imports for help and on the error path) and its lean part
//    (dist/cli/oclif-lean.js, scripts/oclif-lean.mjs: what a successful run of a command uses), then one build per
//    command and per file oclif names in package.json (the help class, the hook): a command's static imports all
//    go into its one file, and its `@oclif/core` is oclif's lean part (sharedOclifPlugin), so every command uses
//    the one oclif of dist/cli. Dynamic imports stay dynamic (chunks): a command still loads the daemon's services
//    only when it starts them. Code of ours is repeated across the commands' files (about 15 MB of JavaScript in
//    all), which a run never sees: it loads one command.
//  - A command's file then becomes a V8 script (dist/cli/<command>.script.cjs) and a small module that runs it
//    (toScript, scripts/command-script.mjs): a script can have a code cache made after it ran, which holds
//    the functions a run calls, where Node's compile cache of a module holds only its top-level code.
//  - Source maps (linked) map to src/ (the tsc maps chained); they carry no sources (the repeated code would
//    double their size), so a stack trace names src/ files and lines.
//  - Packages: only the pure JavaScript ones a CLI call or a dev start loads every time are bundled (BUNDLED, with
//    everything they import); every other package stays an import of node_modules: native addons, packages that
//    start workers from files of their own, and the heavy optional stacks loaded only when asked for (L1, object
//    store, metrics, Aztec's packages), which the start-up test checks are not loaded by a plain run.
//  - Code of ours that finds a file next to itself (`import.meta.url`: workers, the native addon, package.json)
//    gets its own dist/ location back, so those files are found as before: workers and child processes still run
//    from dist/.
//  - dist/cli/bundle-inputs.json: for each bundle file, the dist/ modules and packages it holds (and oclif's modules),
//    which the start-up test (test/cli/startup-modules.test.ts) checks against its deny lists beside the modules a
//    run resolved.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const outdir = join(dist, 'cli');

/**
 * Packages bundled, with what they import: oclif (every call), and the libraries every command or dev start loads.
 * pino is bundled without its transports' worker files (which it finds from its own directory): l2node writes its
 * logs through streams of its own (src/daemon/logging), never through a pino transport. Bundled, its dozen
 * CommonJS modules cost a dev start about 5 ms of CPU instead of about 30 (bench/startup).
 */
const BUNDLED = new Set([
  '@oclif/core',
  'zod',
  'smol-toml',
  '@noble/hashes',
  'jayson',
  'pino',
  'better-sqlite3',
  'damerau-levenshtein',
]);

/**
 * CommonJS packages left outside the bundle that a dev start or a CLI call loads every time: a bundle file takes
 * them with `require` (the banner's) instead of `import`. An ES module importing a CommonJS module makes Node
 * parse that module's source with its CommonJS lexer to find the names it exports and wrap it in a module record
 * (about a tenth of a dev start's module loading, in CPU profiles); `require` does neither. The packages' own
 * modules load as before (their requires are CommonJS already).
 */
const REQUIRED = new Set(['piscina']);

/** Packages never bundled, even when a bundled package imports them: oclif loads TypeScript only to run sources. */
const NEVER_BUNDLED = new Set(['typescript', 'ts-node', 'tsx']);

/** `@scope/name` or `name` of a bare import specifier. */
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The command modules: every .js under dist/commands but the helpers in _lib (as oclif's globPatterns say). */
function commandFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === '_lib' ? [] : commandFiles(path);
    return e.name.endsWith('.js') ? [path] : [];
  });
}

const entryPoints = {
  oclif: '@oclif/core',
  'commands/_lib/root-help': join(dist, 'commands/_lib/root-help.js'),
  'commands/_lib/command-not-found': join(dist, 'commands/_lib/command-not-found.js'),
  ...Object.fromEntries(commandFiles(join(dist, 'commands')).map((f) => [relative(dist, f).replace(/\.js$/, ''), f])),
};

/** Bundles the BUNDLED packages (and what they import); leaves every other package an import of node_modules. */
const packagesPlugin = {
  name: 'l2node-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || args.kind === 'entry-point') return undefined;
      const fromPackage = args.importer.includes(`${'/'}node_modules/`);
      const name = packageName(args.path);
      const bundled = !NEVER_BUNDLED.has(name) && (fromPackage || BUNDLED.has(name));
      return bundled ? undefined : { path: args.path, external: true };
    });
  },
};

/**
 * An `import` of a REQUIRED package becomes a module holding `module.exports = require(<package>)`, which esbuild
 * turns into a call of the banner's `require` (the `require` inside stays external: packagesPlugin), and whose
 * default and named imports esbuild's CommonJS interop gives as Node's would (default: module.exports).
 */
const requiredPackagesPlugin = {
  name: 'l2node-required-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'import-statement' && REQUIRED.has(args.path) && !args.importer.includes(`${'/'}node_modules/`)
        ? { path: args.path, namespace: 'l2node-required' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'l2node-required' }, (args) => ({
      loader: 'js',
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
    }));
  },
};

/**
 * A static `import` of one of Node's builtins becomes a module of the bundle that takes it with
 * `process.getBuiltinModule` and exports its names. Node makes an ES module facade of a builtin on its first
 * import and reads every export into it: node:fs's `promises` getter then loads fs/promises and readline's
 * interface, a few ms of every start for modules it does not use. The names exported are the builtin's plain
 * values (an accessor such as node:fs's `promises` is not: import it from its own module, node:fs/promises).
 * A builtin of LAZY_BUILTINS is loaded when one of its names is first read instead (its module is CommonJS with a
 * getter per name, which the bundle reads at each use): a command imports them for work a plain run may not do.
 */
const LAZY_BUILTINS = new Set([
  // The hashes and random bytes of blocks, keys and peers: about 5 ms to load its dozen modules.
  'node:crypto',
  // CRC-32 of stored records, gzip of large answers.
  'node:zlib',
]);
const builtinModulesPlugin = {
  name: 'l2node-builtin-modules',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'import-statement' && isBuiltin(args.path)
        ? { path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: 'l2node-builtin' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'l2node-builtin' }, (args) => {
      const builtin = process.getBuiltinModule(args.path);
      const names = Object.keys(builtin).filter(
        (k) =>
          /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default' && 'value' in Object.getOwnPropertyDescriptor(builtin, k),
      );
      const load = `process.getBuiltinModule(${JSON.stringify(args.path)})`;
      if (LAZY_BUILTINS.has(args.path)) {
        return {
          loader: 'js',
          contents: [
            'let m;',
            `for (const name of ${JSON.stringify(names)}) {`,
            `  Object.defineProperty(exports, name, { enumerable: true, get: () => (m ??= ${load})[name] });`,
            '}',
          ].join('\n'),
        };
      }
      return {
        loader: 'js',
        contents: [`const m = ${load};`, 'export default m;', `export const { ${names.join(', ')} } = m;`].join('\n'),
      };
    });
  },
};

/** Gives a module of ours that uses `import.meta.url` its dist/ location (from the package root) back. */
const ownLocationPlugin = {
  name: 'l2node-own-location',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      if (args.path.includes(`${'/'}node_modules/`)) return undefined;
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const own = JSON.stringify(relative(root, args.path).split('\\').join('/'));
      return {
        contents: text.replace(/\bimport\.meta\.url\b/g, `new URL(${own}, __l2nodePackageRoot).href`),
        loader: 'js',
      };
    });
  },
};

/**
 * jayson's WebSocket server and client, which l2node does not use, load ws (and node:https, node:tls) when jayson
 * is imported, through isomorphic-ws: a sizeable part of a dev start's module loading. In the bundle,
 * isomorphic-ws loads ws when first used instead (the node's event stream loads ws itself on the first
 * `GET /events`).
 */
const lazyWsPlugin = {
  name: 'l2node-lazy-ws',
  setup(b) {
    b.onResolve({ filter: /^isomorphic-ws$/ }, () => ({ path: 'isomorphic-ws', namespace: 'l2node-lazy-ws' }));
    b.onLoad({ filter: /.*/, namespace: 'l2node-lazy-ws' }, () => ({
      loader: 'js',
      contents: [
        'let ws;',
        "const load = () => (ws ??= require('ws'));",
        'module.exports = new Proxy(function WebSocket() {}, {',
        '  get: (_, key) => load()[key],',
        '  construct: (_, args) => new (load())(...args),',
        '});',
      ].join('\n'),
    }));
  },
};

/**
 * better-sqlite3's JavaScript is bundled (its fifteen CommonJS modules cost a dev start about 8 ms of CPU loaded
 * from node_modules, about 2 bundled); its native addon stays in node_modules. The module that finds the addon looks
 * next to itself (`__dirname`): in the bundle it looks in the installed package's lib/ directory instead, resolved
 * when the first database opens.
 */
const BETTER_SQLITE3_BINDING = /[\\/]node_modules[\\/]better-sqlite3[\\/]lib[\\/]binding\.js$/;
const betterSqlite3BindingPlugin = {
  name: 'l2node-better-sqlite3-binding',
  setup(b) {
    b.onLoad({ filter: BETTER_SQLITE3_BINDING }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      const uses = text.match(/\b__dirname\b/g)?.length ?? 0;
      if (uses === 0) throw new Error(`better-sqlite3 changed: ${args.path} (scripts/bundle-cli.mjs)`);
      return {
        loader: 'js',
        contents: [
          text.replace(/\b__dirname\b/g, '__l2nodeAddonDir()'),
          // Resolved once: the module asks for its directory up to three times when it finds the addon.
          'let __l2nodeAddonDirectory;',
          "function __l2nodeAddonDir() { return (__l2nodeAddonDirectory ??= path.dirname(require.resolve('better-sqlite3'))); }",
        ].join('\n'),
      };
    });
  },
};

/**
 * jayson's transports, which the node does not use (its listeners are node:http servers of its own; the JSON-RPC
 * server takes only jayson's Server and Method): its HTTP, HTTPS, TCP, TLS and WebSocket clients and servers, which
 * load node:https and node:tls, required eagerly by jayson's index and its Server. In the bundle they load when
 * first used instead: `jayson.Client` on first use, and a Server's transports (`server.http()`, ...) on first
 * access. jayson's server asks every request's method whether it is a `jayson.Client` (a relay): nothing can be
 * one before the client is loaded, so that check answers false without loading it.
 */
const LAZY_JAYSON = [
  {
    file: /[\\/]node_modules[\\/]jayson[\\/]lib[\\/]index\.js$/,
    eager: "Jayson.Client = Jayson.client = require('./client');",
    lazy: [
      'let client;',
      "const loadClient = () => (client ??= require('./client'));",
      'const Client = new Proxy(function Client() {}, {',
      '  get: (_, key) =>',
      '    key === Symbol.hasInstance && client === undefined ? () => false : Reflect.get(loadClient(), key),',
      '  construct: (_, args) => Reflect.construct(loadClient(), args),',
      '  apply: (_, self, args) => Reflect.apply(loadClient(), self, args),',
      '});',
      'Jayson.Client = Jayson.client = Client;',
    ],
  },
  {
    file: /[\\/]node_modules[\\/]jayson[\\/]lib[\\/]server[\\/]index\.js$/,
    eager: 'this[name] = interfaces[name].bind(interfaces[name], this);',
    lazy: [
      'const server = this;',
      'Object.defineProperty(this, name, {',
      '  configurable: true,',
      '  enumerable: true,',
      '  get: () => {',
      '    const bound = interfaces[name].bind(interfaces[name], server);',
      '    Object.defineProperty(server, name, { value: bound, writable: true, configurable: true, enumerable: true });',
      '    return bound;',
      '  },',
      '  set: (value) => Object.defineProperty(server, name, { value, writable: true, configurable: true, enumerable: true }),',
      '});',
    ],
  },
  {
    file: /[\\/]node_modules[\\/]jayson[\\/]lib[\\/]server[\\/]index\.js$/,
    eager: [
      'Server.interfaces = {',
      "  http: require('./http'),",
      "  https: require('./https'),",
      "  tcp: require('./tcp'),",
      "  tls: require('./tls'),",
      "  websocket: require('./websocket'),",
      "  middleware: require('./middleware'),",
      '};',
    ].join('\n'),
    lazy: [
      'Server.interfaces = {',
      "  get http() { return require('./http'); },",
      "  get https() { return require('./https'); },",
      "  get tcp() { return require('./tcp'); },",
      "  get tls() { return require('./tls'); },",
      "  get websocket() { return require('./websocket'); },",
      "  get middleware() { return require('./middleware'); },",
      '};',
    ],
  },
];
const lazyJaysonPlugin = {
  name: 'l2node-lazy-jayson',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]jayson[\\/]lib[\\/](server[\\/])?index\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      let text = await readFile(args.path, 'utf8');
      for (const { eager, lazy } of LAZY_JAYSON.filter((r) => r.file.test(args.path))) {
        if (!text.includes(eager)) throw new Error(`jayson changed: ${args.path} (scripts/bundle-cli.mjs LAZY_JAYSON)`);
        text = text.replace(eager, lazy.join('\n'));
      }
      return { contents: text, loader: 'js' };
    });
  },
};

/**
 * In a command's build, `@oclif/core` is the one oclif that dist/cli holds, re-exported under its names: a
 * command's bundle holds no oclif of its own. A static import is the lean oclif (dist/cli/oclif-lean.js: what a
 * successful run uses, scripts/oclif-lean.mjs), a dynamic one (`await import('@oclif/core')`: help, error handling,
 * the spinner) the full oclif of dist/cli/oclif.js, which bin/run.js loads for help and on the error path. A name a
 * command imports statically that the lean oclif does not have (Command, Config, Help...) fails the build. The help
 * class and the hook, which only oclif's own run loads, take the full oclif statically (`full`).
 */
const OCLIF_NAMES = Object.keys(await import('@oclif/core')).filter(
  (n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default',
);
const LEAN_OCLIF_NAMES = ['Args', 'Errors', 'Flags', 'Parser', 'flush', 'getLogger', 'ux'];
const sharedOclifPlugin = (dir, full) => ({
  name: 'l2node-shared-oclif',
  setup(b) {
    b.onResolve({ filter: /^@oclif\/core$/ }, (args) => ({
      path: full || args.kind === 'dynamic-import' ? 'full' : 'lean',
      namespace: 'l2node-shared-oclif',
    }));
    b.onResolve({ filter: /^l2node-oclif-lean$/ }, () => ({ path: `${dir}oclif-lean.js`, external: true }));
    // The full oclif's module may land in a chunk (dist/cli/chunks/) of a build whose code imports it both ways:
    // it finds dist/cli/oclif.js from the package root, wherever it lies.
    b.onLoad({ filter: /.*/, namespace: 'l2node-shared-oclif' }, (args) => ({
      loader: 'js',
      contents:
        args.path === 'full'
          ? [
              'const { default: oclif } = await import(new URL("dist/cli/oclif.js", __l2nodePackageRoot).href);',
              'export default oclif;',
              `export const { ${OCLIF_NAMES.join(', ')} } = oclif;`,
            ].join('\n')
          : `export { ${LEAN_OCLIF_NAMES.join(', ')} } from 'l2node-oclif-lean';`,
    }));
  },
});

/**
 * The lean oclif (scripts/oclif-lean.mjs) holds oclif's parser, flags and error classes without its help, which
 * comes with ejs, the ux spinners and the rest of oclif: four requires of those modules take what they use from the
 * module that defines it instead of an index that loads the help. The values are the same (one module, in a chunk
 * both oclif bundles share): the parser's errors and the integer and url flags' `CLIError`, the parser's usage
 * text's `colorize`. The `help` flag (`Flags.help`, which l2node does not use) loads oclif's help class through the
 * full oclif when it is given.
 */
const OCLIF_LIB = join(root, 'node_modules/@oclif/core/lib');
const OCLIF_LEAN_REQUIRES = {
  'parser/errors.js ../errors': join(OCLIF_LIB, 'errors/errors/cli.js'),
  'flags.js ./errors': join(OCLIF_LIB, 'errors/errors/cli.js'),
  'parser/help.js ../ux': join(OCLIF_LIB, 'ux/theme.js'),
  'flags.js ./help': 'l2node-oclif-help',
};
const oclifLeanRequiresPlugin = {
  name: 'l2node-oclif-lean-requires',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/(errors|ux|help)$/ }, (args) => {
      const target = OCLIF_LEAN_REQUIRES[`${relative(OCLIF_LIB, args.importer)} ${args.path}`];
      if (target === 'l2node-oclif-help') return { path: target, namespace: target };
      return target ? { path: target } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'l2node-oclif-help' }, () => ({
      loader: 'js',
      contents: [
        'const oclif = () => import(new URL("dist/cli/oclif.js", __l2nodePackageRoot).href);',
        'exports.loadHelpClass = async (config) => (await oclif()).default.loadHelpClass(config);',
      ].join('\n'),
    }));
  },
};

/**
 * Packages that bundled modules require when they are loaded but use only on a rare path: there they are required
 * when first used. Keyed by the requiring module's path under node_modules.
 *  - oclif's modules in a successful run (its logger, error classes, theme, parser, file flags) use them only to
 *    print an error or a debug line, to read a flag from stdin or to check a file flag: debug, wrap-ansi and its
 *    dependencies, ansis, clean-stack, supports-color, node:fs/promises and node:readline with their streams (about
 *    half of the CPU time of loading oclif's lean part).
 *  - sonic-boom (pino's destination) and thread-stream call Node's `assert` in one check each: loading it cost a dev
 *    start 2 to 6 ms (its error formatting and diff modules).
 * Each is a default import of a package (`const x = __importDefault(require("pkg"));`, used as `x.default`), which
 * becomes an object whose `default` requires the package on first use, or a plain one (`const x = require("pkg");`
 * or with single quotes, used as `x.name` or called), which becomes a proxy requiring it on first use. A changed
 * package fails the build here.
 */
const LAZY_REQUIRES = {
  '@oclif/core/lib/logger.js': ['debug'],
  '@oclif/core/lib/errors/errors/cli.js': ['clean-stack', 'indent-string', 'wrap-ansi'],
  '@oclif/core/lib/errors/errors/pretty-print.js': ['indent-string', 'wrap-ansi'],
  '@oclif/core/lib/ux/theme.js': ['ansis'],
  '@oclif/core/lib/ux/supports-color.js': ['supports-color'],
  // Node's fs/promises (with its streams and readline), used by the file and directory flags' checks only.
  '@oclif/core/lib/util/fs.js': ['node:fs/promises'],
  // Node's readline, used to read a flag's value from stdin (allowStdin) only.
  '@oclif/core/lib/parser/parse.js': ['node:readline'],
  'sonic-boom/index.js': ['assert'],
  // Node's worker_threads: pino's transports (threads), which l2node does not use (src/daemon/logging).
  'thread-stream/index.js': ['assert', 'worker_threads'],
  'pino/lib/tools.js': ['worker_threads'],
  // Node's crypto: jayson's request ids (randomUUID), for requests the node's listeners never make.
  'jayson/lib/utils.js': ['crypto'],
};
const NODE_MODULES = join(root, 'node_modules');
const lazyRequiresPlugin = {
  name: 'l2node-lazy-requires',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.js$/ }, async (args) => {
      const packages = LAZY_REQUIRES[relative(NODE_MODULES, args.path).split('\\').join('/')];
      if (!packages) return undefined;
      const { readFile } = await import('node:fs/promises');
      let text = await readFile(args.path, 'utf8');
      for (const pkg of packages) {
        const destructured = new RegExp(`const \\{ ([\\w, ]+) \\} = require\\((["'])${pkg}\\2\\);?`).exec(text);
        if (destructured) {
          // `const { a, b } = require(pkg)`: the names become getters of one object, and the module's uses of them
          // read those getters (the files listed use each name as a plain identifier).
          const holder = `${pkg.replace(/\W/g, '_')}__lazy`;
          const names = destructured[1].split(',').map((n) => n.trim());
          const [before, after] = [
            text.slice(0, destructured.index),
            text.slice(destructured.index + destructured[0].length),
          ];
          const uses = names.reduce(
            (rest, n) => rest.replace(new RegExp(`(?<![\\w$.])${n}(?![\\w$:])`, 'g'), `${holder}.${n}`),
            after,
          );
          const getters = names.map((n) => `get ${n}() { return (${holder}__loaded ??= require("${pkg}")).${n}; }`);
          text = `${before}let ${holder}__loaded; const ${holder} = { ${getters.join(', ')} };${uses}`;
          continue;
        }
        const withDefault = new RegExp(`const (\\w+) = __importDefault\\(require\\("${pkg}"\\)\\);`);
        const plain = new RegExp(`const (\\w+) = require\\((["'])${pkg}\\2\\);?`);
        const [eager, name] = [withDefault, plain].map((re) => [re, re.exec(text)?.[1]]).find(([, n]) => n) ?? [];
        if (!name) throw new Error(`${args.path} changed (scripts/bundle-cli.mjs LAZY_REQUIRES)`);
        const load = eager === withDefault ? `__importDefault(require("${pkg}"))` : `require("${pkg}")`;
        text = text.replace(
          eager,
          eager === withDefault
            ? `let ${name}__loaded; const ${name} = { get default() { return (${name}__loaded ??= ${load}).default; } };`
            : `let ${name}__loaded; const ${name} = new Proxy(function ${name}() {}, { get: (_, key) => (${name}__loaded ??= ${load})[key], apply: (_, self, args) => Reflect.apply((${name}__loaded ??= ${load}), self, args) });`,
        );
      }
      return { contents: text, loader: 'js' };
    });
  },
};

/** Every file under `dir` (recursively) whose name ends with `suffix`, sorted. */
function filesUnder(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(suffix))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * The identity of the code the bundles hold: a hash of every compiled module (dist/, this build's inputs), the
 * native addon and package.json. Bundled code reads it as `__L2NODE_BUILD_ID__`; an in-memory node names its
 * cached genesis image with it (src/daemon/store/genesis-image.ts), so another build never uses an image it did
 * not make.
 */
function buildId() {
  const hash = createHash('sha256');
  const files = [
    ...filesUnder(dist, '.js').filter((f) => !f.startsWith(`${outdir}/`)),
    ...filesUnder(join(root, 'build', 'Release'), '.node'),
    join(root, 'package.json'),
  ];
  for (const file of files) hash.update(`${relative(root, file)}\n`).update(readFileSync(file));
  return hash.digest('hex').slice(0, 32);
}

const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __L2NODE_BUILD_ID__: JSON.stringify(buildId()) },
  banner: {
    // CommonJS packages bundled into ES modules call `require` (node builtins, JSON); the package root is where
    // the modules of ours that find files next to themselves look (ownLocationPlugin). Every output file lies
    // under dist/cli/, so the root is cut from the file's own URL: resolving the package's name instead
    // (`import.meta.resolve`) read package.json in every one of the few dozen files a run loads.
    js: [
      "import { createRequire as __l2nodeCreateRequire } from 'node:module';",
      'const require = __l2nodeCreateRequire(import.meta.url);',
      "const __l2nodePackageRoot = import.meta.url.slice(0, import.meta.url.lastIndexOf('/dist/cli/') + 1);",
    ].join('\n'),
  },
};

/** Where a command's file fills the registry of its static graph's modules (staticModulePlugin reads it). */
const STATIC_MODULES = "globalThis[Symbol.for('l2node.staticModules')]";

/** The path of `specifier` imported by `importer` when it is a module of ours (a relative import), else undefined. */
const ownModule = (specifier, resolveDir) =>
  specifier.startsWith('.') && !resolveDir.includes(`${'/'}node_modules`) ? join(resolveDir, specifier) : undefined;

/** A module's key in the registry: its path from the repository root. */
const moduleKey = (path) => relative(root, path).split('\\').join('/');

/**
 * In the build of a command's dynamic parts: a module of ours that the command's static graph holds is read from
 * the registry the command's file filled when it loaded (the same module instance, its classes and state), under
 * the names it exports. `used` collects the keys read, which the command's file then registers.
 */
const staticModulePlugin = (staticModules, exportsOf, used) => ({
  name: 'l2node-static-modules',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const path = ownModule(args.path, args.resolveDir);
      return path && staticModules.has(path) ? { path, namespace: 'l2node-static' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'l2node-static' }, (args) => {
      const key = moduleKey(args.path);
      used.add(key);
      const names = exportsOf.get(args.path) ?? [];
      // The names are read once, when the dynamic part loads: an export that can be reassigned later (a top-level
      // `let` or `var`) would be seen with its value of that moment, so none may be (tsc keeps the declarations).
      const source = readFileSync(args.path, 'utf8');
      const mutable = names.filter((n) =>
        new RegExp(`^(?:export )?(?:let|var) ${n.replace(/\$/g, '\\$')}(?![\\w$])`, 'm').test(source),
      );
      if (mutable.length > 0)
        throw new Error(`${key} exports ${mutable.join(', ')} as let/var (scripts/bundle-cli.mjs)`);
      const named = names.filter((n) => n !== 'default');
      return {
        loader: 'js',
        contents: [
          `const m = ${STATIC_MODULES}?.[${JSON.stringify(key)}];`,
          `if (m === undefined) throw new Error(${JSON.stringify(`${key}: not registered by the command's bundle (scripts/bundle-cli.mjs)`)});`,
          named.length > 0 ? `export const { ${named.join(', ')} } = m;` : '',
          names.includes('default') ? 'export default m.default;' : '',
        ].join('\n'),
      };
    });
  },
});

/**
 * Builds one command: its static graph in ONE file (dist/cli/<name>.js), its dynamic imports (the services a start
 * loads when asked for) in a build of their own (chunks). Each file a run loads costs Node a resolution, a package
 * scope lookup, a module record, its compile cache entry and its links: a dev start that loaded its static graph as
 * 31 files (its share of chunks with the dynamic parts) spent about a third more CPU importing it than from one file
 * (bench/startup). Modules shared by the two are the static file's: the dynamic parts read them from a registry
 * that file fills (staticModulePlugin), so each module still exists once.
 *  1. The static graph alone (dynamic imports left out, nothing written): which modules it holds, and the dynamic
 *     imports it makes of modules it does not hold.
 *  2. Those dynamic targets, bundled together with splitting (they share chunks), reading static modules from the
 *     registry.
 *  3. The static graph again, written: its entry registers the modules step 2 read, and its dynamic imports point
 *     at step 2's files. A dynamic import of a module it holds stays in the file.
 * `pluginsFor(toCli)` gives the plugins of a build whose files lie `toCli` (`../`, `../../`) below dist/cli/: the
 * command's file, or step 2's chunks (dist/cli/chunks/), which import oclif's lean part by a relative path.
 */
async function buildCommand(name, file, pluginsFor) {
  const plugins = pluginsFor('../'.repeat(name.split('/').length - 1));
  const leaveDynamic = {
    name: 'l2node-leave-dynamic',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
      );
    },
  };
  const first = await build({
    ...common,
    write: false,
    splitting: false,
    entryPoints: { [name]: file },
    plugins: [leaveDynamic, ...plugins],
  });
  const staticModules = new Set(
    Object.keys(first.metafile.inputs)
      .filter((i) => !i.includes(':') && !`/${i}`.includes(`${'/'}node_modules/`))
      .map((i) => join(root, i)),
  );
  const dynamicTargets = new Set();
  let bundledDynamicImports = false;
  for (const [input, { imports }] of Object.entries(first.metafile.inputs)) {
    for (const i of imports) {
      if (i.kind !== 'dynamic-import') continue;
      const own = ownModule(i.path, join(root, input, '..'));
      if (own || BUNDLED.has(packageName(i.path))) bundledDynamicImports = true;
      if (own ? !staticModules.has(own) : BUNDLED.has(packageName(i.path))) dynamicTargets.add(own ?? i.path);
    }
  }
  // No dynamic import of code the bundle holds (most commands): the first pass is the command's file as it is.
  if (!bundledDynamicImports) {
    for (const out of first.outputFiles) {
      mkdirSync(dirname(out.path), { recursive: true });
      writeFileSync(out.path, out.contents);
    }
    return [first];
  }
  const used = new Set();
  let dynamicBuild;
  const dynamicOutputOf = new Map();
  if (dynamicTargets.size > 0) {
    const exportsOf = new Map();
    const scan = await build({
      absWorkingDir: root,
      entryPoints: [...staticModules],
      bundle: false,
      write: false,
      metafile: true,
      format: 'esm',
      outdir: join(root, '.exports-scan'),
      logLevel: 'warning',
    });
    for (const output of Object.values(scan.metafile.outputs)) {
      if (output.entryPoint) exportsOf.set(join(root, output.entryPoint), output.exports);
    }
    dynamicBuild = await build({
      ...common,
      entryPoints: [...dynamicTargets],
      entryNames: 'chunks/[name]-[hash]',
      plugins: [staticModulePlugin(staticModules, exportsOf, used), ...pluginsFor('../')],
    });
    for (const [out, { entryPoint }] of Object.entries(dynamicBuild.metafile.outputs)) {
      if (!entryPoint) continue;
      const target = entryPoint.startsWith('node_modules/')
        ? [...dynamicTargets].find((t) => !t.startsWith('/') && entryPoint.startsWith(`node_modules/${t}/`))
        : join(root, entryPoint);
      if (target) dynamicOutputOf.set(target, join(root, out));
    }
  }
  const outFile = join(outdir, `${name}.js`);
  const toDynamicOutputs = {
    name: 'l2node-dynamic-outputs',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const target = ownModule(args.path, args.resolveDir) ?? args.path;
        const out = dynamicOutputOf.get(target);
        if (!out) return undefined;
        const path = relative(join(outFile, '..'), out).split('\\').join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
  const registered = [...used].sort();
  const entry = [
    ...registered.map((key, i) => `import * as s${i} from ${JSON.stringify(join(root, key))};`),
    `export * from ${JSON.stringify(file)};`,
    `export { default } from ${JSON.stringify(file)};`,
    registered.length > 0
      ? `${STATIC_MODULES} = Object.freeze({ ${registered.map((key, i) => `${JSON.stringify(key)}: s${i}`).join(', ')} });`
      : '',
  ].join('\n');
  const last = await build({
    ...common,
    splitting: false,
    stdin: { contents: entry, resolveDir: join(file, '..'), sourcefile: relative(root, file), loader: 'js' },
    entryPoints: undefined,
    outdir: undefined,
    outfile: outFile,
    plugins: [toDynamicOutputs, ...plugins],
  });
  return [last, ...(dynamicBuild ? [dynamicBuild] : [])];
}

/** The names a command's script is given (scripts/command-script.mjs): none of the bundle's own may be one. */
const SCRIPT_PARAMS = ['__l2nodeMetaUrl', '__l2nodeImports', '__l2nodeImport'];

/**
 * Turns a file of the bundle (dist/cli/<name>.js, an ES module: a command's, from buildCommand, or oclif's and its
 * chunks) into a V8 script, dist/cli/<name>.script.cjs, and a module that runs it with scripts/command-script.mjs
 * (whose comment says why: a code cache made after the run). The script is the module's code in an async function
 * (top-level await stays valid), strict as a module is: its static imports are taken from the module that runs it (which imports them, so
 * they load and evaluate as before), `import.meta.url` is that module's URL, its dynamic imports are that module's
 * (a specifier resolves from the same directory), and its exports are what the function answers. The script keeps
 * the module's lines where they were, so its source map (the module's) still maps it.
 */
function toScript(name) {
  const file = join(outdir, `${name}.js`);
  const source = readFileSync(file, 'utf8');
  for (const param of SCRIPT_PARAMS) {
    if (source.includes(param)) throw new Error(`${file} uses ${param}, a name its script is given`);
  }
  const program = parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  const edits = []; // [start, end, text], in source order
  const imports = []; // [specifier, declaration in the script]
  const exportsOf = []; // [exported name, local name]
  for (const node of program.body) {
    if (node.type === 'ImportDeclaration') {
      const from = `__l2nodeImports[${JSON.stringify(node.source.value)}]`;
      const named = [];
      const declarations = [];
      for (const spec of node.specifiers) {
        if (spec.type === 'ImportNamespaceSpecifier') declarations.push(`const ${spec.local.name} = ${from};`);
        else if (spec.type === 'ImportDefaultSpecifier')
          declarations.push(`const ${spec.local.name} = ${from}.default;`);
        else {
          const imported = spec.imported.type === 'Literal' ? JSON.stringify(spec.imported.value) : spec.imported.name;
          named.push(imported === spec.local.name ? imported : `${imported}: ${spec.local.name}`);
        }
      }
      if (named.length > 0) declarations.push(`const { ${named.join(', ')} } = ${from};`);
      imports.push([node.source.value, declarations.join(' ')]);
      edits.push([node.start, node.end, '']);
    } else if (node.type === 'ExportNamedDeclaration' && !node.declaration && !node.source) {
      // Its `return` ends the function: esbuild writes the module's one export clause last.
      if (node !== program.body.at(-1)) throw new Error(`${file}: its export clause is not its last statement`);
      for (const spec of node.specifiers) exportsOf.push([spec.exported.name ?? spec.exported.value, spec.local.name]);
      const lines = source.slice(node.start, node.end).split('\n').length;
      const answer = exportsOf.map(([exported, local]) => `${JSON.stringify(exported)}: ${local}`).join(', ');
      edits.push([node.start, node.end, `return { ${answer} };${'\n'.repeat(lines - 1)}`]);
    } else if (/^Export/.test(node.type)) {
      throw new Error(`${file}: a bundle file to run as a script exports only with \`export { ... }\` (${node.type})`);
    }
  }
  // The module answers its exports' values once, when the script has run: one assigned later (esbuild's lazy
  // module initialisers do) would be seen with its value of that moment, so none may be.
  const exportedLocals = new Set(exportsOf.map(([, local]) => local));
  walk(program, (node) => {
    const target =
      node.type === 'AssignmentExpression' ? node.left : node.type === 'UpdateExpression' ? node.argument : undefined;
    if (target?.type === 'Identifier' && exportedLocals.has(target.name)) {
      throw new Error(`${file}: its export ${target.name} is assigned after its declaration`);
    }
    if (node.type === 'ImportExpression') edits.push([node.start, node.start + 'import'.length, '__l2nodeImport']);
    else if (node.type === 'MemberExpression' && isImportMeta(node.object)) {
      if (node.property.name !== 'url')
        throw new Error(`${file}: import.meta.${node.property.name} in a bundle file to run as a script`);
      edits.push([node.start, node.end, '__l2nodeMetaUrl']);
      return false;
    } else if (isImportMeta(node)) throw new Error(`${file}: import.meta in a bundle file to run as a script`);
    return true;
  });
  edits.sort((a, b) => a[0] - b[0]);
  let body = '';
  let at = 0;
  for (const [start, end, text] of edits) {
    body += source.slice(at, start) + text;
    at = end;
  }
  body += source.slice(at);
  // The function is the script's value (a V8 script's result), and is also put on the `this` of its top level: the
  // exports of the CommonJS module it is too (`require` when stack traces are source-mapped; the loader says why).
  const head = `this[Symbol.for("l2node.script")] = (async function (${SCRIPT_PARAMS.join(', ')}) {"use strict"; ${imports.map(([, d]) => d).join(' ')}`;
  const script = `${head}${body}\n});\n`;
  const scriptName = `${basename(name)}.script.cjs`;
  writeFileSync(join(outdir, `${name}.script.cjs`), script);
  const hash = createHash('sha256').update(script).digest('hex').slice(0, 16);
  const loader = relative(dirname(file), join(outdir, 'command-script.js')).split('\\').join('/');
  const exported = exportsOf.map(([e]) => e);
  writeFileSync(
    file,
    [
      `// ${name}: its code runs as the V8 script ${scriptName} (dist/cli/command-script.js says why).`,
      `import { runCommandScript } from ${JSON.stringify(loader.startsWith('.') ? loader : `./${loader}`)};`,
      ...imports.map(([specifier], i) => `import * as i${i} from ${JSON.stringify(specifier)};`),
      `const script = await runCommandScript(import.meta.url, ${JSON.stringify(scriptName)}, ${JSON.stringify(hash)}, { ${imports.map(([specifier], i) => `${JSON.stringify(specifier)}: i${i}`).join(', ')} }, (specifier) => import(specifier));`,
      exported.includes('default') ? 'export default script.default;' : '',
      exported.some((e) => e !== 'default')
        ? `export const { ${exported.filter((e) => e !== 'default').join(', ')} } = script;`
        : '',
      '',
    ].join('\n'),
  );
}

/** `import.meta` (a MetaProperty, as `new.target` is too). */
const isImportMeta = (node) => node.type === 'MetaProperty' && node.meta.name === 'import';

/**
 * Calls `visit` on every node of an acorn tree (a bundle nests deeper than the call stack allows recursion); `visit`
 * answers false to skip a node's children.
 */
function walk(root, visit) {
  const pending = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!visit(node)) continue;
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const child of value) if (child && typeof child.type === 'string') pending.push(child);
      } else if (value && typeof value.type === 'string') pending.push(value);
    }
  }
}

rmSync(outdir, { recursive: true, force: true });
// oclif first (all of it, and its lean part), then every command (and the help class and hook) in builds of their
// own (buildCommand).
const oclifBuild = await build({
  ...common,
  entryPoints: { oclif: '@oclif/core', 'oclif-lean': join(root, 'scripts/oclif-lean.mjs') },
  plugins: [oclifLeanRequiresPlugin, lazyRequiresPlugin, packagesPlugin],
});
// What runs the scripts (toScript): a build of its own, since the modules of oclif's build run through it.
const scriptRunnerBuild = await build({
  ...common,
  splitting: false,
  entryPoints: { 'command-script': join(root, 'scripts/command-script.mjs') },
});
const { oclif: _oclif, ...commandEntries } = entryPoints;
const commandBuilds = (
  await Promise.all(
    Object.entries(commandEntries).map(([name, file]) =>
      buildCommand(name, file, (toCli) => [
        lazyWsPlugin,
        lazyRequiresPlugin,
        betterSqlite3BindingPlugin,
        lazyJaysonPlugin,
        sharedOclifPlugin(toCli, name.startsWith('commands/_lib/')),
        builtinModulesPlugin,
        requiredPackagesPlugin,
        packagesPlugin,
        ownLocationPlugin,
      ]),
    ),
  )
).flat();
const outputs = Object.assign({}, ...[oclifBuild, scriptRunnerBuild, ...commandBuilds].map((r) => r.metafile.outputs));
// The commands' files, and oclif's lean part with the chunks it shares with the full oclif (which a successful run
// does not load: it stays a module).
for (const name of Object.keys(commandEntries)) toScript(name);
const leanFiles = new Set();
const addLeanFile = (out) => {
  if (leanFiles.has(out)) return;
  leanFiles.add(out);
  for (const i of oclifBuild.metafile.outputs[out].imports) {
    if (i.kind === 'import-statement' && i.path in oclifBuild.metafile.outputs) addLeanFile(i.path);
  }
};
addLeanFile('dist/cli/oclif-lean.js');
for (const out of leanFiles) toScript(relative(outdir, join(root, out)).replace(/\.js$/, ''));

// The lean oclif is imported by a path relative to the command's own file (sharedOclifPlugin): code that lands in a
// chunk instead would look for it in the wrong directory.
for (const file of Object.keys(outputs).filter((f) => f.endsWith('.js'))) {
  for (const [, spec] of readFileSync(join(root, file), 'utf8').matchAll(/from "([^"]*oclif-lean\.js)"/g)) {
    if (!existsSync(join(root, dirname(file), spec))) throw new Error(`${file} imports ${spec}, which is not there`);
  }
}

/** For each output file (relative to the repository), the inputs it holds: dist/ paths and package names. */
const inputs = {};
for (const [file, output] of Object.entries(outputs)) {
  if (!file.endsWith('.js')) continue;
  const held = new Set();
  for (const input of Object.keys(output.inputs)) {
    // The shared oclif's re-export module (sharedOclifPlugin) is no file: oclif itself is in dist/cli/oclif.js.
    if (input.startsWith('l2node-shared-oclif:') || input.startsWith('l2node-oclif-help:')) continue;
    // A REQUIRED package's module (requiredPackagesPlugin) is a require of node_modules, not bundled code.
    if (input.startsWith('l2node-required:')) continue;
    // A static module read from the registry (staticModulePlugin) is bundled in the command's file, not here.
    if (input.startsWith('l2node-static:')) continue;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
    held.add(pkg ? `package:${pkg}` : input);
    // oclif's modules one by one too: the start-up test tells its lean part from the rest (config, help, ux).
    if (pkg === '@oclif/core') held.add(input);
  }
  inputs[file] = [...held].sort();
}
writeFileSync(join(outdir, 'bundle-inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
process.stdout.write(
  `dist/cli: ${Object.keys(entryPoints).length} entries, ${Object.keys(inputs).length} files (esbuild)\n`,
);
