/**
 * The dev time warps and snapshots on `--l1 anvil` (issue 32 item 1): the node warps its anvil and itself
 * together, as aztec.js's cheat codes warp anvil, so blocks built after a warp still land in the rollup's slots on
 * L1; a snapshot covers anvil's chain and the node's, and a revert puts both back. What cannot work on an L1
 * stays refused with the reason. One node on its own anvil for the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, result } from '../helpers/mempool-e2e.js';
import { anvilUrlOf, spawnAnvilNode } from '../helpers/spawn-l1-node.js';
import type { RunningNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';

const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-l1-cheats-'));
let node: RunningNode;
let l1: PublicClient;

interface Tips {
  proposed: { number: number };
  checkpointed: { block: { number: number }; checkpoint: { number: number } };
}
const tips = () => result<Tips>(node.publicUrl, 'node_getL2Tips');
/**
 * Block `n`'s timestamp; undefined when the node no longer holds it (a warp past the proof window makes the rollup
 * prune the unproven checkpoints, and the node unwinds them, between a read of the tips and this one).
 */
const timestampOf = async (n: number): Promise<number | undefined> => {
  const header = await result<{ globalVariables: { timestamp: string } } | null>(
    node.publicUrl,
    'node_getBlockHeader',
    [n],
  );
  return header ? Number(header.globalVariables.timestamp) : undefined;
};
const admin = (method: string, params: unknown[] = []) => call(node.adminUrl, method, params);

/** The first checkpointed (on L1) block whose timestamp is at least `seconds`. */
async function checkpointedAtOrAfter(seconds: number): Promise<{ number: number; timestamp: number }> {
  return until(
    `a block at ${seconds} or later checkpointed on L1`,
    async () => {
      const t = await tips();
      const n = t.checkpointed.block.number;
      if (n === 0) return undefined;
      const timestamp = await timestampOf(n);
      return timestamp !== undefined && timestamp >= seconds ? { number: n, timestamp } : undefined;
    },
    { timeoutMs: 90_000 },
  );
}

beforeAll(async () => {
  node = await spawnAnvilNode(dataDirectory, ['--disable-admin-api-key']);
  l1 = createPublicClient({ transport: http(anvilUrlOf(node)), cacheTime: 0 }) as PublicClient;
  await until(
    'a first checkpoint on L1',
    async () => ((await tips()).checkpointed.block.number > 0 ? true : undefined),
    {
      timeoutMs: 90_000,
    },
  );
}, scaled(180_000));

afterAll(async () => {
  await node?.stop();
  rmSync(dataDirectory, { recursive: true, force: true });
});

describe('time warps on the node and its anvil', () => {
  it(
    'nodeDev_increaseTime warps anvil and L2 together; the next blocks are at least that late and land on L1',
    async () => {
      const latest = (await tips()).proposed.number;
      const before = Number(await timestampOf(latest));
      const a = await admin('nodeDev_increaseTime', [3600]);
      expect(a.error).toBeUndefined();
      const target = a.result as number;
      expect(target).toBeGreaterThanOrEqual(before + 3600);
      // Anvil mined a block just before the target (its slot's start, the next block's timestamp), by the
      // checkpoints' publishing lead: 2 s, up to 3/4 of a 4 s slot on a busy machine. L1 time is there.
      expect(Number((await l1.getBlock({ blockTag: 'latest' })).timestamp)).toBeGreaterThanOrEqual(target - 3);
      const landed = await checkpointedAtOrAfter(target);
      expect(landed.timestamp).toBeGreaterThanOrEqual(before + 3600);
    },
    scaled(120_000),
  );

  it(
    'nodeDev_setNextBlockTimestamp warps both to a rollup slot start and refuses another, naming the next one',
    async () => {
      const { rollupAddress } = await result<{ rollupAddress: `0x${string}` }>(
        node.publicUrl,
        'node_getL1ContractAddresses',
      );
      const at = { address: rollupAddress, abi: RollupAbi } as const;
      const genesis = Number(await l1.readContract({ ...at, functionName: 'getGenesisTime' }));
      const slot = Number(await l1.readContract({ ...at, functionName: 'getSlotDuration' }));
      let wanted = Number((await l1.getBlock({ blockTag: 'latest' })).timestamp) + 1000;
      if ((wanted - genesis) % slot === 0) wanted++;
      const refused = await admin('nodeDev_setNextBlockTimestamp', [wanted]);
      expect(refused.error?.code).toBe(-32602);
      expect(refused.error?.message).toMatch(
        new RegExp(
          `^nodeDev_setNextBlockTimestamp: on an L1 a block carries the start of its rollup slot \\(every ${slot} s from ${genesis}\\)`,
        ),
      );
      const next = Number(/the next that is: (\d+)/.exec(refused.error?.message ?? '')?.[1]);
      expect(next).toBe(genesis + Math.ceil((wanted - genesis) / slot) * slot);
      const ok = await admin('nodeDev_setNextBlockTimestamp', [next]);
      expect(ok.error).toBeUndefined();
      const landed = await checkpointedAtOrAfter(next);
      // The first block after the warp is in that slot, or a later one when the node could not make it.
      let first = landed.number;
      while (first > 1 && ((await timestampOf(first - 1)) ?? 0) >= next) first--;
      const timestamp = Number(await timestampOf(first));
      expect(timestamp).toBeGreaterThanOrEqual(next);
      expect((timestamp - genesis) % slot).toBe(0);
      expect(timestamp - next).toBeLessThan(8 * slot);
    },
    scaled(120_000),
  );

  it('refuses what cannot work on an L1, with the reason', async () => {
    const back = await admin('nodeDev_increaseTime', [-10]);
    expect(back.error?.message).toMatch(/L1 time cannot go back/);
    const one = `0x${'0'.repeat(63)}1`;
    const storage = await admin('nodeDev_setPublicStorage', [one, one, one]);
    expect(storage.error?.message).toMatch(/rollup on L1 cannot see/);
    const mine = await admin('nodeDev_mineBlocks', [1]);
    expect(mine.error).toBeDefined();
  });
});

describe('snapshots of the node and its anvil', () => {
  it(
    'nodeDev_revert puts both back, and the node builds on and lands on L1 from there',
    async () => {
      const snap = await admin('nodeDev_snapshot');
      expect(snap.error).toBeUndefined();
      const at = await tips();
      const l1Block = await l1.getBlockNumber();
      await until(
        'two more checkpoints on L1',
        async () =>
          (await tips()).checkpointed.checkpoint.number >= at.checkpointed.checkpoint.number + 2 ? true : undefined,
        { timeoutMs: 90_000 },
      );
      const reverted = await admin('nodeDev_revert', [snap.result]);
      expect(reverted.error).toBeUndefined();
      expect(reverted.result).toBe(at.proposed.number);
      // Anvil's chain is back at the snapshot (then one block: the warp that realigns the clocks).
      expect(await l1.getBlockNumber()).toBeLessThanOrEqual(l1Block + 2n);
      const after = await tips();
      expect(after.checkpointed.checkpoint.number).toBeLessThanOrEqual(at.checkpointed.checkpoint.number + 1);
      // The chain goes on from the restored state, and its checkpoints land on the restored L1.
      await until(
        'a checkpoint past the snapshot on L1',
        async () =>
          (await tips()).checkpointed.checkpoint.number > at.checkpointed.checkpoint.number + 1 ? true : undefined,
        { timeoutMs: 90_000 },
      );
    },
    scaled(240_000),
  );
});
