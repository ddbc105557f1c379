/**
 * What a run loads (issue 27): a plain dev `start`, `--version` and a client command load only what they use. The
 * L1 stack comes with --l1 / --l1-rpc-urls, the AWS SDK with an s3:// or gs:// URL, prom-client with
 * --metrics-port, pino-pretty with a log printed for humans; client commands load no daemon code at all, and a
 * successful run of an own command loads oclif's lean part only (no oclif Config, help or ux). Each run
 * is the real binary with a module-load recorder preloaded (test/helpers/module-load-recorder.mjs), which lists
 * every module the process resolved; a module on the deny list fails the case with the module that imported it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2node } from '../helpers/cli.js';
import { REPO_ROOT, type RunningNode, spawnNode } from '../helpers/spawn-node.js';

const RECORDER = new URL('../helpers/module-load-recorder.mjs', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'l2node-modules-'));
let runs = 0;

/** The recorder's environment for one run, and a reader of what that run loaded (url -> the url that imported it). */
function recorded(): { env: Record<string, string>; loaded: () => Map<string, string> } {
  const file = join(dir, `run-${++runs}.txt`);
  return {
    env: { NODE_OPTIONS: `--import=${RECORDER}`, L2NODE_MODULE_LOG: file },
    loaded: () =>
      withBundleInputs(
        new Map(
          readFileSync(file, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => line.split(' <- ') as [string, string]),
        ),
      ),
  };
}

/** What each file of the CLI's bundles (dist/cli) holds: dist/ modules and `package:<name>` (scripts/bundle-cli.mjs). */
const BUNDLE_INPUTS = JSON.parse(readFileSync(join(REPO_ROOT, 'dist/cli/bundle-inputs.json'), 'utf8')) as Record<
  string,
  string[]
>;

/**
 * A run's modules with what its loaded bundle files hold, as if each were loaded on its own (imported by the
 * bundle file), so the deny lists see through the bundles. A bundle file missing from the list fails the run.
 */
function withBundleInputs(loaded: Map<string, string>): Map<string, string> {
  const all = new Map(loaded);
  for (const url of loaded.keys()) {
    if (!url.startsWith(`${DIST}cli/`) || url.endsWith('.json')) continue;
    const held = BUNDLE_INPUTS[url.replace(`file://${REPO_ROOT}`, '')];
    if (!held) throw new Error(`${url} is not in dist/cli/bundle-inputs.json: rebuild (npm run build)`);
    for (const input of held) {
      const inner = input.startsWith('package:')
        ? `file://${REPO_ROOT}node_modules/${input.slice('package:'.length)}/(bundled)`
        : `file://${REPO_ROOT}${input}`;
      if (!all.has(inner)) all.set(inner, url);
    }
  }
  return all;
}

/** Packages no plain run loads, and why they are loaded elsewhere. */
const HEAVY_PACKAGES: readonly [RegExp, string][] = [
  [/^(viem|ox|abitype|@aztec\/l1-artifacts|@noble\/curves|@scure\/bip32)$/, 'the L1 stack (--l1, --l1-rpc-urls)'],
  [/^@crate-crypto\//, 'KZG (a sequencer on an L1)'],
  [/^(@aws-sdk|@smithy|@aws)\//, 'the object store SDK (s3://, gs://)'],
  [/^(prom-client|@opentelemetry\/.*|tdigest|bintrees)$/, 'metrics (--metrics-port)'],
  [/^(pino-pretty|colorette|dateformat)$/, 'pretty logs (a terminal, --log-format human)'],
  [/^@aztec\//, "Aztec's packages"],
];
/** What a client command or --version never loads on top: the daemon's code and its own libraries. */
const DAEMON_PACKAGES: readonly [RegExp, string][] = [
  [/^(better-sqlite3|jayson|ws|pino)$/, 'the daemon (l2node start)'],
  [/^zod$/, "the server's param parser (a client of the method table builds no schema)"],
];

/** What a start loads only when a client opens the admin listener's event stream (`GET /events`). */
const EVENT_STREAM_PACKAGES: readonly [RegExp, string][] = [[/^ws$/, 'the event stream (its first GET /events)']];

/** What a start loads only with its first public execution job (a simulation, a validation, a block's public tx). */
const FIRST_JOB_PACKAGES: readonly [RegExp, string][] = [[/^piscina$/, 'the public execution pools (their first job)']];

/**
 * What a start loads only with its first JSON-RPC request that has params to read (src/rpc/server/param-parser.ts):
 * the calls this file makes (the tips, a block refused by the CLI before it is sent) have none.
 */
const FIRST_PARAMS_PACKAGES: readonly [RegExp, string][] = [
  [/^zod$/, 'the param schemas (the first request with params)'],
];

/**
 * The AVM and the public processor around it: the public execution workers load them with their first job; the
 * main thread of a plain start never does (it only commits what the workers computed).
 */
const AVM_MODULES =
  /^dist\/(core\/avm\/|daemon\/public-processor\/public-tx-processor\.js|daemon\/public-execution\/public-execution-jobs\.js)/;

/**
 * oclif's platform check (wsl-utils, a chunk of its bundle), which only its Config.load makes: one of l2node's own
 * commands runs without Config.load (bin/run.js runOwnCommand), help still loads it.
 */
const OCLIF_CONFIG_LOAD = /\/dist\/cli\/chunks\/wsl-utils-[^/]+\.js$/;
const loadsOclifConfig = (loaded: Map<string, string>) => [...loaded.keys()].some((url) => OCLIF_CONFIG_LOAD.test(url));

/**
 * All of oclif: its bundle (dist/cli/oclif.js), or any of its modules a successful run of an own command does not
 * use (its Command class, Config and plugin loader, help, ux and spinners, error handler, and their packages). Such
 * a run loads oclif's lean part (dist/cli/oclif-lean.js: its parser, flags, arguments and error classes;
 * scripts/oclif-lean.mjs); help, topics, mistyped commands and a failure's handling load all of oclif.
 */
const FULL_OCLIF = new RegExp(
  [
    '/dist/cli/oclif\\.js$',
    '/node_modules/@oclif/core/lib/(index|command|main|execute|module-load|help/.*|config/.*|ux/index|ux/action/.*|errors/index|errors/handle)\\.js$',
    '/node_modules/(ejs|cli-spinners|semver|ansi-escapes|tinyglobby|lilconfig|minimatch|wsl-utils|get-package-type)/',
  ].join('|'),
);
const fullOclif = (loaded: Map<string, string>) =>
  [...loaded]
    .filter(([url]) => FULL_OCLIF.test(url))
    .map(([url, by]) => `${url.replace(`file://${REPO_ROOT}`, '')}, in ${by.replace(`file://${REPO_ROOT}`, '')}`);

const PACKAGE = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//;
const packageOf = (url: string) => PACKAGE.exec(url)?.[1];
const DIST = `file://${REPO_ROOT}dist/`;

/** Every loaded module the deny lists (and, for `daemon`, dist/daemon/) refuse, with why and who imported it. */
function denied(loaded: Map<string, string>, lists: readonly (readonly [RegExp, string][])[], daemon = false) {
  const found: string[] = [];
  const seen = new Set<string>();
  for (const [url, parent] of loaded) {
    const pkg = packageOf(url);
    const by = parent.replace(DIST, 'dist/').replace(/^file:\/\/.*\/node_modules\//, '');
    if (pkg && !seen.has(pkg)) {
      const why = lists.flat().find(([pattern]) => pattern.test(pkg))?.[1];
      if (why && packageOf(parent) !== pkg) {
        seen.add(pkg);
        found.push(`${pkg} (${why}), imported by ${by}`);
      }
    }
    if (daemon && url.startsWith(`${DIST}daemon/`)) found.push(`${url.replace(DIST, 'dist/')}, imported by ${by}`);
  }
  return found;
}

let node: RunningNode;
const startRecord = recorded();

beforeAll(async () => {
  node = await spawnNode({ env: startRecord.env, readyTimeoutMs: 60_000 });
}, 120_000);

afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('modules a run loads', () => {
  it('--version loads no package and none of dist/: bin/run.js answers it alone', async () => {
    const rec = recorded();
    const run = await l2node(['--version'], { env: rec.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^l2node\/\d+\.\d+\.\d+ \S+-\S+ node-v\d+/);
    const loaded = [...rec.loaded().keys()];
    // The recorder saw the run: the list is real.
    expect(loaded.some((url) => url.endsWith('/bin/run.js'))).toBe(true);
    expect(loaded.filter((url) => packageOf(url) !== undefined || url.startsWith(DIST))).toEqual([]);
  });

  it('a client command (query tips) loads nothing of the daemon', async () => {
    const rec = recorded();
    const run = await l2node(['query', 'tips', '--node-url', node.publicUrl], { env: rec.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('proposed');
    const loaded = rec.loaded();
    // The command ran from its bundle, which holds the compiled command.
    expect(loaded.get(`${DIST}commands/query/tips.js`)).toBe(`${DIST}cli/commands/query/tips.js`);
    expect(denied(loaded, [HEAVY_PACKAGES, DAEMON_PACKAGES], true)).toEqual([]);
    // Its JSON-RPC goes over node:http (src/commands/_lib/http-fetch.ts): Node's fetch stack is never loaded.
    expect(loaded.has('node:internal/deps/undici/undici')).toBe(false);
    // The core types it decodes into take node:crypto with their first hash (src/core/crypto/sha256-to-field.ts).
    expect(loaded.has('node:crypto')).toBe(false);
    expect(loadsOclifConfig(loaded)).toBe(false);
    // oclif's lean part, not all of oclif: the run parsed its flags with oclif's parser.
    expect(loaded.has(`${DIST}cli/oclif-lean.js`)).toBe(true);
    expect(loaded.has(`file://${REPO_ROOT}node_modules/@oclif/core/lib/parser/parse.js`)).toBe(true);
    expect(fullOclif(loaded)).toEqual([]);
  });

  it("a usage error of a client command is oclif's lean part too; help, a topic, a mistyped command and autocomplete load all of oclif", async () => {
    const loads = async (args: string[], exit: number) => {
      const rec = recorded();
      const run = await l2node(args, { env: rec.env });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(exit);
      return fullOclif(rec.loaded());
    };
    expect(await loads(['query', 'block', 'abc', '--node-url', node.publicUrl], 2)).toEqual([]);
    expect(await loads(['query', 'tips', '--bogus'], 2)).toEqual([]);
    expect(await loads(['query', 'tips', '--help'], 0)).not.toEqual([]);
    expect(await loads(['query'], 0)).not.toEqual([]);
    expect(await loads(['query', 'tipz'], 2)).not.toEqual([]);
    expect(await loads(['autocomplete', '--help'], 0)).not.toEqual([]);
  });

  it("one of l2node's own commands runs without oclif's Config.load; its help, a topic and a mistyped command use it", async () => {
    const loads = async (args: string[]) => {
      const rec = recorded();
      await l2node(args, { env: rec.env });
      return loadsOclifConfig(rec.loaded());
    };
    expect(await loads(['query', 'block', 'abc', '--node-url', node.publicUrl])).toBe(false);
    expect(await loads(['query', 'tips', '--help'])).toBe(true);
    expect(await loads(['query'])).toBe(true);
    expect(await loads(['query', 'tipz'])).toBe(true);
  });

  it("one of l2node's own commands runs without oclif's core plugin; help and a mistyped command load it", async () => {
    // bin/run.js ownCommandOptions: oclif's debug log names the core plugins it loads.
    const loadsPlugin = async (args: string[]) => {
      const run = await l2node(args, { env: { DEBUG: 'oclif:config' } });
      return run.stderr.includes("loading plugins [ '@oclif/plugin-autocomplete' ]");
    };
    expect(await loadsPlugin(['query', 'tips', '--node-url', node.publicUrl])).toBe(false);
    expect(await loadsPlugin(['query', 'tips', '--help'])).toBe(true);
    expect(await loadsPlugin(['query', 'tipz'])).toBe(true);
    expect(await loadsPlugin(['autocomplete', 'bash'])).toBe(true);
  });

  it('the bundles take the CommonJS packages a start loads with require, not import (no CommonJS lexer pass)', () => {
    // scripts/bundle-cli.mjs REQUIRED (and BUNDLED, for pino and better-sqlite3): an ESM import of these would make
    // Node lex their source for export names.
    const files = Object.keys(BUNDLE_INPUTS).filter((f) => f.endsWith('.js'));
    const imported = files.filter((f) =>
      /^import [^;]*from "(better-sqlite3|pino|piscina|damerau-levenshtein)";$/m.test(
        readFileSync(join(REPO_ROOT, f), 'utf8'),
      ),
    );
    expect(imported).toEqual([]);
    // better-sqlite3's JavaScript is in the start bundle (its code is the script start.js runs); its addon is found
    // in the installed package.
    expect(BUNDLE_INPUTS['dist/cli/commands/start.js']).toContain('package:better-sqlite3');
    const start = readFileSync(join(REPO_ROOT, 'dist/cli/commands/start.script.cjs'), 'utf8');
    expect(start).not.toContain('__require("better-sqlite3")');
    expect(start).toContain('__require.resolve("better-sqlite3")');
  });

  // Last: the recorder writes its list at exit, and the graceful stop ends with process.exit.
  it('a plain dev start (in memory, JSON logs) loads no L1 stack, object store SDK, metrics, pretty printer, ws, piscina, zod or AVM', async () => {
    await node.stop();
    const loaded = startRecord.loaded();
    // The recorder saw the daemon itself: the list is real.
    expect([...loaded.keys()].some((url) => url.endsWith('/dist/daemon/node.js'))).toBe(true);
    expect(denied(loaded, [HEAVY_PACKAGES, EVENT_STREAM_PACKAGES, FIRST_JOB_PACKAGES, FIRST_PARAMS_PACKAGES])).toEqual(
      [],
    );
    // The listeners take node:http without its ESM facade (whose WebSocket getter loads undici): Node's fetch stack
    // is not part of a start.
    expect(loaded.has('node:internal/deps/undici/undici')).toBe(false);
    expect(loadsOclifConfig(loaded)).toBe(false);
    expect(fullOclif(loaded)).toEqual([]);
    // jayson's transports (its clients and servers, which l2node does not use) load when first used, not with the
    // JSON-RPC server (scripts/bundle-cli.mjs LAZY_JAYSON): nothing of a start takes node:https or node:tls, even
    // after the JSON-RPC calls this file made.
    expect(loaded.has('node:https')).toBe(false);
    expect(loaded.has('node:tls')).toBe(false);
    // sonic-boom (pino's destination) takes node:assert when first called (scripts/bundle-cli.mjs LAZY_REQUIRES).
    expect(loaded.has('node:assert')).toBe(false);
    // The bundles take builtins without their ES module facades, whose node:fs read its `promises` getter
    // (scripts/bundle-cli.mjs builtinModulesPlugin), and the snapshot uploader loads with its first upload.
    expect(loaded.has('node:internal/fs/promises')).toBe(false);
    // node:crypto loads when first used (scripts/bundle-cli.mjs LAZY_BUILTINS): a start's hashes are noble's
    // SHA-256, and its admin API key and write tokens come from the system's generator (src/core/crypto).
    expect(loaded.has('node:crypto')).toBe(false);
    const avm = [...loaded]
      .map(([url, by]) => [url.replace(DIST, 'dist/'), by.replace(DIST, 'dist/')] as const)
      .filter(([url]) => AVM_MODULES.test(url))
      .map(([url, by]) => `${url} (the AVM: public execution workers only), imported by ${by}`);
    expect(avm).toEqual([]);
  });
});
