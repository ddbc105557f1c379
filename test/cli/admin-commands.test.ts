import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, type Envelope, envelopeOf, l2node, shapeOf } from '../helpers/cli.js';
import { CONFIG_HOME, type RunningNode, spawnNode } from '../helpers/spawn-node.js';

/**
 * The admin commands and the saved API key against one spawned node with a data directory: `start` saves the
 * key it generates for the CLI (0600, per admin URL) while the node keeps only its hash; `admin logout` and
 * `admin login` (stdin) remove and save it; every admin command in human and --json form. The operations the
 * node does not serve yet (pause/resume sync, rollback, config, snapshots, keystore, slashing) must print the
 * node's refusal (e.g. "not available yet") and exit 1; once served they exit 0: these tests take either, no other.
 */
let node: RunningNode;
let dataDirectory: string;
let env: Record<string, string>;
const CREDENTIALS = join(CONFIG_HOME, 'l2node', 'credentials.json');

const cli = (args: readonly string[], input?: string, extraEnv: Record<string, string> = {}) =>
  l2node(args, { env: { ...env, ...extraEnv }, input });

/**
 * `served-or-refused`: the node either does it (exit 0) or refuses it, and then the command prints the node's own
 * message (such as "<method> is not available yet", or why it cannot now) and exits 1. Which one depends on the
 * node's services and state, not on the CLI.
 */
async function both(
  args: readonly string[],
  code: number | 'served-or-refused' = 0,
): Promise<{ human: CliRun; json: Envelope }> {
  const [human, jsonRun] = await Promise.all([cli(args), cli([...args, '--json'])]);
  const json = envelopeOf(jsonRun);
  if (code === 'served-or-refused') {
    expect([0, 1], `${args.join(' ')}: ${human.stderr}`).toContain(human.code);
    if (human.code === 1) {
      expect(json.error?.data, 'the node answered the refusal').toMatchObject({ code: expect.any(Number) });
      expect(human.stderr).toContain(json.error?.message);
      expect(json.error?.message).toMatch(/^nodeAdmin_\w+ failed: /);
    }
  } else expect(human.code, `${args.join(' ')}: ${human.stderr}`).toBe(code);
  expect(jsonRun.code).toBe(human.code);
  expect(json.status).toBe(human.code);
  return { human, json };
}

const savedKeys = () =>
  (JSON.parse(readFileSync(CREDENTIALS, 'utf8')) as { adminKeys: Record<string, { apiKey: string }> }).adminKeys;

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-cli-admin-'));
  node = await spawnNode({ args: ['--data-directory', dataDirectory, '--sequencer-mode', 'on-demand'] });
  env = { NODE_URL: node.publicUrl, NODE_ADMIN_URL: node.adminUrl };
});
afterAll(async () => {
  await node?.stop();
  rmSync(dataDirectory, { recursive: true, force: true });
});

describe('the key start generates', () => {
  it('is saved for the CLI under the admin URL, 0600 in a 0700 folder; the banner says where', () => {
    const key = node.adminKey as string;
    expect(savedKeys()[node.adminUrl]?.apiKey).toBe(key);
    expect(statSync(CREDENTIALS).mode & 0o777).toBe(0o600);
    expect(statSync(join(CONFIG_HOME, 'l2node')).mode & 0o777).toBe(0o700);
    expect(node.stdout()).toContain(`Saved for the l2node CLI in ${CREDENTIALS} (for ${node.adminUrl})`);
    expect(node.logs().some((l) => JSON.stringify(l).includes(key))).toBe(false);
  });

  it('the data directory keeps only its SHA-256', () => {
    const key = node.adminKey as string;
    expect(readFileSync(join(dataDirectory, 'admin', 'api_key_hash'), 'utf8')).toBe(
      createHash('sha256').update(key).digest('hex'),
    );
  });

  it('the banner names version, chain id, listeners, data directory and prefunded accounts', () => {
    const out = node.stdout();
    expect(out).toMatch(/^Version\s+l2node \d+\.\d+\.\d+$/m);
    expect(out).toMatch(/^L1 chain id\s+31337$/m);
    expect(out).toContain(`Public RPC      ${node.publicUrl}`);
    expect(out).toContain(`Admin RPC       ${node.adminUrl}`);
    expect(out).toContain(`Data directory  ${dataDirectory}`);
    expect(out).toMatch(/^\(0\) 0x0a60414ee907527880b7a53d4dacdeb9ef768bb98d9d8d1e7200725c13763331 {2}10000\.0 FJ/m);
    expect(out).toMatch(/^ {4}secret 0x2153536ff6628eee01cf4024889ff977a18d9fa61d0e414422f7681cf085c281$/m);
    expect(out).toContain('ADMIN API KEY (shown once)');
  });
});

describe('admin logout and login', () => {
  it('logout forgets the key; admin commands then exit 3 and say how to log in', async () => {
    const human = await cli(['admin', 'logout']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`Removed the saved admin API key for ${node.adminUrl}.`);
    expect(existsSync(CREDENTIALS)).toBe(false);
    // Logging out again succeeds, with a warning.
    const again = await cli(['admin', 'logout', '--json']);
    expect(again.code).toBe(0);
    expect(envelopeOf(again)).toEqual({
      status: 0,
      result: { adminUrl: node.adminUrl, removed: false },
      warnings: [`no admin API key was saved for ${node.adminUrl}`],
    });
    const refused = await both(['admin', 'pause-sync'], 3);
    expect(refused.json.error?.code).toBe('UNAUTHORIZED');
    expect(refused.human.stderr).toContain('l2node admin login');
  });

  it('login refuses a key the node refuses (exit 3) and saves nothing', async () => {
    const run = await cli(['admin', 'login', '--json'], `${'0'.repeat(64)}\n`);
    expect(run.code).toBe(3);
    expect(envelopeOf(run).error?.message).toMatch(/the key was not saved/);
    expect(existsSync(CREDENTIALS)).toBe(false);
  });

  it('login with an unreachable admin listener exits 5 unless --no-verify', async () => {
    const dead = 'http://127.0.0.1:47';
    const run = await cli(['admin', 'login', '--admin-url', dead], 'k\n');
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('--no-verify');
    const saved = await cli(['admin', 'login', '--admin-url', dead, '--no-verify', '--json'], 'k\n');
    expect(envelopeOf(saved)).toMatchObject({ status: 0, result: { adminUrl: dead, verified: false } });
    expect(savedKeys()[dead]?.apiKey).toBe('k');
    expect((await cli(['admin', 'logout', '--admin-url', 'http://localhost:47/'])).code).toBe(0);
    expect(existsSync(CREDENTIALS)).toBe(false);
  });

  it('login reads the key from stdin, checks it and saves it; admin commands use it again', async () => {
    const run = await cli(['admin', 'login'], `${node.adminKey}\n`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Saved the admin API key for ${node.adminUrl}`);
    expect(savedKeys()[node.adminUrl]?.apiKey).toBe(node.adminKey);
    const json = envelopeOf(await cli(['admin', 'login', '--json'], `${node.adminKey}\n`));
    expect(shapeOf(json)).toMatchSnapshot();
    const status = envelopeOf(await cli(['status', '--json']));
    expect(status.result).toMatchObject({ admin: { keySource: 'saved', keyAccepted: true } });
  });

  it('--api-key and NODE_ADMIN_API_KEY win over the saved key', async () => {
    const wrong = 'f'.repeat(64);
    expect((await cli(['admin', 'keystore', 'reload', '--api-key', wrong])).code).toBe(3);
    expect((await cli(['admin', 'keystore', 'reload'], undefined, { NODE_ADMIN_API_KEY: wrong })).code).toBe(3);
  });
});

describe('admin operations', () => {
  it.each([
    ['admin pause-sync', ['admin', 'pause-sync']],
    ['admin resume-sync', ['admin', 'resume-sync']],
    ['admin config get', ['admin', 'config', 'get']],
    ['admin config get <key>', ['admin', 'config', 'get', 'maxPendingTxCount']],
    ['admin config set', ['admin', 'config', 'set', 'maxPendingTxCount=500']],
    ['admin snapshot upload', ['admin', 'snapshot', 'upload', `file://${join(tmpdir(), 'l2node-cli-snapshot')}`]],
    ['admin keystore reload', ['admin', 'keystore', 'reload']],
    ['admin slash payloads', ['admin', 'slash', 'payloads']],
    ['admin slash offenses', ['admin', 'slash', 'offenses']],
    ['admin slash offenses all', ['admin', 'slash', 'offenses', 'all']],
  ])('%s does it, or prints why the node refuses and exits 1', async (_name, args) => {
    const { json } = await both(args, 'served-or-refused');
    // The shape of the answer, or of the refusal: which one is recorded with the snapshot.
    expect(shapeOf(json)).toMatchSnapshot();
  });

  it('admin rollback asks for --yes when it cannot ask (exit 2), and resolves latest through the public listener', async () => {
    const refused = await both(['admin', 'rollback', '0'], 2);
    expect(refused.json.error?.message).toMatch(
      /rolling back to block 0 removes every later block: confirm with --yes/,
    );
    const { json } = await both(['admin', 'rollback', 'latest', '--yes'], 'served-or-refused');
    expect(shapeOf(json)).toMatchSnapshot();
  });

  it('admin rollback to a block hash the chain does not have exits 4', async () => {
    await both(['admin', 'rollback', `0x00${'ab'.repeat(31)}`, '--yes'], 4);
  });

  it('malformed arguments exit 2 before anything is sent', async () => {
    expect((await both(['admin', 'config', 'set', 'maxPendingTxCount'], 2)).json.error?.message).toMatch(
      /is not key=value/,
    );
    expect((await both(['admin', 'slash', 'offenses', 'last'], 2)).json.error?.message).toMatch(/not a round number/);
    await both(['admin', 'send-l1-message', 'hello'], 2);
  });

  it('admin send-l1-message gives the leaf index and checkpoint', async () => {
    const { human, json } = await both(['admin', 'send-l1-message', '0x5151']);
    expect(human.stdout).toMatch(/^sent 0x5151: leaf index \d+, enters the message tree with checkpoint \d+$/m);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('an admin listener that does not answer exits 5', async () => {
    const { json } = await both(['admin', 'pause-sync', '--admin-url', 'http://127.0.0.1:47'], 5);
    expect(json.error?.actions.join(' ')).toContain('--admin-url / NODE_ADMIN_URL');
  });
});
