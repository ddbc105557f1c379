import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliManifest } from '../../src/commands/_lib/docs/cli-manifest.js';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { ContractClassPublishedEvent } from '../../src/core/contract/contract-class-published-event.js';
import { PublicKeys } from '../../src/core/contract/public-keys.js';
import { Fr, toHex64 } from '../../src/core/fr.js';
import { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { CONFIG_HOME, REPO_ROOT, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';
import { keystoreDir, keystoreV1, testAddress } from '../unit/daemon/validators/validator-fixtures.js';

/**
 * Every example the documentation prints runs as printed (issue 17 item 10): the README's shell blocks, every
 * command's `--help` EXAMPLES (the oclif manifest `--help` reads) and the man pages' EXAMPLES (checked to be the
 * same as --help's). Each runs through bash, in a directory of its own, against one spawned dev node (the
 * validator, slashing and keystore examples against a second one, with a validator committee; the time warps and
 * snapshot reverts against a third, in order), and must exit 0, or the code the documentation gives for it (EXPECTED_CODES). What cannot
 * run here (the node itself, what runs until stopped, what writes outside the test's directories) is listed in
 * NOT_RUN with the reason and the test that covers it.
 *
 * How the examples reach the test's node is how the documentation tells users to configure the CLI: NODE_URL,
 * NODE_ADMIN_URL and NODE_ADMIN_API_KEY. Two more things stand in for the user's machine:
 *  - `l2node` (and `npx l2node`, README) is the built binary, through a wrapper on PATH;
 *  - the default listeners the examples name (127.0.0.1:8080 and :8880, localhost:8080, a remote 10.0.0.5)
 *    are the test node's, which listens on free ports of 127.0.0.1 (LISTENERS).
 * The values an example leaves to the reader are shell variables ($TX_HASH, $CLASS_ID...), set from the
 * chain the test builds first (VARIABLES); files an example names (tx.json, key.txt, ./data) are made in its
 * directory.
 */

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'oclif.manifest.json'), 'utf8')) as CliManifest;

/** Examples whose documented outcome is a failure, with the documentation's reason. */
const EXPECTED_CODES: Readonly<Record<string, { code: number; why: string }>> = {
  'l2node admin rollback 10': {
    code: 2,
    why: 'asks for confirmation on a terminal; without one it asks for --yes and exits 2 (admin rollback --help)',
  },
  'l2node admin login': {
    code: 2,
    why: 'reads the key from a prompt, or from stdin when it is not a terminal: here stdin is empty (a usage error)',
  },
};

/**
 * Examples not run here, each with why and the test that covers what it shows (`shows`: text of that test). The
 * test checks that each is still an example, and that the covering test holds that text.
 */
const NOT_RUN: Readonly<Record<string, { why: string; coveredBy: string; shows: string }>> = {
  'l2node tx trace $TX_HASH --artifact target/token_contract-Token.json': {
    why: "reads the compiled artifact of the user's own contract project (aztec-nargo's target/), not there here",
    coveredBy: 'test/e2e/tracing.test.ts',
    shows: "With the Token's artifact the CLI decodes the revert data",
  },
  'npm ci && npm start     # installs (Node 24.12 comes with it) and starts a dev node on 8080 / 8880': {
    why: 'installs the project and runs a node on the fixed ports 8080/8880 until stopped',
    coveredBy: 'test/e2e/lifecycle.test.ts',
    shows: 'daemon lifecycle (spawned bin/run.js start)',
  },
  'npm test                # builds, lints, and runs every test': {
    why: 'runs this test suite itself',
    coveredBy: 'test/cli/examples.test.ts',
    shows: 'the documentation examples',
  },
  'npm test                 # build, lint (biome + tsc) beside every test (unit, e2e, conformance) on Node 24.12': {
    why: 'runs this test suite itself',
    coveredBy: 'test/cli/examples.test.ts',
    shows: 'the documentation examples',
  },
  'npx vitest run test/unit # a part of the suite (run `npm run build` first for e2e tests: they spawn dist/)': {
    why: 'runs a part of this test suite',
    coveredBy: 'test/unit/daemon/operations/chain-rollback.test.ts',
    shows: 'refuses a target above the tip',
  },
  'npm run bench            # every benchmark in bench/ beside a same-run baseline; writes docs/benchmarks.md': {
    why: 'minutes of benchmarks, and rewrites docs/benchmarks.md',
    coveredBy: 'test/unit/bench/wrk-output.test.ts',
    shows: 'bench/rpc wrk summary',
  },
  'npm run docs             # regenerate docs/rpc.md, docs/configuration.md and docs/cli.md': {
    why: 'rebuilds the project and rewrites the generated documents',
    coveredBy: 'test/cli/cli-docs.test.ts',
    shows: 'is what the commands render (else: npm run docs)',
  },
  'npx l2node start --data-directory ./data          # keep the chain, the pool and the admin key hash': {
    why: 'runs a node on the fixed ports 8080/8880 until stopped',
    coveredBy: 'test/cli/admin-commands.test.ts',
    shows: "'--data-directory', dataDirectory",
  },
  "npx l2node start --sequencer-mode interval       # blocks on a slot clock, as Aztec's sequencer builds them": {
    why: 'runs a node on the fixed ports 8080/8880 until stopped',
    coveredBy: 'test/e2e/validators.test.ts',
    shows: "'--sequencer-mode', 'interval'",
  },
  'npx l2node start --sync-from http://seq:8080     # follower: sync and verify every block from an upstream node': {
    why: 'runs a node until stopped, following a host named seq',
    coveredBy: 'test/e2e/follower-sync.test.ts',
    shows: 'two followers of a dev node',
  },
  'npm install -g --ignore-scripts .   # or: npm link --ignore-scripts; `npm ci` has already built it': {
    why: "installs into the machine's global npm prefix",
    coveredBy: 'test/cli/global-install.test.ts',
    shows: "describe('npm install -g of a checkout'",
  },
  'l2node start': {
    why: 'runs a node on the fixed ports 8080/8880 until stopped',
    coveredBy: 'test/e2e/lifecycle.test.ts',
    shows: 'stops on SIGTERM within 5 s',
  },
  'l2node start --port 0 --admin-port 0 --json --log-format json': {
    why: 'runs a node until stopped',
    coveredBy: 'test/cli/bot-and-start.test.ts',
    shows: 'prints the banner as one JSON envelope',
  },
  'l2node start --data-directory ./data --port 8080 --admin-port 8880': {
    why: 'runs a node on the fixed ports 8080/8880 until stopped',
    coveredBy: 'test/cli/admin-commands.test.ts',
    shows: "'--data-directory', dataDirectory",
  },
  'l2node start --bot --bot.txIntervalSeconds 1 --bot.minFeePadding 2': {
    why: 'runs a node and its bot until stopped',
    coveredBy: 'test/cli/bot-and-start.test.ts',
    shows: "describe('start --bot'",
  },
  'NODE_LOG_LEVEL="info; debug: rpc" l2node start --log-format json --no-save-api-key': {
    why: 'runs a node on the fixed ports 8080/8880 until stopped',
    coveredBy: 'test/e2e/lifecycle.test.ts',
    shows: '("debug: rpc")',
  },
  'npx l2node bot --bot.txIntervalSeconds 1            # the tx bot (or: l2node start --bot)': {
    why: 'sends a tx every second until stopped',
    coveredBy: 'test/cli/bot-and-start.test.ts',
    shows: "describe('l2node bot'",
  },
  'l2node bot': {
    why: 'sends txs until stopped',
    coveredBy: 'test/cli/bot-and-start.test.ts',
    shows: "describe('l2node bot'",
  },
  'l2node bot --node-url http://127.0.0.1:8080 --bot.txIntervalSeconds 1 --bot.minFeePadding 1': {
    why: 'sends a tx every second until stopped',
    coveredBy: 'test/cli/bot-and-start.test.ts',
    shows: "describe('l2node bot'",
  },
  'l2node dashboard': {
    why: 'a live view on a terminal until q',
    coveredBy: 'test/e2e/dashboard.test.ts',
    shows: 'l2node dashboard in a terminal (tmux)',
  },
  'l2node dashboard --admin-url http://10.0.0.5:8880': {
    why: 'a live view on a terminal until q',
    coveredBy: 'test/e2e/dashboard.test.ts',
    shows: 'l2node dashboard in a terminal (tmux)',
  },
  'l2node admin snapshot upload file:///var/backups/l2node --wait': {
    why: 'writes to /var/backups, outside the test directories',
    coveredBy: 'test/e2e/operations-snapshot.test.ts',
    shows: 'uploads a consistent copy in the background',
  },
  'l2node admin snapshot upload s3://snapshots/l2node --wait --json': {
    why: 'uploads to an object store (the test of object stores starts one)',
    coveredBy: 'test/e2e/snapshot-object-store.test.ts',
    shows: 'uploads with `admin snapshot upload --wait`, which prints the result',
  },
  'l2node admin snapshot upload gs://bucket/snapshots --json': {
    why: 'uploads to Google Cloud Storage',
    coveredBy: 'test/e2e/snapshot-object-store.test.ts',
    shows: 'uploads through the XML API endpoint with an HMAC key: the --help example as printed',
  },
  'l2node db backup /var/backups/l2node-$(date +%F).sqlite --data-directory ./data': {
    why: 'writes to /var/backups, outside the test directories',
    coveredBy: 'test/cli/db-commands.test.ts',
    shows: "describe('db backup'",
  },
};

/** Where the examples' `query tx` read a tx that stays pending: sync is paused, then a tx is sent. */
const PENDING_TX = 'a tx sent while sync is paused, the $TX_HASH of the `query tx` examples';

/**
 * Examples that change what others read (pause the chain, roll it back), run one at a time after all the others,
 * in this order; the `query tx` examples run at PENDING_TX.
 */
const LAST_IN_ORDER: readonly string[] = [
  'npx l2node admin pause-sync                         # admin commands use the key `start` saved',
  'l2node admin pause-sync',
  'l2node admin pause-sync --json',
  'l2node rpc nodeAdmin_pauseSync --api-key $KEY',
  PENDING_TX,
  'l2node admin resume-sync',
  'l2node admin resume-sync --json',
  'l2node admin rollback $BLOCK_HASH --yes',
  'npx l2node admin rollback 12 --yes',
  'l2node admin rollback 10 --yes --json',
  'l2node admin rollback 3 --force --yes',
];
const isQueryTx = (example: string) => example.startsWith('l2node query tx ');

/**
 * The cheat codes that move the node's time or put it back to a snapshot: they run, in this order, against a
 * node of their own (a time warp of a day, or a revert, would change what every other example reads).
 */
const DEV_STATE_IN_ORDER: readonly string[] = [
  'l2node dev snapshot',
  'l2node dev snapshot --json',
  'l2node dev time increase 86400',
  'l2node dev time increase -- -60',
  'l2node dev time set 1893456000',
  'l2node dev revert 1',
];
const DEV_STATE_COMMANDS = /^l2node dev (time|snapshot|revert) /;

let node: RunningNode;
/** A second node, with a validator committee, for the validator, slashing and keystore examples. */
let committee: RunningNode;
/** A third, for the time warps and snapshot reverts of DEV_STATE_IN_ORDER. */
let devState: RunningNode;
let keystore: ReturnType<typeof keystoreDir>;
let root: string;
let bin: string;
let env: Record<string, string>;

beforeAll(async () => {
  keystore = keystoreDir();
  keystore.write('a.json', keystoreV1([0], 0));
  root = mkdtempSync(join(tmpdir(), 'l2node-examples-'));
  const nodeData = join(root, 'node-data');
  // One-second slots of one block, two-slot epochs: the committee's validator has a record within seconds.
  const committeeStarted = spawnNode({
    args: [
      ...['--sequencer-mode', 'interval', '--keystore-directory', keystore.dir, '--slot-duration', '1'],
      ...['--blocks-per-slot', '1', '--min-txs-per-block', '0', '--epoch-duration', '2'],
      ...['--proof-delay', '0', '--finality-delay', '0', '--slashing-round-size-in-epochs', '1'],
    ],
  });
  const devStateStarted = spawnNode();
  node = await spawnNode({
    args: [
      ...['--data-directory', nodeData, '--sequencer-mode', 'on-demand'],
      // Short slots: blocks mined at once run ahead of the slot clock, and the next tx waits until it catches up.
      ...['--slot-duration', '1', '--epoch-duration', '2', '--proof-delay', '1'],
      // Nothing finalizes while the examples run: `admin rollback 10` is allowed without --force.
      ...['--finality-delay', '3600'],
    ],
  });
  bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'l2node'), `#!/bin/sh\nexec "${process.execPath}" "${REPO_ROOT}bin/run.js" "$@"\n`);
  chmodSync(join(bin, 'l2node'), 0o755);
  env = {
    NODE_URL: node.publicUrl,
    NODE_ADMIN_URL: node.adminUrl,
    NODE_ADMIN_API_KEY: node.adminKey as string,
    KEY: node.adminKey as string,
  };
  Object.assign(env, await buildChain());
  committee = await committeeStarted;
  devState = await devStateStarted;
  await until('the committee validator to have a record', async () => {
    const run = await l2node(['query', 'validator', testAddress(0)], { env: committeeEnv() });
    return run.code === 0 ? true : undefined;
  });
  // ./data of the db examples: a consistent copy of the node's database, taken while it runs.
  mkdirSync(join(root, 'data'));
  const backup = await cli(['db', 'backup', join(root, 'data', 'l2node.sqlite'), '--data-directory', nodeData]);
  expect(backup.code, backup.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await Promise.all([node?.stop(), committee?.stop(), devState?.stop()]);
  keystore?.cleanup();
  if (root) rmSync(root, { recursive: true, force: true });
});

const cli = (args: readonly string[], input?: string) => l2node(args, { env, input });

/** The examples of these commands run against the committee node. */
const COMMITTEE_COMMANDS = /^l2node (query validators?|admin slash|admin keystore) /;
const committeeEnv = () => ({
  ...env,
  NODE_URL: committee.publicUrl,
  NODE_ADMIN_URL: committee.adminUrl,
  NODE_ADMIN_API_KEY: committee.adminKey as string,
});
const devStateEnv = () => ({
  ...env,
  NODE_URL: devState.publicUrl,
  NODE_ADMIN_URL: devState.adminUrl,
  NODE_ADMIN_API_KEY: devState.adminKey as string,
});
const nodeEnvOf = (example: string) =>
  COMMITTEE_COMMANDS.test(`${example} `)
    ? committeeEnv()
    : DEV_STATE_COMMANDS.test(`${example} `)
      ? devStateEnv()
      : env;

/**
 * The chain the examples read, and the variables they name: 16 blocks or more ($BLOCK_HASH its tip then), one tx publishing a contract class
 * and an instance of it, one with a note hash, a private log tagged 0x7a6 and an L2-to-L1 message ($TX_HASH),
 * an L1-to-L2 message 0x2c5f9b1d2a7e, and the validator of the committee.
 */
async function buildChain(): Promise<Record<string, string>> {
  const classId = ContractClassPublishedEvent.create(
    new Fr(0xa1n),
    new Fr(0xa2n),
    Buffer.from('c0ffee', 'hex'),
  ).contractClassId;
  const address = TxBuilder.instanceAddress({
    salt: new Fr(0x5a17n),
    contractClassId: classId,
    initializationHash: new Fr(0x1217n),
    publicKeys: PublicKeys.default(),
    deployer: AztecAddress.ZERO,
  });
  const deploy = await cli([
    'tx',
    'build',
    '--publish-class',
    '0xa1:0xa2:c0ffee',
    '--publish-instance',
    `0x5a17:${classId}:0x1217`,
  ]);
  expect(deploy.code, deploy.stderr).toBe(0);
  expect((await cli(['tx', 'send', '-', '--wait', 'proposed'], deploy.stdout)).code).toBe(0);
  const noteHash = toHex64(0x2ac5n);
  const effects = await cli(
    ['tx', 'build', '--note-hash', noteHash, '--private-log', '0x7a6,0x01,0x02'].concat([
      '--l2-to-l1-message',
      '0x000000000000000000000000000000000000beef:0x05',
    ]),
  );
  expect(effects.code, effects.stderr).toBe(0);
  const sent = envelopeOf(await cli(['tx', 'send', '-', '--wait', 'proposed', '--json'], effects.stdout));
  expect(sent.status, JSON.stringify(sent.error)).toBe(0);
  for (const args of [
    ['admin', 'send-l1-message', '0x2c5f9b1d2a7e'],
    ['dev', 'mine', '14'],
  ]) {
    const run = await cli(args);
    expect(
      run.code,
      `${args.join(' ')}: ${run.stderr} ${JSON.stringify(node.logs().filter((l) => (l.level ?? 0) >= 50))}`,
    ).toBe(0);
  }
  const tips = envelopeOf(await cli(['query', 'tips', '--json'])).result as { proposed: { hash: string } };
  return {
    TX_HASH: (sent.result as { txHash: string }).txHash,
    CLASS_ID: classId.toString(),
    CONTRACT_ADDRESS: address.toString(),
    NOTE_HASH: noteHash,
    BLOCK_HASH: tips.proposed.hash,
    VALIDATOR_ADDRESS: testAddress(0),
  };
}

/** The README's shell blocks: each command line (continued lines joined), as printed. */
function readmeExamples(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const out: string[] = [];
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = block[1].split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i];
      while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)}${lines[++i].trim()}`;
      if (line.trim()) out.push(line.trim());
    }
  }
  return out;
}

/** Every command's EXAMPLES as `--help` prints them (from the manifest it reads). */
function helpExamples(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [id, command] of Object.entries(manifest.commands)) {
    const raw = command.examples ?? [];
    const list = (Array.isArray(raw) ? raw : [raw]).map((e) => (typeof e === 'string' ? e : e.command));
    out.set(
      id,
      list.map((e) => e.replaceAll('<%= config.bin %>', 'l2node')),
    );
  }
  return out;
}

/** The EXAMPLES of each man page, roff escapes undone. */
function manExamples(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of readdirSync(join(REPO_ROOT, 'man')).filter((f) => f.endsWith('.1'))) {
    const page = readFileSync(join(REPO_ROOT, 'man', file), 'utf8');
    const section = /^\.SH EXAMPLES\n([\s\S]*?)(?=^\.SH )/m.exec(page)?.[1] ?? '';
    const examples = [...section.matchAll(/^\$ (.*)$/gm)].map((m) =>
      m[1].replace(/\\(:|-|&|e|\[u([0-9A-F]{4})\])/g, (_all, what: string, code?: string) =>
        code ? String.fromCodePoint(Number.parseInt(code, 16)) : what === '-' ? '-' : what === 'e' ? '\\' : '',
      ),
    );
    out.set(file, examples);
  }
  return out;
}

/** Every example once, with where it is printed. */
function allExamples(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (example: string, where: string) => out.set(example, [...(out.get(example) ?? []), where]);
  for (const example of readmeExamples()) add(example, 'README.md');
  for (const [id, examples] of helpExamples()) for (const example of examples) add(example, `${id} --help`);
  for (const [file, examples] of manExamples()) for (const example of examples) add(example, `man/${file}`);
  return out;
}

/** The default listeners the examples name, and the test node's that stand for them. */
function listeners(): [string, string][] {
  const host = (url: string) => url.replace(/^http:\/\//, '');
  return [
    ['http://127.0.0.1:8080', node.publicUrl],
    ['http://127.0.0.1:8880', node.adminUrl],
    ['http://10.0.0.5:8080', node.publicUrl],
    ['http://10.0.0.5:8880', node.adminUrl],
    ['localhost:8080', host(node.publicUrl)],
    ['localhost:8880', host(node.adminUrl)],
  ];
}

interface ExampleRun {
  readonly example: string;
  readonly seconds: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one example through bash (pipefail: every l2node of a pipe counts) in a directory of its own. */
async function runExample(example: string, extraEnv: Record<string, string> = {}): Promise<ExampleRun> {
  const dir = mkdtempSync(join(root, 'run-'));
  if (/\btx\.json\b/.test(example) && !/> tx\.json/.test(example)) {
    const built = await cli(['tx', 'build', '--out', join(dir, 'tx.json')]);
    expect(built.code, built.stderr).toBe(0);
  }
  if (/\bkey\.txt\b/.test(example)) writeFileSync(join(dir, 'key.txt'), `${env.KEY}\n`);
  if (/\.\/data\b/.test(example)) cpSync(join(root, 'data'), join(dir, 'data'), { recursive: true });
  let command = example.replace(/\bnpx l2node\b/g, 'l2node');
  for (const [from, to] of listeners()) command = command.replaceAll(from, to);
  // Only loopback is ever reached: an example naming another host must be in NOT_RUN or mapped in listeners().
  for (const [, host] of command.matchAll(/\b(?:https?|s3|gs):\/\/([^/:\s'"]+)/g)) {
    if (host !== '127.0.0.1' && host !== 'localhost') throw new Error(`"${example}" would reach ${host}`);
  }
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('NODE_') && !k.startsWith('BOT_')) childEnv[k] = v;
  }
  Object.assign(childEnv, nodeEnvOf(example), extraEnv, {
    PATH: `${bin}:${process.env.PATH}`,
    XDG_CONFIG_HOME: CONFIG_HOME,
  });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', command], { cwd: dir, env: childEnv });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    child.stdin.end();
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ example, code, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** What is wrong with a run: its exit code, or a jq filter that found nothing (the example names a wrong path). */
function problemOf(run: ExampleRun): string | undefined {
  const expected = EXPECTED_CODES[run.example]?.code ?? 0;
  if (run.code !== expected) {
    const output = `${run.stderr.trim()}\n${run.stdout.trim()}`.trim().slice(0, 800);
    return `${run.example}\n  exit ${run.code} after ${run.seconds.toFixed(1)} s, expected ${expected}\n  ${output}`;
  }
  if (/\| jq /.test(run.example) && /^null$/m.test(run.stdout)) return `${run.example}\n  jq printed null`;
  if (run.example.startsWith('curl') && /"error"/.test(run.stdout)) return `${run.example}\n  ${run.stdout}`;
  return undefined;
}

/** Runs `items` with at most `limit` at a time (the machine has few cores; the node serves them all). */
async function inParallel<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await run(items[i]);
      }
    }),
  );
  return results;
}

describe('the documentation examples', () => {
  it('the man pages show the examples --help shows', () => {
    const man = manExamples();
    for (const [id, examples] of helpExamples()) {
      expect(man.get(`l2node-${id.replaceAll(':', '-')}.1`), id).toEqual(examples);
    }
  });

  it('what is not run, or exits non-zero, is still an example, and its covering test exists', () => {
    const examples = allExamples();
    for (const example of [...Object.keys(NOT_RUN), ...Object.keys(EXPECTED_CODES)]) {
      expect(examples.has(example), example).toBe(true);
    }
    for (const example of [...LAST_IN_ORDER.filter((e) => e !== PENDING_TX), ...DEV_STATE_IN_ORDER])
      expect(examples.has(example), example).toBe(true);
    // Every example of these commands is in the ordered list, none runs in parallel with the others.
    for (const example of examples.keys())
      if (DEV_STATE_COMMANDS.test(`${example} `)) expect(DEV_STATE_IN_ORDER, example).toContain(example);
    for (const { coveredBy, shows } of Object.values(NOT_RUN)) {
      expect(readFileSync(join(REPO_ROOT, coveredBy), 'utf8'), coveredBy).toContain(shows);
    }
  });

  it('every other example runs as printed against the node and exits as documented', async () => {
    const examples = [...allExamples().keys()].filter((e) => !(e in NOT_RUN));
    const later = new Set([...LAST_IN_ORDER, ...DEV_STATE_IN_ORDER, ...examples.filter(isQueryTx)]);
    const runs = await inParallel(
      examples.filter((e) => !later.has(e)),
      4,
      (e) => runExample(e),
    );
    for (const step of LAST_IN_ORDER) {
      if (step !== PENDING_TX) {
        runs.push(await runExample(step));
        continue;
      }
      const built = await cli(['tx', 'build']);
      const sent = envelopeOf(await cli(['tx', 'send', '-', '--json'], built.stdout));
      const pending = (sent.result as { txHash: string }).txHash;
      for (const example of examples.filter(isQueryTx)) runs.push(await runExample(example, { TX_HASH: pending }));
    }
    for (const example of DEV_STATE_IN_ORDER) runs.push(await runExample(example));
    const problems = runs.map(problemOf).filter((p) => p !== undefined);
    expect(problems.join('\n\n')).toBe('');
    expect(runs.length).toBe(examples.length);
  }, 240_000);
});

describe('what the examples showed wrong (issue 17 item 10)', () => {
  it('a listener URL without a scheme is http, as curl reads it (flag and env variable)', async () => {
    const host = (url: string) => url.replace(/^http:\/\//, '');
    const [tips, config] = await Promise.all([
      l2node(['query', 'tips', '--node-url', host(node.publicUrl), '--json']),
      l2node(['admin', 'config', 'get', 'maxPendingTxCount', '--json'], {
        env: { ...env, NODE_ADMIN_URL: host(node.adminUrl) },
      }),
    ]);
    expect(tips.code, tips.stdout).toBe(0);
    expect(envelopeOf(tips).status).toBe(0);
    expect(config.code, config.stdout).toBe(0);
  });

  it('the refusal of a rollback below the finalized block tells a CLI user to pass --force', async () => {
    const finalized = await until('the committee node to finalize block 2', async () => {
      const tips = envelopeOf(await l2node(['query', 'tips', '--json'], { env: committeeEnv() })).result as {
        finalized: { block: { number: number } };
      };
      return tips.finalized.block.number >= 2 ? tips.finalized.block.number : undefined;
    });
    const [human, json] = await Promise.all([
      l2node(['admin', 'rollback', '1', '--yes'], { env: committeeEnv() }),
      l2node(['admin', 'rollback', '1', '--yes', '--json'], { env: committeeEnv() }),
    ]);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(
      /^l2node admin rollback: block 1 is before the finalized block \d+: rolling back below it takes --force\n {2}- l2node admin rollback 1 --force --yes \(clears the world state/,
    );
    expect(human.stderr).not.toContain('Pass force');
    const envelope = envelopeOf(json);
    expect(envelope).toMatchObject({
      status: 1,
      error: { code: 'INVALID_STATE', data: { data: { code: 'INVALID_STATE', forceRequired: true } } },
    });
    const figures = envelope.error?.data as { data: { finalizedBlockNumber: number } } | undefined;
    expect(figures?.data.finalizedBlockNumber).toBeGreaterThanOrEqual(finalized);
  });
});
