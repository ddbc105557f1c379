import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPONSORED_FPC } from '../../src/core/contract/sponsored-fpc.js';
import { TEST_ACCOUNTS } from '../../src/core/test-accounts.js';
import { Tx } from '../../src/core/tx/tx.js';
import { type Envelope, envelopeOf, l2node, shapeOf } from '../helpers/cli.js';
import { CONFIG_HOME, REPO_ROOT, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * `l2node start --json --bot --no-save-api-key` on one spawned node: the banner as one JSON line, no key saved,
 * the tx bot inside the node sending txs priced at the current min fees times (1 + --bot.minFeePadding), its
 * rate in the log, and a clean stop on SIGTERM. `l2node bot` against the same node, with --count and with a signal.
 */
let node: RunningNode;
let banner: Envelope;

beforeAll(async () => {
  node = await spawnNode({
    args: [
      '--json',
      '--no-save-api-key',
      '--bot',
      ...['--bot.txIntervalSeconds', '1', '--bot.minFeePadding', '2'],
      ...['--sequencer-mode', 'on-demand', '--log-level', 'info; debug: bot'],
    ],
  });
  const line = node
    .stdout()
    .split('\n')
    .find((l) => l.startsWith('{"status"'));
  banner = JSON.parse(line ?? '{}') as Envelope;
});
afterAll(async () => {
  await node?.stop();
});

function sentByBot(): { txHash: string; maxFeePerL2Gas: string }[] {
  return node.logs().filter((l) => /^bot sent /.test(l.msg ?? '')) as unknown as {
    txHash: string;
    maxFeePerL2Gas: string;
  }[];
}

describe('start --json --no-save-api-key', () => {
  it('prints the banner as the first and only line of stdout; the log goes to stderr', () => {
    const lines = node
      .stdout()
      .split('\n')
      .filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0] as string) as Envelope).status).toBe(0);
    expect(node.stderr()).toMatch(/"msg":"rpc listening"/);
  });

  it('prints the banner as one JSON envelope with the URLs, the accounts and the new key', () => {
    expect(banner.status).toBe(0);
    const r = banner.result as Record<string, unknown>;
    expect(r).toMatchObject({
      publicUrl: node.publicUrl,
      adminUrl: node.adminUrl,
      adminAuth: 'api-key',
      credentialsFile: null,
      dataDirectory: null,
      bot: `a tx every 1 s from ${TEST_ACCOUNTS[0].address}`,
      sponsoredFPC: SPONSORED_FPC.address.toString(),
    });
    expect(r.adminApiKey).toMatch(/^[0-9a-f]{64}$/);
    expect(node.stdout()).not.toContain('ADMIN API KEY');
    expect(shapeOf(banner)).toMatchSnapshot();
  });

  it('saves nothing for the CLI', () => {
    expect(existsSync(join(CONFIG_HOME, 'l2node', 'credentials.json'))).toBe(false);
  });
});

describe('start --bot', () => {
  it('sends txs from the first test account at min fees x (1 + padding), and they are mined', async () => {
    const [first] = await until('the bot to send a tx', () => (sentByBot().length > 0 ? sentByBot() : undefined));
    const env = { NODE_URL: node.publicUrl };
    const txRun = await l2node(['query', 'tx', first?.txHash as string, '--json'], { env });
    const tx = Tx.fromJSON(envelopeOf(txRun).result);
    expect(tx.data.feePayer.toString()).toBe(TEST_ACCOUNTS[0].address.toString());
    const maxFee = tx.data.gasSettings.maxFeesPerGas.feePerL2Gas;
    expect(maxFee.toString()).toBe(first?.maxFeePerL2Gas);
    // min fees x 3: the dev fee model keeps the min fee steady while blocks stay far below the mana target.
    const fees = envelopeOf(await l2node(['query', 'fees', '--json'], { env })).result as { feePerL2Gas: string };
    expect(maxFee).toBe(3n * BigInt(fees.feePerL2Gas));
    const wait = await l2node(['tx', 'wait', first?.txHash as string, '--until', 'proposed'], { env });
    expect(wait.code, wait.stderr).toBe(0);
  });

  it('keeps sending at its interval', async () => {
    await until('three bot txs', () => (sentByBot().length >= 3 ? true : undefined), 20_000);
    expect(node.logs().some((l) => /^tx bot running: a tx every 1 s/.test(l.msg ?? ''))).toBe(true);
  });
});

describe('l2node bot', () => {
  it('--count sends that many and stops, reporting its rate on the way (human and --json)', async () => {
    const env = { NODE_URL: node.publicUrl };
    const args = ['bot', '--count', '3', '--bot.txIntervalSeconds', '1', '--report-every', '1'];
    const [human, jsonRun] = await Promise.all([l2node(args, { env }), l2node([...args, '--json'], { env })]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^\d\d:\d\d:\d\d {2}\d txs sent in [\d.]+ s \([\d.]+ tx\/s\)/m);
    expect(human.stdout).toMatch(
      /^stopped: 3 txs sent in [\d.]+ s \([\d.]+ tx\/s\), 0 rejected, 0 failed, \d+ turns skipped$/m,
    );
    expect(human.stderr).toMatch(
      /^bot: a tx every 1 s to http:\/\/127\.0\.0\.1:\d+ from 0x0a60414e.*, max fees = min fees x 4; Ctrl\+C stops it$/m,
    );
    const json = envelopeOf(jsonRun);
    expect(json.status).toBe(0);
    expect(json.result).toMatchObject({
      sent: 3,
      rejected: 0,
      failed: 0,
      feePayer: TEST_ACCOUNTS[0].address.toString(),
    });
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('stops cleanly on SIGINT, finishing the tx in flight (exit 0)', async () => {
    const child = spawn(
      process.execPath,
      [join(REPO_ROOT, 'bin', 'run.js'), 'bot', '--bot.txIntervalSeconds', '1', '--report-every', '1'],
      {
        env: { ...process.env, NODE_URL: node.publicUrl },
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    // Interrupted once it has sent a tx (its rate line says so), however long a loaded machine takes to get there.
    await until('the bot to report a tx sent', () =>
      /^\d\d:\d\d:\d\d {2}[1-9]\d* txs sent/m.test(stdout) ? true : undefined,
    );
    child.kill('SIGINT');
    expect(await closed).toBe(0);
    expect(stdout).toMatch(/^stopped: [1-9]\d* txs sent in [\d.]+ s/m);
  });

  it('a node that does not answer exits 5', async () => {
    const run = await l2node(['bot', '--count', '1', '--node-url', 'http://127.0.0.1:47', '--json']);
    expect(run.code).toBe(5);
    expect(envelopeOf(run).error?.code).toBe('UNREACHABLE');
  });

  it('a bad bot setting exits 2 naming it', async () => {
    const run = await l2node(['bot', '--bot.minFeePadding', 'lots', '--node-url', node.publicUrl]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--bot\.minFeePadding: expected a non-negative decimal/);
  });

  it('--bot.minFeePadding takes a decimal (the padding is a multiplier), and config --json shows numbers', async () => {
    const run = await l2node(['config', '--bot.minFeePadding', '0.5', '--slot-duration', '4', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const rows = (envelopeOf(run).result as { settings: { key: string; value: unknown; text: string }[] }).settings;
    expect(rows.find((r) => r.key === 'botMinFeePadding')).toMatchObject({ value: 0.5, text: '0.5' });
    expect(rows.find((r) => r.key === 'slotDuration')).toMatchObject({ value: 4, text: '4 s' });
    expect(rows.find((r) => r.key === 'rpcMaxBodySize')?.value).toBe(1024 * 1024);
  });
});

describe('stopping the node', () => {
  it('stops the bot first, then the node, exit 0', async () => {
    node.signal('SIGTERM');
    const exit = await node.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const msgs = node.logs().map((l) => l.msg ?? '');
    const botStopped = msgs.findIndex((m) => /^tx bot stopped: \d+ sent/.test(m));
    expect(botStopped).toBeGreaterThan(-1);
    expect(botStopped).toBeLessThan(msgs.indexOf('node stopped'));
  });
});
