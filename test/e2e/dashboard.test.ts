import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { EventStreamClient } from '../../src/rpc/client/event-stream-client.js';
import type { NodeStreamEvent } from '../../src/rpc/node-stream-event.js';
import { l2node } from '../helpers/cli.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag } from '../helpers/mempool-e2e.js';
import { CONFIG_HOME, postJson, REPO_ROOT, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';
import { untilTrue } from '../helpers/until.js';

/**
 * The admin event stream and `l2node dashboard` against one spawned dev node (two blocks a second): the stream's
 * events from the node's own emitters, `--once --json` for scripts, and the real dashboard in a real terminal
 * (tmux): the block number on screen advances, p then y pauses sync (GET /status of the node says so), q exits 0.
 * The terminal test is skipped when tmux is missing; it runs last, as it leaves the node paused.
 */
const PAYER = new AztecAddress(0x5001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
let node: RunningNode;

beforeAll(async () => {
  node = await spawnNode({
    args: [
      ...['--sequencer-mode', 'interval', '--min-txs-per-block', '0', '--slot-duration', '1', '--blocks-per-slot', '2'],
      ...['--prefunded-accounts', prefundedFlag(FUNDED)],
    ],
  });
});

describe('the event stream of a running node', () => {
  it('sends the snapshot, then blocks and tips, a config change and the pool totals', async () => {
    const client = new EventStreamClient({ adminUrl: node.adminUrl, apiKey: node.adminKey });
    const events: NodeStreamEvent[] = [];
    client.onEvent((e) => events.push(e));
    client.start();
    try {
      await untilTrue('a block event', () => events.some((e) => e.type === 'block'), POLL);
      const [snapshot] = events;
      expect(snapshot).toMatchObject({ type: 'snapshot', node: { mode: 'dev', l1ChainId: 31337 } });
      expect(snapshot?.type === 'snapshot' && snapshot.production).toMatchObject({ producer: 'sequencer' });
      const block = events.find((e) => e.type === 'block');
      expect(block?.type === 'block' && block.block.durationMs).toBeGreaterThan(0);
      await untilTrue('a tips event', () => events.some((e) => e.type === 'tips'), POLL);
      const set = await postJson(node.adminUrl, rpc('nodeAdmin_setConfig', [{ maxTxsPerBlock: 32 }]), {
        'x-api-key': node.adminKey as string,
      });
      expect(set.body).toMatchObject({ result: null });
      await untilTrue('the config event', () => events.some((e) => e.type === 'config'), POLL);
      expect(events.find((e) => e.type === 'config')).toMatchObject({ changed: { maxTxsPerBlock: 32 } });

      // The mempool's running totals: one tx taken, one refused as invalid (expired).
      const fees = (await call(node.publicUrl, 'node_getCurrentMinFees')).result as { feePerL2Gas: string };
      const builder = devTxBuilder(genesisHeader(FUNDED));
      const maxFeesPerGas = new GasFees(0n, 2n * BigInt(fees.feePerL2Gas));
      const tx = (n: bigint, o: { expirationTimestamp?: bigint } = {}) =>
        builder.build({ feePayer: PAYER, txRequestHash: new Fr(n), maxFeesPerGas, ...o }).toJSON();
      expect((await call(node.publicUrl, 'node_sendTx', [tx(1n)])).error).toBeUndefined();
      expect((await call(node.publicUrl, 'node_sendTx', [tx(2n, { expirationTimestamp: 1n })])).error).toMatchObject({
        data: { code: 'TX_INVALID' },
      });
      const pooled = () =>
        events.find((e) => e.type === 'pool' && e.pool.added === 1 && e.pool.rejected.TX_INVALID === 1);
      await untilTrue('a pool event with both', () => pooled() !== undefined, POLL);
    } finally {
      client.close();
    }
  });

  it('`dashboard --once --json` prints the snapshot and exits 0; a refused key exits 3; no terminal exits 2', async () => {
    const once = await l2node([
      'dashboard',
      '--once',
      '--json',
      '--admin-url',
      node.adminUrl,
      '--api-key',
      node.adminKey as string,
    ]);
    expect(once.code).toBe(0);
    const envelope = JSON.parse(once.stdout) as {
      status: number;
      result: { type: string; tips: { proposed: { number: number } } };
    };
    expect(envelope.status).toBe(0);
    expect(envelope.result.type).toBe('snapshot');
    expect(envelope.result.tips.proposed.number).toBeGreaterThan(0);

    // A config home without the key that `start` saved.
    const elsewhere = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'l2node-nokey-')) };
    const refused = await l2node(['dashboard', '--json', '--admin-url', node.adminUrl], { env: elsewhere });
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 3, error: { code: 'UNAUTHORIZED' } });

    const noTty = await l2node(['dashboard', '--admin-url', node.adminUrl]);
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain('the live dashboard needs a terminal on stdout');
    expect(noTty.stderr).toContain('l2node dashboard --once --json');
  });
});

const POLL = { timeoutMs: 10_000, intervalMs: 20 } as const;
const TMUX = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
const SOCKET = `l2node-dashboard-test-${process.pid}`;
const SESSION = 'dash';

function tmux(...args: string[]): string {
  const r = spawnSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8', env: tmuxEnv() });
  if (r.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** The tmux server's environment, which the pane's shell inherits: no NODE_* of the outer shell, our config home. */
function tmuxEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('NODE_') || k === 'NODE_OPTIONS') env[k] = v;
  }
  return { ...env, XDG_CONFIG_HOME: CONFIG_HOME, TERM: 'xterm-256color' };
}

function screen(): string {
  return tmux('capture-pane', '-p', '-t', SESSION);
}

async function waitForScreen(check: (text: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen();
    if (check(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function proposedOnScreen(text: string): number | undefined {
  const m = /proposed\s+([\d,]+)\s/.exec(text);
  return m ? Number((m[1] as string).replaceAll(',', '')) : undefined;
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

describe.skipIf(!TMUX)('l2node dashboard in a terminal (tmux)', () => {
  afterAll(() => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  });

  it('shows the chain advancing, pauses sync with p then y, and quits with q (exit 0)', async () => {
    expect(node.adminKey).toBeDefined();
    const command = [
      shellQuote(process.execPath),
      shellQuote(`${REPO_ROOT}bin/run.js`),
      'dashboard',
      '--admin-url',
      node.adminUrl,
      '--api-key',
      node.adminKey as string,
    ].join(' ');
    // The pane outlives the dashboard so its exit code can be read from the screen.
    tmux('new-session', '-d', '-s', SESSION, '-x', '120', '-y', '40', `${command}; echo "l2node-exit=$?"; sleep 600`);

    const first = await waitForScreen(
      (t) => t.includes('● connected to ws://') && proposedOnScreen(t) !== undefined,
      'the dashboard to connect',
    );
    const before = proposedOnScreen(first) as number;
    const later = await waitForScreen((t) => (proposedOnScreen(t) ?? 0) > before, 'the block number to advance');
    expect(later).toContain(' SYNCED ');

    tmux('send-keys', '-t', SESSION, 'p');
    await waitForScreen((t) => t.includes(`Pause sync of ${node.adminUrl}? (y/n)`), 'the y/n question');
    tmux('send-keys', '-t', SESSION, 'y');
    const deadline = Date.now() + 10_000;
    let status: { sync?: { state?: string; pausedBy?: string[] } } = {};
    while (Date.now() < deadline) {
      status = (await (await fetch(`${node.adminUrl}/status`)).json()) as typeof status;
      if (status.sync?.state === 'paused') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status.sync).toMatchObject({ state: 'paused', pausedBy: ['operator'] });
    await waitForScreen((t) => t.includes(' PAUSED ') && t.includes('nodeAdmin_pauseSync done'), 'PAUSED on screen');

    tmux('send-keys', '-t', SESSION, 'q');
    const after = await waitForScreen((t) => /l2node-exit=\d+/.test(t), 'the dashboard to exit');
    expect(/l2node-exit=(\d+)/.exec(after)?.[1]).toBe('0');
  });
});

describe.skipIf(TMUX)('l2node dashboard in a terminal (tmux)', () => {
  it.skip('needs tmux, which is not installed here: apt-get install -y tmux to run this test', () => {});
});
