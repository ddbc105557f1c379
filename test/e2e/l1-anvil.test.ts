/**
 * `l2node start --l1 anvil` over the real binary: anvil 1.7.1 from npm as the node's child process, Aztec
 * 4.1.2's L1 contracts deployed by the shipped forge script, checked with viem and the official ABIs of
 * `@aztec/l1-artifacts`. One deployment is shared by the cases (deploying takes seconds).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InboxAbi } from '@aztec/l1-artifacts/InboxAbi';
import { RegistryAbi } from '@aztec/l1-artifacts/RegistryAbi';
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { createPublicClient, erc20Abi, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { result } from '../helpers/mempool-e2e.js';
import { spawnAnvil } from '../helpers/spawn-anvil.js';
import {
  ANVIL_NODE_START_MS,
  anvilNodeArgs,
  anvilUrlOf,
  prunedOnRestart,
  spawnAnvilNode,
  untilProducing,
} from '../helpers/spawn-l1-node.js';
import { type LogLine, type RunningNode, runCli, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { scaled, until, untilTrue } from '../helpers/until.js';

type Addresses = Record<string, string>;
interface L1Status {
  chainId: number;
  rpcUrl: string;
  blockNumber?: number;
  rollupAddress: string;
  registryAddress: string;
  publisher: { address: string; balanceWei?: string; lowBalance?: boolean };
  reachable: boolean;
  lastError?: string;
  lastProposal: { kind: string } | null;
  lastProof: { kind: string } | null;
}

const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-l1-anvil-'));
let node: RunningNode;
let anvilUrl: string;
let l1: PublicClient;
let addresses: Addresses;

/** A port another process holds: the node's --l1-port, so anvil falls back to a free one. */
let taken: Server;
const takenPort = () => (taken.address() as AddressInfo).port;

// Empty blocks too: the chain runs on while the cases look at L1.
const l1NodeArgs = () => ['--metrics-port', '0', '--l1-port', String(takenPort())];
const startL1Node = () => spawnAnvilNode(dataDirectory, l1NodeArgs());

interface StatusProbe {
  readonly sent: number;
  readonly answered: number;
  readonly body: { sync: { state: string; pausedBy?: string[] } };
}

/** GET /status, one request after the other, until `end` settles: when each was sent and answered, and its body. */
async function probeStatus(url: string, end: Promise<unknown>): Promise<StatusProbe[]> {
  let ended = false;
  void end.then(
    () => (ended = true),
    () => (ended = true),
  );
  const probes: StatusProbe[] = [];
  while (!ended) {
    const sent = Date.now();
    const body = (await (await fetch(`${url}/status`)).json()) as StatusProbe['body'];
    probes.push({ sent, answered: Date.now(), body });
    await new Promise((r) => setTimeout(r, 20));
  }
  return probes;
}

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
  node = await startL1Node();
  await untilProducing(node);
  anvilUrl = anvilUrlOf(node);
  l1 = createPublicClient({ transport: http(anvilUrl), cacheTime: 0 }) as PublicClient;
  addresses = await result<Addresses>(node.publicUrl, 'node_getL1ContractAddresses');
}, scaled(150_000));

afterAll(async () => {
  await node?.stop();
  taken?.close();
  rmSync(dataDirectory, { recursive: true, force: true });
});

describe('l2node start --l1 anvil', () => {
  it('runs anvil on loopback and deploys the contracts the registry names; the node reports them', async () => {
    expect(new URL(anvilUrl).hostname).toBe('127.0.0.1');
    expect(await l1.getChainId()).toBe(31337);
    const registry = addresses.registryAddress as `0x${string}`;
    const rollup = await l1.readContract({ address: registry, abi: RegistryAbi, functionName: 'getCanonicalRollup' });
    expect(rollup.toLowerCase()).toBe(addresses.rollupAddress);
    const at = { address: rollup, abi: RollupAbi } as const;
    const [inbox, outbox, portal, feeAsset, version] = await Promise.all([
      l1.readContract({ ...at, functionName: 'getInbox' }),
      l1.readContract({ ...at, functionName: 'getOutbox' }),
      l1.readContract({ ...at, functionName: 'getFeeAssetPortal' }),
      l1.readContract({ ...at, functionName: 'getFeeAsset' }),
      l1.readContract({ ...at, functionName: 'getVersion' }),
    ]);
    expect(inbox.toLowerCase()).toBe(addresses.inboxAddress);
    expect(outbox.toLowerCase()).toBe(addresses.outboxAddress);
    expect(portal.toLowerCase()).toBe(addresses.feeJuicePortalAddress);
    expect(feeAsset.toLowerCase()).toBe(addresses.feeJuiceAddress);
    // The portal backs the FeeJuice of the genesis state: 10^22 for each test account and the two FPCs.
    const held = await l1.readContract({ address: feeAsset, abi: erc20Abi, functionName: 'balanceOf', args: [portal] });
    expect(held).toBe(5n * 10n ** 22n);
    // The rollup's version is the chain's: txs and L1-to-L2 messages carry it.
    expect(await result<number>(node.publicUrl, 'node_getVersion')).toBe(Number(version));
    expect(
      await l1.readContract({ address: inbox, abi: InboxAbi, functionName: 'VERSION' }).then((v) => Number(v)),
    ).toBe(Number(version));
    const info = await result<{ l1ContractAddresses: Addresses; rollupVersion: number }>(
      node.publicUrl,
      'node_getNodeInfo',
    );
    expect(info.l1ContractAddresses).toEqual(addresses);
    expect(info.rollupVersion).toBe(Number(version));
  });

  it('shows its L1 in the banner and `l2node status`: URL, chain id, contracts, funded accounts; --l1-port taken falls back', async () => {
    const fallback = node.logs().find((l) => String(l.msg).startsWith(`port ${takenPort()} is taken`));
    expect(fallback?.msg).toBe(`port ${takenPort()} is taken: anvil listens on a port the system picks instead`);
    expect(Number(new URL(anvilUrl).port)).not.toBe(takenPort());
    const banner = node.stdout();
    expect(banner).toMatch(new RegExp(`^L1\\s+anvil at ${anvilUrl} \\(chain id 31337\\)$`, 'm'));
    expect(banner).toMatch(new RegExp(`^Rollup\\s+${addresses.rollupAddress}$`, 'm'));
    expect(banner).toMatch(new RegExp(`^Inbox\\s+${addresses.inboxAddress}$`, 'm'));
    expect(banner).toMatch(new RegExp(`^Outbox\\s+${addresses.outboxAddress}$`, 'm'));
    // anvil's first test account, with its key: it holds ETH on this L1.
    const first = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
    const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
    expect(banner).toContain(`(0) ${first}  key ${key}`);
    expect(await l1.getBalance({ address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' })).toBeGreaterThan(0n);
    const human = await runCli(['status', '--full', '--node-url', node.publicUrl, '--admin-url', node.adminUrl]);
    expect(human.stdout).toMatch(new RegExp(`^l1 accounts\\s+\\(0\\) ${first} key ${key}`, 'm'));
    expect(human.stdout).toMatch(
      new RegExp(`^l1 contracts\\s+registry ${addresses.registryAddress}, inbox ${addresses.inboxAddress}`, 'm'),
    );
  });

  it("deploys with the node's slot and epoch durations, no committee, and its genesis archive", async () => {
    const at = { address: addresses.rollupAddress as `0x${string}`, abi: RollupAbi } as const;
    const [slot, epoch, committee, genesisArchive] = await Promise.all([
      l1.readContract({ ...at, functionName: 'getSlotDuration' }),
      l1.readContract({ ...at, functionName: 'getEpochDuration' }),
      l1.readContract({ ...at, functionName: 'getTargetCommitteeSize' }),
      l1.readContract({ ...at, functionName: 'archiveAt', args: [0n] }),
    ]);
    expect([Number(slot), Number(epoch), Number(committee)]).toEqual([4, 4, 0]);
    const block1 = await until('block 1', async () => {
      const h = await result<{ lastArchive: { root: string } } | null>(node.publicUrl, 'node_getBlockHeader', [1]);
      return h ?? undefined;
    });
    // Block 1's lastArchive is the archive after genesis: what the rollup holds as checkpoint 0's archive.
    expect(genesisArchive).toBe(block1.lastArchive.root);
  });

  it('anvil mines a block a second after the deployment, so L1 time follows the wall clock', async () => {
    const b0 = await l1.getBlockNumber();
    await until('a new L1 block', async () => ((await l1.getBlockNumber()) > b0 ? true : undefined), 10_000);
  });

  it(
    'GET /status, `l2node status --json` and /metrics show the L1: chain, advancing block, rollup, publisher balance',
    async () => {
      const l1Status = async () => ((await (await fetch(`${node.publicUrl}/status`)).json()) as { l1: L1Status }).l1;
      const first = await until('a first L1 reading', async () => {
        const s = await l1Status();
        return s.blockNumber !== undefined ? s : undefined;
      });
      expect(first).toMatchObject({
        chainId: 31337,
        rpcUrl: anvilUrl,
        rollupAddress: addresses.rollupAddress,
        registryAddress: addresses.registryAddress,
        // anvil's first account deploys (and will publish): it paid for the deployment out of its 10^4 ETH.
        publisher: { address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' },
        reachable: true,
      });
      // 10^4 ETH is far above one proposal's cost.
      expect(first.publisher.lowBalance).toBe(false);
      // The publisher's last txs: null until it sent one, then a proposal and a proof.
      expect(first.lastProposal === null || first.lastProposal.kind === 'propose').toBe(true);
      expect(first.lastProof === null || first.lastProof.kind === 'proof').toBe(true);
      expect(first.publisher.balanceWei).toMatch(/^[1-9][0-9]*$/);
      expect(BigInt(first.publisher.balanceWei as string)).toBeLessThan(10n ** 22n);
      // Both at the L1 block of the reading (a proposal since may have spent some).
      expect(BigInt(first.publisher.balanceWei as string)).toBe(
        await l1.getBalance({
          address: first.publisher.address as `0x${string}`,
          blockNumber: BigInt(first.blockNumber as number),
        }),
      );
      // anvil mines a block a second and the monitor polls every 3 s.
      await until(
        'the L1 block to advance',
        async () => (((await l1Status()).blockNumber ?? 0) > (first.blockNumber ?? 0) ? true : undefined),
        15_000,
      );

      const cli = await runCli(['status', '--json', '--node-url', node.publicUrl, '--admin-url', node.adminUrl]);
      expect(cli.code).toBe(0);
      const json = JSON.parse(cli.stdout) as { result: { l1: L1Status } };
      expect(json.result.l1).toMatchObject({ chainId: 31337, rollupAddress: addresses.rollupAddress, reachable: true });
      const human = await runCli(['status', '--node-url', node.publicUrl, '--admin-url', node.adminUrl]);
      expect(human.stdout).toMatch(/^l1\s+chain 31337 at http:\/\/127\.0\.0\.1:\d+, block \d+; rollup 0x.*ETH$/m);
      expect(human.stdout).toMatch(
        /^l1 txs\s+last proposal: (none yet|checkpoint \d+ .+), last proof: (none yet|epoch .+)$/m,
      );

      // The dashboard's snapshot carries the same L1 (its L1 panel draws it).
      const dashboard = await runCli(['dashboard', '--once', '--json', '--admin-url', node.adminUrl]);
      expect(dashboard.code).toBe(0);
      expect((JSON.parse(dashboard.stdout) as { result: { l1: L1Status } }).result.l1).toMatchObject({
        chainId: 31337,
        rollupAddress: addresses.rollupAddress,
        publisher: { address: first.publisher.address, lowBalance: false },
      });

      const metricsUrl = String(node.logs().find((l) => l.msg === 'metrics listening')?.metricsUrl);
      const text = await (await fetch(metricsUrl)).text();
      expect(text).toMatch(/^l2node_l1_up 1$/m);
      expect(Number(/^l2node_l1_block_number (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
      expect(Number(/^l2node_l1_publisher_balance_eth (\S+)$/m.exec(text)?.[1])).toBeGreaterThan(9000);
      // The publisher's tx series exist from the start, one per kind and outcome.
      expect(text).toMatch(/^l2node_l1_txs_total\{kind="propose",outcome="ok"\} \d+$/m);
      expect(text).toMatch(/^l2node_l1_txs_total\{kind="proof",outcome="failed"\} \d+$/m);
    },
    scaled(30_000),
  );

  it(
    'a publisher out of ETH is warned about once (log, GET /status, `l2node status`), and once when funded again',
    async () => {
      const publisher = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
      const setBalance = (wei: bigint) =>
        (l1 as unknown as { request(a: { method: string; params: unknown[] }): Promise<unknown> }).request({
          method: 'anvil_setBalance',
          params: [publisher, `0x${wei.toString(16)}`],
        });
      const funded = await l1.getBalance({ address: publisher });
      const isLow = (l: LogLine) => String(l.msg).startsWith(`L1 publisher ${publisher} holds`);
      await setBalance(10n ** 15n);
      try {
        const low = await node.waitForLog(isLow, 15_000);
        expect(low.level).toBe(40);
        // The node proposes meanwhile, so the balance it reads is 0.001 ETH less what its last txs cost.
        expect(low.msg).toMatch(/holds 0\.00\d* ETH, under the 0\.015 ETH one proposal may cost/);
        const status = (await (await fetch(`${node.publicUrl}/status`)).json()) as { l1: L1Status };
        expect(status.l1.publisher.lowBalance).toBe(true);
        expect(BigInt(status.l1.publisher.balanceWei ?? 'no balance read')).toBeLessThanOrEqual(10n ** 15n);
        const human = await runCli(['status', '--node-url', node.publicUrl, '--admin-url', node.adminUrl]);
        expect(human.stdout).toMatch(/^l1\s+.*publisher 0xf39fd6e5…b92266 LOW 0\.00\d* ETH$/m);
        expect(human.stderr).toMatch(
          new RegExp(`the L1 publisher ${publisher} holds 0\\.00\\d* ETH, less than one proposal may cost`),
        );
        // The next polls (every 3 s) do not warn again.
        await new Promise((r) => setTimeout(r, 4000));
        expect(node.logs().filter(isLow)).toHaveLength(1);
      } finally {
        await setBalance(funded);
      }
      const back = await node.waitForLog((l) => String(l.msg).startsWith(`L1 publisher ${publisher} is funded again`));
      expect(back.level).toBe(30);
    },
    scaled(40_000),
  );

  it(
    'a second node attaches with --l1-rpc-urls and --registry-address and reads every address from the registry',
    async () => {
      const other = await spawnNode({
        args: ['--l1-rpc-urls', anvilUrl, '--registry-address', addresses.registryAddress as string],
        readyTimeoutMs: 60_000,
      });
      try {
        const theirs = await result<Addresses>(other.publicUrl, 'node_getL1ContractAddresses');
        for (const key of Object.keys(theirs)) expect(theirs[key], key).toBe(addresses[key]);
        expect(Object.keys(theirs)).toEqual(expect.arrayContaining(Object.keys(addresses).slice(0, 11)));
        expect(await result<number>(other.publicUrl, 'node_getVersion')).toBe(
          await result<number>(node.publicUrl, 'node_getVersion'),
        );
        expect(other.logs().some((l) => l.msg === 'deploying L1')).toBe(false);
      } finally {
        await other.stop();
      }
    },
    scaled(90_000),
  );

  it(
    'an L1 whose chain id is not --l1-chain-id stops start-up naming both',
    async () => {
      const proc = spawnNodeProcess({ args: ['--l1-rpc-urls', anvilUrl, '--l1-chain-id', '5'] });
      const exit = await proc.exited;
      expect(exit.code).toBe(1);
      expect(proc.stdout()).toMatch(/has chain id 31337, but --l1-chain-id is 5/);
    },
    scaled(90_000),
  );

  it(
    'a restart resumes the same L1 and deployment: no second deployment, same addresses, anvil stopped with the node',
    async () => {
      // Blocks whose checkpoint is not on L1 yet may be pruned at the restart (their slot is over); the checkpointed
      // ones are kept.
      const before = await result<number>(node.publicUrl, 'node_getCheckpointedBlockNumber');
      const provenBefore = await result<number>(node.publicUrl, 'node_getProvenBlockNumber');
      await node.stop();
      // anvil stopped with the node: its port no longer answers.
      await expect(l1.getBlockNumber()).rejects.toThrow();
      // The node serves while its KZG set-up is built, on a thread of its own: GET /status answers between the
      // two log lines, saying that block production waits for it.
      const proc = spawnNodeProcess({ args: anvilNodeArgs(dataDirectory, l1NodeArgs()) });
      const listening = await proc.waitForLog((l) => l.msg === 'rpc listening', ANVIL_NODE_START_MS);
      const built = proc.waitForLog(
        (l) => String(l.msg).startsWith('KZG set-up for blob commitments built'),
        ANVIL_NODE_START_MS,
      );
      const probes = await probeStatus(String(listening.publicUrl), built);
      const building = proc
        .logs()
        .find((l) => l.msg === 'building the KZG set-up for blob commitments on its own thread');
      expect(building).toBeDefined();
      const end = (await built).time as number;
      const during = probes.filter((p) => p.sent > (building?.time as number) && p.answered < end);
      expect(during.length).toBeGreaterThan(0);
      expect(during[0]?.body.sync).toMatchObject({ state: 'paused', pausedBy: ['kzg'] });
      await proc.waitForLog((l) => l.msg === 'node running', ANVIL_NODE_START_MS);
      node = {
        ...proc,
        publicUrl: String(listening.publicUrl),
        adminUrl: String(listening.adminUrl),
        adminKey: undefined,
      };
      // Production resumes once it is built.
      await untilTrue('block production resumes after the KZG set-up', async () => {
        const status = (await (await fetch(`${node.publicUrl}/status`)).json()) as StatusProbe['body'];
        return status.sync.state !== 'paused';
      });
      expect(node.logs().some((l) => l.msg === 'deploying L1')).toBe(false);
      expect(node.logs().some((l) => l.msg === 'settling on the stored L1 deployment')).toBe(true);
      expect(await result<Addresses>(node.publicUrl, 'node_getL1ContractAddresses')).toEqual(addresses);
      // Everything checkpointed is kept, unless the restart outlasted the proof window and the rollup pruned the
      // unproven checkpoints (as 4.1.2's would): then everything proven is.
      const kept = prunedOnRestart(node) === undefined ? before : provenBefore;
      expect(await result<number>(node.publicUrl, 'node_getCheckpointedBlockNumber')).toBeGreaterThanOrEqual(kept);
      const restarted = createPublicClient({ transport: http(anvilUrlOf(node)), cacheTime: 0 });
      const code = await restarted.getCode({ address: addresses.rollupAddress as `0x${string}` });
      expect(code && code.length > 2).toBe(true);
    },
    scaled(150_000),
  );
});

describe('an L1 that goes down', () => {
  it(
    'is logged once, shown in GET /status and `l2node status`, retried, and logged once when it is back; the node keeps serving',
    async () => {
      let anvil = await spawnAnvil();
      const other = await spawnNode({ args: ['--l1-rpc-urls', anvil.url], readyTimeoutMs: 90_000 });
      const isDown = (l: LogLine) => String(l.msg).startsWith('L1 unreachable');
      try {
        anvil.process.kill('SIGKILL');
        const down = await other.waitForLog(isDown, 20_000);
        expect(down.level).toBe(40);
        const status = (await (await fetch(`${other.publicUrl}/status`)).json()) as { status: string; l1: L1Status };
        expect(status.status).toBe('ok');
        expect(status.l1).toMatchObject({ reachable: false, lastError: expect.any(String) });
        expect(await result<number>(other.publicUrl, 'node_getBlockNumber')).toBeGreaterThanOrEqual(0);
        const human = await runCli(['status', '--node-url', other.publicUrl, '--admin-url', other.adminUrl]);
        expect(human.stdout).toMatch(/^l1\s+chain 31337 at .* UNREACHABLE: /m);
        // Polls go on (every 3 s) without a warning each.
        await new Promise((r) => setTimeout(r, 4000));
        expect(other.logs().filter(isDown)).toHaveLength(1);
        // An L1 answering on the same URL again: one info line, and /status reads it.
        anvil = await spawnAnvil([], Number(new URL(anvil.url).port));
        const back = await other.waitForLog((l) => l.msg === 'L1 is reachable again', 20_000);
        expect(back.level).toBe(30);
        const after = (await (await fetch(`${other.publicUrl}/status`)).json()) as { l1: L1Status };
        expect(after.l1.reachable).toBe(true);
        expect(after.l1.lastError).toBeUndefined();
      } finally {
        anvil.process.kill('SIGKILL');
        await other.stop();
      }
    },
    scaled(120_000),
  );
});

describe('L1 settings', () => {
  it.each([
    [['--registry-address', '0x0000000000000000000000000000000000000001'], /--registry-address needs an L1/],
    [['--l1', 'anvil', '--l1-rpc-urls', 'http://127.0.0.1:1'], /either it or --l1-rpc-urls/],
    [['--l1', 'ganache'], /--l1: expected one of anvil, got "ganache"/],
  ])('%j stops start-up with a usage error', async (args, message) => {
    const proc = spawnNodeProcess({ args });
    const exit = await proc.exited;
    expect(exit.code).toBe(2);
    expect(proc.stderr()).toMatch(message);
  });
});
