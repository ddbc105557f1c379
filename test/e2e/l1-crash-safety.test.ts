/**
 * Crash safety of `l2node start --l1 anvil` (issue 33), over the real binary and anvil 1.7.1: a node killed with
 * SIGKILL takes its anvil along, and a restart finds on the rollup every checkpoint the node had recorded; an
 * anvil killed alone is reported down (not ready) and restarted from its saved state; a damaged state falls back
 * to the previous good one. One data directory is shared by the cases, which run in order.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import Database from 'better-sqlite3';
import { createPublicClient, type Hex, http } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { anvilStatePath, previousAnvilStatePath } from '../../src/daemon/l1/anvil-state-file.js';
import { l2node } from '../helpers/cli.js';
import { result } from '../helpers/mempool-e2e.js';
import { prng } from '../helpers/prng.js';
import { spawnAnvilNode } from '../helpers/spawn-l1-node.js';
import { type LogLine, type RunningNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';

const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-l1-crash-'));
/** The node of the case that runs (one at a time on the shared data directory). */
let current: RunningNode | undefined;
afterAll(async () => {
  await current?.stop();
  rmSync(dataDirectory, { recursive: true, force: true });
});

/**
 * A node on its own anvil in the shared data directory, once the previous one stopped (a failed case leaves its
 * node running). Epochs of 32 slots of 8 s: nothing the cases record is pruned for want of a proof while they run.
 */
async function startNode(): Promise<RunningNode> {
  await current?.stop();
  current = await spawnAnvilNode(dataDirectory, [
    ...['--slot-duration', '8', '--blocks-per-slot', '1', '--epoch-duration', '32'],
  ]);
  return current;
}

/** The process group of the node's anvil (its supervisor's pid) and anvil's own pid, from the node's log. */
function anvilOf(node: RunningNode): { group: number; pid: number; url: string } {
  const line = [...node.logs()].reverse().find((l) => /^anvil (listening on|is back on)/.test(String(l.msg)));
  if (!line) throw new Error('the node did not report its anvil');
  return { group: line.group as number, pid: line.pid as number, url: line.rpcUrl as string };
}

/** Whether any process of the group is alive. */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/** The checkpoints the node recorded in its database (number → archive root), read with the node stopped. */
function recordedCheckpoints(): Map<number, string> {
  const db = new Database(join(dataDirectory, 'l2node.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT number, archive_root FROM chain_checkpoint ORDER BY number').all() as {
      number: number;
      archive_root: Buffer;
    }[];
    return new Map(rows.map((r) => [r.number, `0x${r.archive_root.toString('hex')}`]));
  } finally {
    db.close();
  }
}

/** The rollup of the node's anvil: its pending checkpoint number and the archive of each checkpoint. */
async function rollupOf(node: RunningNode) {
  const { url } = anvilOf(node);
  const addresses = await result<{ rollupAddress: Hex }>(node.publicUrl, 'node_getL1ContractAddresses');
  const client = createPublicClient({ transport: http(url) });
  const rollup = { address: addresses.rollupAddress, abi: RollupAbi } as const;
  return {
    pending: async () => Number(await client.readContract({ ...rollup, functionName: 'getPendingCheckpointNumber' })),
    archiveAt: async (n: number) =>
      (await client.readContract({ ...rollup, functionName: 'archiveAt', args: [BigInt(n)] })).toLowerCase(),
  };
}

/** Every checkpoint in `recorded` is on the node's rollup with the same archive, and the node still holds it. */
async function expectOnRollup(node: RunningNode, recorded: Map<number, string>): Promise<void> {
  const rollup = await rollupOf(node);
  const last = Math.max(0, ...recorded.keys());
  expect(await rollup.pending()).toBeGreaterThanOrEqual(last);
  for (const [n, archive] of recorded) expect(await rollup.archiveAt(n), `checkpoint ${n} on L1`).toBe(archive);
  const tips = await result<{ checkpointed: { checkpoint: { number: number } } }>(node.publicUrl, 'node_getL2Tips');
  expect(tips.checkpointed.checkpoint.number).toBeGreaterThanOrEqual(last);
}

/** The status of the node (GET /status body). */
async function status(node: RunningNode): Promise<Record<string, unknown> & { l1?: Record<string, unknown> }> {
  return (await (await fetch(`${node.publicUrl}/status`)).json()) as Record<string, unknown>;
}

/** An HTTP server on `port` answering 503, or undefined while the port is taken. */
function listen(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer((_req, res) => res.writeHead(503).end());
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const landed = (n: number) => (l: LogLine) => l.kind === 'propose' && l.ok === true && Number(l.checkpoint) >= n;

describe('l2node start --l1 anvil: crashes', () => {
  it(
    'SIGKILL of the node during proposals, 10 times: no anvil survives, every recorded checkpoint is on the rollup',
    async () => {
      const random = prng(33);
      let node = await startNode();
      let lastRecorded = 0;
      for (let kill = 0; kill < 10; kill++) {
        // A block of this run is built, then the kill comes anywhere in the next 3.5 s (scaled): while its checkpoint's blobs
        // are committed, its proposal simulated, sent, mined, anvil's state saved or the checkpoint recorded (all of
        // it takes about 2.5 s here).
        await node.waitForLog((l) => String(l.msg).startsWith('built block'), 60_000);
        await new Promise((r) => setTimeout(r, Math.floor(random() * scaled(3_500))));
        const { group } = anvilOf(node);
        node.signal('SIGKILL');
        await node.exited;
        await until('the killed node’s anvil to be gone', () => (groupAlive(group) ? undefined : true), 10_000);
        const recorded = recordedCheckpoints();
        lastRecorded = Math.max(0, ...recorded.keys());
        process.stderr.write(`kill ${kill + 1}: ${recorded.size} checkpoints recorded\n`);
        node = await startNode();
        await expectOnRollup(node, recorded);
      }
      // The kills met proposals: checkpoints were recorded between them.
      expect(lastRecorded).toBeGreaterThan(0);
      // A clean stop and restart loses nothing either.
      await node.waitForLog(landed(lastRecorded + 1), 120_000);
      const { group } = anvilOf(node);
      await node.stop();
      await until('the stopped node’s anvil to be gone', () => (groupAlive(group) ? undefined : true), 10_000);
      const recorded = recordedCheckpoints();
      node = await startNode();
      await expectOnRollup(node, recorded);
      await node.stop();
    },
    scaled(900_000),
  );

  it(
    'SIGKILL of anvil alone: the node says its L1 is down and is not ready until anvil is back',
    async () => {
      const node = await startNode();
      await node.waitForLog(landed(1), 60_000);
      const first = anvilOf(node);
      const port = Number(new URL(first.url).port);
      process.kill(first.pid, 'SIGKILL');
      // The test takes anvil's port as soon as it is free: the node's restarts fail while it holds it, so the
      // down state lasts as long as the test looks at it.
      const squatter = await until('anvil’s port to be free', () => listen(port), { timeoutMs: 5_000, intervalMs: 20 });
      const down = await node.waitForLog((l) => String(l.msg).startsWith("the node's L1 is down"), 10_000);
      expect(down.msg).toMatch(/anvil exited unexpectedly \(SIGKILL\)/);
      const whileDown = await until(
        'GET /status to say the L1 is down',
        async () => {
          const s = await status(node);
          return s.l1?.state === 'down' ? s : undefined;
        },
        10_000,
      );
      expect(whileDown.ready).toBe(false);
      expect(String(whileDown.notReadyReason)).toMatch(/^l1 down: anvil/);
      expect(whileDown.l1).toMatchObject({ reachable: false, anvil: { up: false } });
      const cli = await l2node(['status', '--node-url', node.publicUrl]);
      expect(cli.stdout + cli.stderr).toMatch(/l1 down: anvil/);
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
      const back = await node.waitForLog((l) => String(l.msg).startsWith('anvil is back on'), 30_000);
      expect(back.rpcUrl).toBe(first.url);
      expect(anvilOf(node).pid).not.toBe(first.pid);
      const after = await until(
        'the node to be ready again',
        async () => {
          const s = await status(node);
          return s.ready === true ? s : undefined;
        },
        30_000,
      );
      expect(after.l1).toMatchObject({ state: 'up', anvil: { up: true, restarts: 1 } });
      // It goes on: a proposal lands on the restarted anvil.
      const seen = node.logs().length;
      await until('a proposal after the restart', () => node.logs().slice(seen).find(landed(1)), 60_000);
      await node.stop();
    },
    scaled(300_000),
  );

  it(
    'a damaged anvil state falls back to the previous good one; with none left, start-up names the recovery',
    async () => {
      const state = anvilStatePath(dataDirectory);
      const previous = previousAnvilStatePath(dataDirectory);
      expect(existsSync(state) && existsSync(previous)).toBe(true);
      truncateSync(state, 100);
      const node = await startNode();
      const warning = node.logs().find((l) => String(l.msg).startsWith('anvil cannot load its state'));
      expect(warning?.msg).toMatch(/starts from the previous good state .*anvil-state\.previous\.json/);
      const rollup = await rollupOf(node);
      expect(await rollup.pending()).toBeGreaterThan(0);
      await node.stop();
      // Both damaged: no silent fresh L1, but the reason and what to run.
      writeFileSync(state, readFileSync(state).subarray(0, 50));
      writeFileSync(previous, '{');
      const failed = spawnNodeProcess({
        args: ['--l1', 'anvil', '--data-directory', dataDirectory, '--sequencer-mode', 'interval'],
      });
      expect((await failed.exited).code).not.toBe(0);
      expect(failed.stdout() + failed.stderr()).toMatch(/no good state is left.*mv .* l2node start --l1 anvil/s);
    },
    scaled(300_000),
  );
});
