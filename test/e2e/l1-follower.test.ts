/**
 * A follower on a real L1 (issue 21, step 7) over the real binary: the test runs its own anvil; a dev node
 * attaches to it with `--l1-rpc-urls` (and deploys Aztec 4.1.2's contracts there); a follower syncs from the
 * dev node with `--l1-rpc-urls` and the dev node's `--registry-address`. It reports the registry's addresses
 * and syncs the dev node's blocks, but records a checkpoint only once the rollup holds it (the dev node proposes
 * them there), with the rollup's archive, and its proven tip is the rollup's (checked with viem and the official
 * ABIs of `@aztec/l1-artifacts`).
 */
import { RegistryAbi } from '@aztec/l1-artifacts/RegistryAbi';
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readL1Deployment } from '../../src/daemon/l1/l1-deployment.js';
import { rollupCheckpointReader } from '../../src/daemon/sync/l1-checkpoint-check.js';
import { result } from '../helpers/mempool-e2e.js';
import { spawnAnvil, type TestAnvil } from '../helpers/spawn-anvil.js';
import { type RunningNode, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

type Addresses = Record<string, string>;
interface Tips {
  proposed: { number: number };
  checkpointed: { block: { number: number }; checkpoint: { number: number } };
  proven: { checkpoint: { number: number } };
  finalized: { checkpoint: { number: number } };
}

let anvil: TestAnvil;
let l1: PublicClient;
let dev: RunningNode;
let follower: RunningNode;
let addresses: Addresses;

const tips = (url: string) => result<Tips>(url, 'node_getL2Tips');

beforeAll(async () => {
  anvil = await spawnAnvil();
  l1 = createPublicClient({ transport: http(anvil.url), cacheTime: 0 }) as PublicClient;
  dev = await spawnNode({
    // Empty blocks too: the dev node builds a checkpoint every slot.
    args: ['--l1-rpc-urls', anvil.url, '--sequencer-mode', 'interval', '--min-txs-per-block', '0'],
    readyTimeoutMs: 150_000,
  });
  addresses = await result<Addresses>(dev.publicUrl, 'node_getL1ContractAddresses');
  follower = await spawnNode({
    args: [
      '--sync-from',
      dev.publicUrl,
      '--l1-rpc-urls',
      anvil.url,
      '--registry-address',
      addresses.registryAddress as string,
      '--archiver-polling-interval-ms',
      '200',
    ],
    readyTimeoutMs: 60_000,
  });
}, 240_000);

afterAll(async () => {
  await follower?.stop();
  await dev?.stop();
  anvil?.process.kill('SIGKILL');
});

describe('a follower with --l1-rpc-urls and --registry-address', () => {
  it('reports the addresses the registry names, as node_getL1ContractAddresses and node_getNodeInfo', async () => {
    const theirs = await result<Addresses>(follower.publicUrl, 'node_getL1ContractAddresses');
    const registry = addresses.registryAddress as `0x${string}`;
    const rollup = await l1.readContract({ address: registry, abi: RegistryAbi, functionName: 'getCanonicalRollup' });
    const inbox = await l1.readContract({ address: rollup, abi: RollupAbi, functionName: 'getInbox' });
    expect(theirs.registryAddress).toBe(registry);
    expect(theirs.rollupAddress).toBe(rollup.toLowerCase());
    expect(theirs.inboxAddress).toBe(inbox.toLowerCase());
    for (const key of Object.keys(theirs)) expect(theirs[key], key).toBe(addresses[key]);
    const info = await result<{ l1ContractAddresses: Addresses }>(follower.publicUrl, 'node_getNodeInfo');
    expect(info.l1ContractAddresses).toEqual(theirs);
    // The follower attached to the registry's deployment: it deployed nothing.
    expect(follower.logs().some((l) => l.msg === 'deploying L1')).toBe(false);
  });

  it("records a checkpoint once the rollup holds it, with the rollup's archive, and follows its proven tip", async () => {
    const rollup = { address: addresses.rollupAddress as `0x${string}`, abi: RollupAbi } as const;
    const l1Pending = async () =>
      Number(await l1.readContract({ ...rollup, functionName: 'getPendingCheckpointNumber' }));
    // The dev node proposes its checkpoints to the rollup; the follower takes them from it once L1 has them.
    await until('a checkpoint on the rollup', async () => ((await l1Pending()) >= 1 ? true : undefined), 60_000);
    const t = await until('a checkpoint on the follower', async () => {
      const f = await tips(follower.publicUrl);
      return f.checkpointed.checkpoint.number >= 1 ? f : undefined;
    });
    // The follower never counts a checkpoint the rollup does not hold.
    const n = t.checkpointed.checkpoint.number;
    expect(await l1Pending()).toBeGreaterThanOrEqual(n);
    const [published] = await result<{ checkpoint: { archive: { root: string }; blocks: unknown[] } }[]>(
      follower.publicUrl,
      'node_getCheckpoints',
      [n, 1],
    );
    const archive = await l1.readContract({ ...rollup, functionName: 'archiveAt', args: [BigInt(n)] });
    expect(published?.checkpoint.archive.root).toBe(archive.toLowerCase());
    // Its blocks are the dev node's.
    const header = await result<{ lastArchive: unknown }>(follower.publicUrl, 'node_getBlockHeader', [
      t.checkpointed.block.number,
    ]);
    expect(header).toEqual(await result<unknown>(dev.publicUrl, 'node_getBlockHeader', [t.checkpointed.block.number]));
    // The proven tip is the rollup's: equal at some reading once the first epoch is proven.
    await until(
      "the follower's proven tip to equal the rollup's",
      async () => {
        const mine = (await tips(follower.publicUrl)).proven.checkpoint.number;
        const onL1 = Number(await l1.readContract({ ...rollup, functionName: 'getProvenCheckpointNumber' }));
        return mine === onL1 && mine >= 1 ? true : undefined;
      },
      60_000,
    );
    // A checkpoint the upstream had before the rollup did is said once at info, not at every poll.
    const waits = follower.logs().filter((l) => /^checkpoint \d+ of .* is not on L1 yet/.test(l.msg ?? ''));
    expect(waits.every((l) => l.level === 30)).toBe(true);
    const said = waits.map((l) => l.msg?.split(' of ')[0]);
    expect(new Set(said).size).toBe(said.length);

    const status = (await (await fetch(`${follower.publicUrl}/status`)).json()) as {
      sync: { state: string; problem?: unknown };
      l1: { rollupAddress: string; registryAddress: string };
      tips: { checkpointed: number };
    };
    expect(status.sync.problem).toBeUndefined();
    expect(['synced', 'syncing']).toContain(status.sync.state);
    expect(status.tips.checkpointed).toBeGreaterThanOrEqual(n);
    expect(status.l1).toMatchObject({ rollupAddress: rollup.address, registryAddress: addresses.registryAddress });
  }, 150_000);

  it("the follower's rollup reader on the real rollup: tips, checkpoint archives, a checkpoint not on L1", async () => {
    const deployment = await readL1Deployment(l1, 31337, addresses as never, false);
    const reader = rollupCheckpointReader(l1, deployment);
    const rollup = { address: addresses.rollupAddress as `0x${string}`, abi: RollupAbi } as const;
    const before = Number(await l1.readContract({ ...rollup, functionName: 'getPendingCheckpointNumber' }));
    const tipsRead = await reader.tips();
    const after = Number(await l1.readContract({ ...rollup, functionName: 'getPendingCheckpointNumber' }));
    expect(tipsRead.pending).toBeGreaterThanOrEqual(Math.max(before, 1));
    expect(tipsRead.pending).toBeLessThanOrEqual(after);
    expect(tipsRead.proven).toBeLessThanOrEqual(tipsRead.pending);
    // Checkpoint 0's archive is the genesis archive: block 1's last archive.
    const block1 = await result<{ lastArchive: { root: string } }>(dev.publicUrl, 'node_getBlockHeader', [1]);
    expect((await reader.checkpoint(0)).archive).toBe(BigInt(block1.lastArchive.root));
    // A checkpoint the rollup holds: its archive and header hash.
    const held = await reader.checkpoint(1);
    expect(held.archive).toBe(
      BigInt(await l1.readContract({ ...rollup, functionName: 'archiveAt', args: [1n], blockNumber: undefined })),
    );
    expect(held.headerHash).toBeDefined();
    // Past the pending checkpoint the rollup keeps no log (it reverts): read as "not on L1".
    const far = await reader.checkpoint(after + 1000);
    expect(far).toMatchObject({ archive: 0n, headerHash: undefined });
    expect(far.pending).toBeGreaterThanOrEqual(after);
  });

  it('--l1 anvil, or --l1-rpc-urls without --registry-address, on a follower is a usage error', async () => {
    const anvilRun = spawnNodeProcess({ args: ['--sync-from', dev.publicUrl, '--l1', 'anvil'] });
    expect((await anvilRun.exited).code).toBe(2);
    expect(anvilRun.stderr()).toMatch(/a follower \(--sync-from\) never deploys, so it cannot run its own anvil/);
    const noRegistry = spawnNodeProcess({ args: ['--sync-from', dev.publicUrl, '--l1-rpc-urls', anvil.url] });
    expect((await noRegistry.exited).code).toBe(2);
    expect(noRegistry.stderr()).toMatch(/a follower \(--sync-from\) with --l1-rpc-urls needs --registry-address/);
  });
});
