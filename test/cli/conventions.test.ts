import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliManifest } from '../../src/commands/_lib/docs/cli-manifest.js';
import { TEST_ACCOUNTS } from '../../src/core/test-accounts.js';
import { envelopeOf, l2node, shapeOf } from '../helpers/cli.js';
import { devTxBuilder, genesisHeader } from '../helpers/mempool-e2e.js';
import { CONFIG_HOME, REPO_ROOT } from '../helpers/spawn-node.js';
import { scaled } from '../helpers/until.js';

/**
 * The conventions every command keeps, checked over the whole command list (the generated oclif manifest), so
 * a new command is held to them too: --json, examples in --help, exit 5 with the same envelope when no node
 * answers, exit 2 on a flag it does not know. No node runs in this file.
 */
const DEAD = 'http://127.0.0.1:47';
const H = `0x${'11'.repeat(32)}`;
let dir: string;
let txFile: string;
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'oclif.manifest.json'), 'utf8')) as CliManifest;
const ids = Object.keys(manifest.commands).sort();

/** Every RPC command with arguments that are valid, so the only thing wrong is the missing node. */
const ONLINE: Record<string, () => string[]> = {
  status: () => ['status'],
  rpc: () => ['rpc', 'node_getBlockNumber'],
  bot: () => ['bot', '--count', '1'],
  'query:block': () => ['query', 'block'],
  'query:blocks': () => ['query', 'blocks'],
  'query:peers': () => ['query', 'peers'],
  'query:header': () => ['query', 'header', '0'],
  'query:tips': () => ['query', 'tips'],
  'query:tx': () => ['query', 'tx', H],
  'query:receipt': () => ['query', 'receipt', H],
  'query:effect': () => ['query', 'effect', H],
  'query:pending': () => ['query', 'pending'],
  'query:storage': () => ['query', 'storage', '0x05', '0x01'],
  'query:leaves': () => ['query', 'leaves', 'note-hash', '0x01'],
  'query:witness': () => ['query', 'witness', 'note-hash', '0x01'],
  'query:messages': () => ['query', 'messages', '1'],
  'query:logs': () => ['query', 'logs'],
  'query:tags': () => ['query', 'tags', '0x01'],
  'query:contract': () => ['query', 'contract', '0x01'],
  'query:class': () => ['query', 'class', '0x01'],
  'query:node-info': () => ['query', 'node-info'],
  'query:fees': () => ['query', 'fees'],
  'query:validators': () => ['query', 'validators'],
  'query:validator': () => ['query', 'validator', `0x${'12'.repeat(20)}`],
  'tx:build': () => ['tx', 'build'],
  'tx:send': () => ['tx', 'send', txFile],
  'tx:wait': () => ['tx', 'wait', H],
  'tx:trace': () => ['tx', 'trace', H],
  'tx:profile': () => ['tx', 'profile', H],
  'admin:login': () => ['admin', 'login'],
  'admin:pause-sync': () => ['admin', 'pause-sync'],
  'admin:resume-sync': () => ['admin', 'resume-sync'],
  'admin:rollback': () => ['admin', 'rollback', '1', '--yes'],
  'admin:config:get': () => ['admin', 'config', 'get'],
  'admin:config:set': () => ['admin', 'config', 'set', 'maxPendingTxCount=5'],
  'admin:snapshot:upload': () => ['admin', 'snapshot', 'upload', 'file:///tmp/x'],
  'admin:keystore:reload': () => ['admin', 'keystore', 'reload'],
  'admin:slash:payloads': () => ['admin', 'slash', 'payloads'],
  'admin:slash:offenses': () => ['admin', 'slash', 'offenses'],
  'admin:send-l1-message': () => ['admin', 'send-l1-message', '0x01'],
  dashboard: () => ['dashboard', '--once'],
  'dev:mine': () => ['dev', 'mine', '1'],
  'dev:time:increase': () => ['dev', 'time', 'increase', '60'],
  'dev:time:set': () => ['dev', 'time', 'set', '1800000000'],
  'dev:snapshot': () => ['dev', 'snapshot'],
  'dev:revert': () => ['dev', 'revert', '1'],
  'dev:set-storage': () => ['dev', 'set-storage', '0x2a', '1', '42'],
  'dev:fund': () => ['dev', 'fund', '0x2a', '1000'],
};
/** Commands that need no running node. */
const OFFLINE = ['start', 'config', 'admin:logout', 'db:stats', 'db:check', 'db:backup', 'db:rollback', 'db:repair'];
const env = { NODE_URL: DEAD, NODE_ADMIN_URL: DEAD, XDG_CACHE_HOME: CONFIG_HOME };
/** A concurrent case shares the cores with the others that run beside it: more time than one alone needs. */
const CASE_TIMEOUT_MS = scaled(90_000);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'l2node-cli-conventions-'));
  txFile = join(dir, 'tx.json');
  writeFileSync(
    txFile,
    JSON.stringify(devTxBuilder(genesisHeader([])).build({ feePayer: TEST_ACCOUNTS[0].address }).toJSON()),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('every command', () => {
  it('is covered here: online commands with valid arguments, or listed as offline', () => {
    expect(ids.filter((id) => !(id in ONLINE) && !OFFLINE.includes(id))).toEqual([]);
  });

  it.each(ids)('%s has a summary, examples and --json', (id) => {
    const c = manifest.commands[id];
    expect(c?.summary, id).toBeTruthy();
    expect((c?.examples ?? []).length, `${id} has no --help examples`).toBeGreaterThan(0);
    expect(c?.flags.json?.type, `${id} has no --json`).toBe('boolean');
  });

  // These cases run a few at a time (vitest's maxConcurrency): each is one CLI process that shares nothing with
  // the others, and one after another they kept a single core busy while the other worker's file mostly waited
  // on its nodes.
  it.concurrent.for(Object.keys(ONLINE).filter((id) => ids.includes(id)))(
    '%s exits 5 when no node answers, with the UNREACHABLE envelope',
    { timeout: CASE_TIMEOUT_MS },
    async (id, { expect }) => {
      const run = await l2node([...(ONLINE[id] as () => string[])(), '--json'], { env, input: 'key\n' });
      expect(run.code, run.stdout + run.stderr).toBe(5);
      const json = envelopeOf(run);
      expect(json).toMatchObject({
        status: 5,
        error: { code: 'UNREACHABLE', message: expect.stringContaining('127.0.0.1:47') },
      });
      expect(json.error?.actions.some((a) => a.includes('l2node start'))).toBe(true);
      expect(shapeOf(json)).toEqual({
        status: 'number',
        error: { code: 'string', message: 'string', actions: ['string'] },
        warnings: [],
      });
    },
  );

  it.concurrent.for(ids.filter((id) => id !== 'start'))(
    '%s exits 2 on a flag it does not know',
    { timeout: CASE_TIMEOUT_MS },
    async (id, { expect }) => {
      const run = await l2node([...id.split(':'), '--no-such-flag', '--json'], { env });
      expect(run.code).toBe(2);
      expect(envelopeOf(run).error).toMatchObject({ code: 'USAGE', message: expect.stringMatching(/--no-such-flag/) });
    },
  );
});

describe('human errors', () => {
  it('say what went wrong on one line, then what to do', async () => {
    const run = await l2node(['query', 'tips'], { env });
    expect(run.code).toBe(5);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      `l2node query tips: cannot reach ${DEAD} (ECONNREFUSED): is the node running at ${DEAD}?`,
      '  - start a node: l2node start',
      '  - or name it: --node-url / NODE_URL',
      '',
    ]);
  });

  it('L2NODE_CONTENT_TYPE=json is --json; a --json after `--` is an argument, not the flag', async () => {
    // oclif's jsonEnabled, which l2node's Command keeps (src/commands/_lib/command.ts) on a config of bin/run.js.
    const viaEnv = await l2node(['query', 'tips'], { env: { ...env, L2NODE_CONTENT_TYPE: 'json' } });
    expect(viaEnv.code).toBe(5);
    expect(envelopeOf(viaEnv).error).toMatchObject({ code: 'UNREACHABLE' });
    const passedOn = await l2node(['rpc', 'node_getBlockNumber', '--', '--json'], { env });
    expect(passedOn.code).toBe(5);
    expect(passedOn.stdout).toBe('');
    expect(passedOn.stderr).toContain('cannot reach');
  });

  it('--node-url wins over NODE_URL', async () => {
    const run = await l2node(['query', 'tips', '--node-url', 'http://127.0.0.1:10'], { env });
    expect(run.stderr).toContain('cannot reach http://127.0.0.1:10');
  });

  it('a command that does not exist exits 2', async () => {
    const run = await l2node(['query', 'everything']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/command query:everything not found|query everything/);
  });

  it('a tx file that does not exist exits 4 (not found, as the exit code table says); one that cannot be read, 1', async () => {
    const [missing, missingJson, directory] = await Promise.all([
      l2node(['tx', 'send', join(dir, 'no-such-tx.json')]),
      l2node(['tx', 'send', join(dir, 'no-such-tx.json'), '--json']),
      l2node(['tx', 'send', dir]),
    ]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain(`l2node tx send: no file ${join(dir, 'no-such-tx.json')}`);
    expect(envelopeOf(missingJson)).toMatchObject({ status: 4, error: { code: 'NOT_FOUND' } });
    expect(directory.code).toBe(1);
    expect(directory.stderr).toMatch(/cannot read .*EISDIR/);
    // The exit code table of `man l2node` says so.
    const table = readFileSync(join(REPO_ROOT, 'man', 'l2node.1'), 'utf8');
    expect(table).toMatch(/^\.B 4\n.*file asked for does not exist$/m);
  });

  it('a listener URL with a scheme other than http(s) is a usage error naming the flag', async () => {
    const [nodeUrl, adminUrl] = await Promise.all([
      l2node(['query', 'tips', '--node-url', 'ftp://127.0.0.1:8080']),
      l2node(['admin', 'pause-sync', '--json'], { env: { NODE_ADMIN_URL: 'ws://127.0.0.1:8880' } }),
    ]);
    expect(nodeUrl.code).toBe(2);
    expect(nodeUrl.stderr).toBe(
      'l2node query tips: --node-url: "ftp://127.0.0.1:8080" is not an http:// or https:// URL\n',
    );
    expect(envelopeOf(adminUrl)).toMatchObject({
      status: 2,
      error: { code: 'USAGE', message: '--admin-url: "ws://127.0.0.1:8880" is not an http:// or https:// URL' },
    });
  });

  it('a mistyped command suggests the closest one and exits 2 without waiting for an answer (no terminal)', async () => {
    const [human, json, withArgs, far] = await Promise.all([
      l2node(['stauts'], { timeoutMs: 15_000 }),
      l2node(['stauts', '--json'], { timeoutMs: 15_000 }),
      l2node(['admin', 'rolback', '3', '--yes'], { timeoutMs: 15_000 }),
      l2node(['zzzzzzzz'], { timeoutMs: 15_000 }),
    ]);
    // A swap of two letters is one typo: `stauts` is `status`, not `start` (plain Levenshtein's pick).
    expect(human.code).toBe(2);
    expect(human.stdout).toBe('');
    expect(human.stderr.split('\n')).toEqual([
      'l2node: "stauts" is not an l2node command. Did you mean "status"?',
      '  - run: l2node status',
      '  - every command: l2node --help',
      '',
    ]);
    expect(json.code).toBe(2);
    expect(envelopeOf(json)).toEqual({
      status: 2,
      error: {
        code: 'USAGE',
        message: '"stauts" is not an l2node command. Did you mean "status"?',
        actions: ['run: l2node status --json', 'every command: l2node --help'],
        data: { suggestion: 'status' },
      },
      warnings: [],
    });
    // The words after the command are its arguments, kept in the suggested command line.
    expect(withArgs.code).toBe(2);
    expect(withArgs.stderr).toContain('Did you mean "admin rollback"?\n  - run: l2node admin rollback 3 --yes\n');
    // Nothing close: no suggestion.
    expect(far.code).toBe(2);
    expect(far.stderr).toBe('l2node: "zzzzzzzz" is not an l2node command.\n  - every command: l2node --help\n');
  });

  it('parse errors name what was wrong: unexpected arguments, an unknown flag with the closest one', async () => {
    const [args, argsJson, startTypo, queryTypo] = await Promise.all([
      l2node(['query', 'blocks', '1', '5'], { timeoutMs: 60_000 }),
      l2node(['query', 'blocks', '1', '5', '--json'], { timeoutMs: 60_000 }),
      l2node(['start', '--prot', '8081'], { timeoutMs: 60_000 }),
      l2node(['query', 'tips', '--node-ulr', 'http://127.0.0.1:9'], { timeoutMs: 60_000 }),
    ]);
    expect(args.code).toBe(2);
    expect(args.stderr).toBe(
      'l2node query blocks: unexpected arguments "1 5": it takes no arguments\n' +
        '  - see its usage: l2node query blocks --help\n',
    );
    expect(envelopeOf(argsJson)).toMatchObject({ status: 2, error: { code: 'USAGE' } });
    // One line, not the usage of every flag `start` has.
    expect(startTypo.code).toBe(2);
    expect(startTypo.stderr).toBe('l2node start: unknown flag --prot, did you mean --port?\n');
    expect(startTypo.stdout).toBe('');
    expect(queryTypo.code).toBe(2);
    expect(queryTypo.stderr).toMatch(/^l2node query tips: unknown flag --node-ulr, did you mean --node-url\?\n/);
  }, 120_000);

  it('every client command takes both connection flags (dev, dashboard, admin and query alike)', async () => {
    const dead = ['--node-url', 'http://127.0.0.1:9', '--admin-url', 'http://127.0.0.1:9', '--timeout', '2000'];
    const runs = await Promise.all(
      [
        ['dev', 'mine'],
        ['dashboard', '--once'],
        ['admin', 'pause-sync'],
        ['query', 'tips'],
      ].map((c) => l2node([...c, ...dead, '--json'], { timeoutMs: 20_000 })),
    );
    // Unreachable (5), not a usage error (2) for a flag the command refused.
    for (const run of runs) expect(envelopeOf(run)).toMatchObject({ status: 5 });
  }, 120_000);

  // On a terminal @oclif/plugin-not-found asks; util-linux `script` gives the CLI one.
  it.skipIf(spawnSync('script', ['--version']).status !== 0)(
    'on a terminal it asks "Did you mean status?" and runs it when confirmed; declined, it exits 2',
    async () => {
      const onTerminal = (answer: string) =>
        spawnSync('script', ['-qec', `${process.execPath} bin/run.js stauts --node-url ${DEAD}`, '/dev/null'], {
          cwd: REPO_ROOT,
          input: answer,
          encoding: 'utf8',
          timeout: 30_000,
          env: { ...process.env, XDG_CONFIG_HOME: CONFIG_HOME },
        });
      const [yes, no] = [onTerminal('y\n'), onTerminal('n\n')].map((run) => ({
        status: run.status,
        stdout: stripVTControlCharacters(run.stdout),
      }));
      expect(yes.stdout).toContain('Did you mean status?');
      // Confirmed, `status` ran: no node answers at the dead URL, its exit 5.
      expect(yes.stdout).toContain(`l2node status: no node answers at ${DEAD}`);
      expect(yes.status).toBe(5);
      expect(no.stdout).toContain('Did you mean status?');
      expect(no.status).toBe(2);
    },
  );
});

describe('config, --version, --help, completion', () => {
  it('config prints the effective settings (human and --json)', async () => {
    const [human, json] = await Promise.all([
      l2node(['config', '--port', '9000']),
      l2node(['config', '--port', '9000', '--json']),
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^port\s+9000\s+\[flag; --port, NODE_PORT\]$/m);
    const settings = (
      envelopeOf(json).result as { settings: { key: string; value: unknown; text: string; source: string }[] }
    ).settings;
    expect(settings.find((s) => s.key === 'port')).toMatchObject({ value: 9000, text: '9000', source: 'flag' });
    expect(shapeOf(envelopeOf(json).result)).toMatchSnapshot();
  });

  it('config with a bad value exits 2 naming the flag', async () => {
    const run = await l2node(['config', '--port', '70000', '--json']);
    expect(run.code).toBe(2);
    expect(envelopeOf(run).error?.message).toMatch(/--port: expected an integer from 0 to 65535/);
  });

  it('--version prints the package version', async () => {
    const run = await l2node(['--version']);
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run.stdout).toMatch(new RegExp(`^l2node/${version.replaceAll('.', '\\.')} `));
  });

  it('--help lists each topic once, with examples for a command', async () => {
    const root = await l2node(['--help']);
    const topics = root.stdout.slice(root.stdout.indexOf('TOPICS'), root.stdout.indexOf('COMMANDS'));
    expect(topics.match(/^ {2}\S+/gm)).toEqual(['  admin', '  db', '  dev', '  query', '  tx']);
    const help = await l2node(['admin', 'rollback', '--help']);
    expect(help.stdout).toMatch(/^EXAMPLES\n\s+\$ l2node admin rollback 10$/m);
  });

  it('shell completion comes with the CLI', async () => {
    const run = await l2node(['autocomplete', 'bash'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('l2node autocomplete script bash');
  });
});
