/**
 * Settlement on a real L1 over the real binary (issue 21): `l2node start --l1 anvil` proposes its checkpoints to
 * Aztec 4.1.2's rollup and proves its epochs there; a tx is `checkpointed` only once the rollup holds its
 * checkpoint; a follower attached to the deployment takes the checkpoints from L1; an anvil reorg that drops
 * proposals is followed and repaired; a checkpoint that missed its slot is dropped; a restart keeps the tips and
 * roots.
 * L1 is read with viem and the official ABIs of `@aztec/l1-artifacts`. One node (and its anvil) is shared by the
 * cases, which run in order: the chain it builds is what they look at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RegistryAbi } from '@aztec/l1-artifacts/RegistryAbi';
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { createPublicClient, type Hex, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { initAztecOracle } from '../helpers/aztec-oracle.js';
import { devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { prunedOnRestart, untilProducing } from '../helpers/spawn-l1-node.js';
import { type LogLine, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';

interface Tips {
  proposed: { number: number };
  checkpointed: { block: { number: number }; checkpoint: { number: number } };
  proven: { checkpoint: { number: number } };
}
interface PublishedCheckpoint {
  checkpoint: { number: number; archive: { root: string }; blocks: { archive: { root: string } }[] };
}
interface Receipt {
  status: string;
  blockNumber?: number;
}

const PAYER = new AztecAddress(0x5eedn);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-l1-settlement-'));
let node: RunningNode;
let l1: PublicClient;
let anvilUrl: string;
let rollup: Hex;
let registry: Hex;

const startNode = async () => {
  const started = await spawnNode({
    args: [
      ...['--l1', 'anvil', '--data-directory', dataDirectory],
      // A checkpoint every slot, empty or not: the rollup's tips move while the cases look.
      ...['--sequencer-mode', 'interval', '--min-txs-per-block', '0'],
      ...['--prefunded-accounts', prefundedFlag(FUNDED)],
      // Epochs of 4 slots of 4 s (the defaults), proven 1 s after they end.
      ...['--proof-delay', '1'],
    ],
    readyTimeoutMs: 150_000,
  });
  await untilProducing(started);
  return started;
};

/** The node's anvil, as GET /status reports it. */
async function anvilOf(n: RunningNode): Promise<PublicClient> {
  const status = (await (await fetch(`${n.publicUrl}/status`)).json()) as { l1: { rpcUrl: string } };
  anvilUrl = status.l1.rpcUrl;
  return createPublicClient({ transport: http(anvilUrl), cacheTime: 0 }) as PublicClient;
}

const tips = (n = node) => result<Tips>(n.publicUrl, 'node_getL2Tips');

function readRollup<T>(functionName: string, args: readonly unknown[] = [], blockNumber?: bigint): Promise<T> {
  return l1.readContract({
    address: rollup,
    abi: RollupAbi,
    functionName: functionName as never,
    args: args as never,
    blockNumber,
  }) as Promise<T>;
}
const l1Pending = (blockNumber?: bigint) =>
  readRollup<bigint>('getPendingCheckpointNumber', [], blockNumber).then(Number);
const l1Proven = () => readRollup<bigint>('getProvenCheckpointNumber').then(Number);
const archiveAt = (n: number, blockNumber?: bigint) =>
  readRollup<Hex>('archiveAt', [BigInt(n)], blockNumber).then((a) => a.toLowerCase());

/** One of anvil's own methods (evm_snapshot, anvil_mine...). */
const anvil = (method: string, params: unknown[] = []) =>
  (l1 as unknown as { request(a: { method: string; params: unknown[] }): Promise<unknown> }).request({
    method,
    params,
  });

/** Checkpoint `n` as the node serves it. */
async function nodeCheckpoint(n: number, on = node): Promise<PublishedCheckpoint['checkpoint'] | undefined> {
  const [c] = await result<PublishedCheckpoint[]>(on.publicUrl, 'node_getCheckpoints', [n, 1]);
  return c?.checkpoint;
}

/**
 * Every checkpoint the rollup holds (read at one L1 block) is the node's: its archive, and its last block's
 * archive, equal `archiveAt(n)`. Waits for the node to record the newest (its proposal may be mined but not yet
 * seen by the node). When the rollup's chain changed meanwhile (it pruned an epoch not proven in time: a loaded
 * machine), the comparison is made again at a later L1 block. Returns the rollup's pending checkpoint.
 */
async function expectRootsEqualL1(on = node): Promise<number> {
  for (;;) {
    const at = await l1.getBlockNumber();
    const pending = await l1Pending(at);
    await until(`the node to hold checkpoint ${pending} (or the rollup to drop it)`, async () =>
      (await tips(on)).checkpointed.checkpoint.number >= pending || (await l1Pending()) < pending ? true : undefined,
    );
    const pairs: { n: number; node: unknown; lastBlock: unknown; onL1: string }[] = [];
    for (let n = 1; n <= pending; n++) {
      const c = await nodeCheckpoint(n, on);
      pairs.push({ n, node: c?.archive.root, lastBlock: c?.blocks.at(-1)?.archive.root, onL1: await archiveAt(n, at) });
    }
    const equal = pairs.every((p) => p.node === p.onL1 && p.lastBlock === p.onL1);
    // Only a rollup that moved off the chain read at `at` (checkpoint `pending` pruned, or pruned and proposed
    // again) makes a difference a race rather than a failure.
    if (!equal && pending > 0 && (await archiveAt(pending)) !== pairs.at(-1)?.onL1) continue;
    for (const p of pairs) {
      expect(p.node, `checkpoint ${p.n}`).toBe(p.onL1);
      expect(p.lastBlock, `checkpoint ${p.n}'s last block`).toBe(p.onL1);
    }
    return pending;
  }
}

/** Waits until the rollup's pending checkpoint reaches `n` and the node has recorded it; names the node's last logs if not. */
async function untilCheckpointed(n: number, timeoutMs = 40_000): Promise<void> {
  try {
    await until(
      `checkpoint ${n} on L1 and on the node`,
      async () => ((await l1Pending()) >= n && (await tips()).checkpointed.checkpoint.number >= n ? true : undefined),
      { timeoutMs, intervalMs: 250 },
    );
  } catch (err) {
    const recent = node
      .logs()
      .filter((l) => l.module !== 'rpc')
      .slice(-25)
      .map((l) => `${new Date(l.time as number).toISOString()} ${l.level} ${l.msg}`);
    throw new Error(`${(err as Error).message}\nthe node's last log lines:\n${recent.join('\n')}`);
  }
}

beforeAll(async () => {
  await initAztecOracle();
  node = await startNode();
  l1 = await anvilOf(node);
  const addresses = await result<Record<string, Hex>>(node.publicUrl, 'node_getL1ContractAddresses');
  rollup = addresses.rollupAddress as Hex;
  registry = addresses.registryAddress as Hex;
}, scaled(180_000));

afterAll(async () => {
  await node?.stop();
  rmSync(dataDirectory, { recursive: true, force: true });
});

describe('l2node start --l1 anvil settles on the rollup', () => {
  it('the registry names the rollup the node reports', async () => {
    const canonical = await l1.readContract({
      address: registry,
      abi: RegistryAbi,
      functionName: 'getCanonicalRollup',
    });
    expect(canonical.toLowerCase()).toBe(rollup);
  });

  it(
    'a tx is mined, and checkpointed only once the rollup holds its checkpoint with the same archive',
    async () => {
      const version = await result<number>(node.publicUrl, 'node_getVersion');
      const builder = devTxBuilder(genesisHeader(FUNDED), BigInt(version));
      // The first proposals after start-up may miss their slot (the node warms up); the tx goes in once one landed.
      await untilCheckpointed(1);
      const minFee = BigInt(
        (await result<{ feePerL2Gas: string }>(node.publicUrl, 'node_getCurrentMinFees')).feePerL2Gas,
      );
      const tx = builder.build({
        feePayer: PAYER,
        maxFeesPerGas: new GasFees(0n, 10n * minFee),
        txRequestHash: new Fr(0x5e771en),
      });
      await result(node.publicUrl, 'node_sendTx', [tx.toJSON()]);
      const hash = tx.txHash.toString();
      const seen: string[] = [];
      let checkpoint = 0;
      await until(
        'the tx to be checkpointed',
        async () => {
          const r = await result<Receipt>(node.publicUrl, 'node_getTxReceipt', [hash]);
          if (r.status !== seen.at(-1)) seen.push(r.status);
          if (r.status !== 'checkpointed') return undefined;
          // Right when the node says checkpointed, the rollup holds the checkpoint, with the node's archive.
          const pending = await l1Pending();
          const [cb] = await result<{ checkpointNumber: number }[]>(node.publicUrl, 'node_getCheckpointedBlocks', [
            r.blockNumber,
            1,
          ]);
          checkpoint = cb?.checkpointNumber ?? 0;
          expect(checkpoint).toBeGreaterThan(0);
          expect(pending).toBeGreaterThanOrEqual(checkpoint);
          const c = await nodeCheckpoint(checkpoint);
          expect(c?.archive.root).toBe(await archiveAt(checkpoint));
          expect(c?.blocks.at(-1)?.archive.root).toBe(await archiveAt(checkpoint));
          return true;
        },
        { timeoutMs: 40_000, intervalMs: 50 },
      );
      // Mined (proposed: in a block the node built) before checkpointed, and checkpointed once, when L1 held it.
      expect(seen.slice(-2)).toEqual(['proposed', 'checkpointed']);
      expect(seen.filter((s) => s === 'checkpointed')).toHaveLength(1);

      // The epoch is proven on L1 (--proof-delay 1 after it ends), and the node's proven tip is the rollup's.
      await until(
        'the rollup to prove the tx checkpoint',
        async () => ((await l1Proven()) >= checkpoint ? true : undefined),
        { timeoutMs: 45_000, intervalMs: 250 },
      );
      await until(
        "the node's proven tip to equal the rollup's",
        async () => {
          const mine = (await tips()).proven.checkpoint.number;
          return mine === (await l1Proven()) && mine >= checkpoint ? true : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 100 },
      );
      const r = await result<Receipt>(node.publicUrl, 'node_getTxReceipt', [hash]);
      expect(['proven', 'finalized']).toContain(r.status);
      await expectRootsEqualL1();
    },
    scaled(100_000),
  );

  it("node_getCurrentMinFees is the rollup's getManaMinFeeAt for the current slot", async () => {
    // Both move at slot boundaries and when a checkpoint lands: equal at some reading within a few tries.
    const readings: [bigint, bigint][] = [];
    for (let i = 0; i < 10; i++) {
      const slot = await readRollup<bigint>('getCurrentSlot');
      const ts = await readRollup<bigint>('getTimestampForSlot', [slot]);
      const onL1 = await readRollup<bigint>('getManaMinFeeAt', [ts, true]);
      const fees = await result<{ feePerL2Gas: string }>(node.publicUrl, 'node_getCurrentMinFees');
      readings.push([BigInt(fees.feePerL2Gas), onL1]);
      if (BigInt(fees.feePerL2Gas) === onL1) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    const last = readings.at(-1) as [bigint, bigint];
    expect(last[0], `readings (node, rollup): ${readings.join(' ')}`).toBe(last[1]);
    expect(last[0]).toBeGreaterThan(0n);
  });
});

describe('a second node attached to the same deployment', () => {
  it(
    'follows it (--sync-from, --l1-rpc-urls, --registry-address): its checkpointed tip advances with the rollup',
    async () => {
      const follower = await spawnNode({
        args: [
          ...['--sync-from', node.publicUrl, '--l1-rpc-urls', anvilUrl, '--registry-address', registry],
          ...['--prefunded-accounts', prefundedFlag(FUNDED), '--archiver-polling-interval-ms', '200'],
        ],
        readyTimeoutMs: 60_000,
      });
      try {
        expect(follower.logs().some((l) => l.msg === 'deploying L1')).toBe(false);
        const first = await expectRootsEqualL1(follower);
        expect(first).toBeGreaterThanOrEqual(1);
        // The next checkpoint the first node proposes reaches the follower too, through L1.
        await untilCheckpointed(first + 1);
        const next = await expectRootsEqualL1(follower);
        expect(next).toBeGreaterThan(first);
      } finally {
        await follower.stop();
      }
    },
    scaled(90_000),
  );
});

describe('an anvil reorg that drops proposals', () => {
  it(
    'is unwound to what L1 holds, re-proposed, and the roots equal the rollup again',
    async () => {
      // Snapshot the L1 right after a checkpoint lands, let two more land, then drop them.
      const base = await l1Pending();
      await untilCheckpointed(base + 1);
      const snapshot = await anvil('evm_snapshot');
      const kept = await l1Pending();
      await untilCheckpointed(kept + 2);
      const dropped = (await tips()).checkpointed.checkpoint.number;
      const droppedArchive = (await nodeCheckpoint(kept + 1))?.archive.root;
      const isUnwind = (l: LogLine) =>
        String(l.msg).startsWith('L1 holds the chain only up to checkpoint') && l.keptCheckpoint === kept;
      expect(await anvil('evm_revert', [snapshot])).toBe(true);
      // evm_revert takes anvil's clock back to the snapshot's block; an L1 reorg does not turn time back (and a
      // checkpoint only lands in its own slot), so the clock is set to now again.
      await anvil('anvil_setTime', [Math.floor(Date.now() / 1000)]);
      expect(await l1Pending()).toBe(kept);

      const unwind = await node.waitForLog(isUnwind, 10_000);
      expect(unwind.level).toBe(40);
      expect(unwind).toMatchObject({ keptCheckpoint: kept, l1Pending: kept });
      expect(unwind.localCheckpoint as number).toBeGreaterThanOrEqual(kept + 1);
      expect(unwind.localCheckpoint as number).toBeLessThanOrEqual(dropped + 1);
      expect(unwind.msg).toMatch(
        new RegExp(
          `^L1 holds the chain only up to checkpoint ${kept}: checkpoints ${kept + 1} to \\d+ and their \\d+ block\\(s\\) are unwound; their txs return to the pool$`,
        ),
      );
      // The node never counts a checkpoint as checkpointed that the rollup does not hold.
      const t = await tips();
      expect(t.checkpointed.checkpoint.number).toBeLessThanOrEqual(await l1Pending());

      // It proposes again on the rollup's chain: new checkpoints kept+1, kept+2 (other slots, so other archives).
      await untilCheckpointed(kept + 2);
      expect((await nodeCheckpoint(kept + 1))?.archive.root).not.toBe(droppedArchive);
      await expectRootsEqualL1();
    },
    scaled(120_000),
  );
});

describe('a node held up past its slot', () => {
  it(
    'drops the checkpoint that missed its slot and proposes on, with no error logged',
    async () => {
      // Stopped (SIGSTOP) right after it built the first block of a checkpoint, until its slot is over: the
      // checkpoint goes out too late. On a busy machine the proposal may already be out when the stop comes (a
      // block built late in its slot goes at once): then it lands, and the next checkpoint is tried.
      const isBuilt = (l: LogLine) => String(l.msg).startsWith('built block');
      let built: LogLine | undefined;
      for (let attempt = 1; built === undefined; attempt++) {
        // Only lines logged from now: earlier cases unwound the chain, so block and checkpoint numbers came back.
        const from = node.logs().length;
        const fresh = (l: LogLine) => node.logs().indexOf(l) >= from;
        const candidate = await node.waitForLog((l) => {
          if (!isBuilt(l) || !fresh(l)) return false;
          const logs = node.logs();
          const before = logs
            .slice(0, logs.indexOf(l))
            .findLast((p) => isBuilt(p) && p.blockNumber === (l.blockNumber as number) - 1);
          return before !== undefined && (before.checkpoint as number) < (l.checkpoint as number);
        }, scaled(20_000));
        node.signal('SIGSTOP');
        await new Promise((r) => setTimeout(r, 4_500));
        node.signal('SIGCONT');
        const { checkpoint, slot } = candidate;
        const outcome = await node.waitForLog(
          (l) =>
            fresh(l) &&
            (String(l.msg).startsWith(`checkpoint ${checkpoint} (slot ${slot}) is not published`) ||
              (String(l.msg).startsWith(`published checkpoint ${checkpoint} `) && l.slot === slot)),
          scaled(30_000),
        );
        if (String(outcome.msg).startsWith('published')) {
          if (attempt === 3) throw new Error('three proposals were out before the node was stopped');
          continue;
        }
        expect(outcome.level).toBe(40);
        built = candidate;
      }
      await untilCheckpointed((built.checkpoint as number) + 1);
      // Nothing failed on the way (no step of the sequencer, no L1 read).
      expect(
        node
          .logs()
          .filter((l) => (l.level ?? 0) >= 50)
          .map((l) => l.msg),
      ).toEqual([]);
      await expectRootsEqualL1();
    },
    scaled(150_000),
  );
});

describe('a restart on the same data directory', () => {
  it(
    'keeps the checkpointed and proven tips and the roots, and goes on proposing',
    async () => {
      // 64 more L1 blocks (at the same time): L1's finalized block, 64 blocks back, is now past the deployment; the
      // reloaded anvil keeps no state for it.
      await anvil('anvil_mine', ['0x40', '0x0']);
      await untilCheckpointed((await l1Pending()) + 1);
      const before = await tips();
      await node.stop();
      node = await startNode();
      expect(node.logs().some((l) => l.msg === 'deploying L1')).toBe(false);
      l1 = await anvilOf(node);
      const after = await tips();
      // Everything checkpointed is kept, unless the restart outlasted the proof window and the rollup pruned the
      // unproven checkpoints (as 4.1.2's would): then everything proven is.
      const pruned = prunedOnRestart(node);
      if (pruned === undefined) {
        expect(after.checkpointed.checkpoint.number).toBeGreaterThanOrEqual(before.checkpointed.checkpoint.number);
        expect(after.checkpointed.block.number).toBeGreaterThanOrEqual(before.checkpointed.block.number);
      } else {
        expect(pruned).toBeGreaterThanOrEqual(before.proven.checkpoint.number);
        expect(after.checkpointed.checkpoint.number).toBeGreaterThanOrEqual(before.proven.checkpoint.number);
      }
      expect(after.proven.checkpoint.number).toBeGreaterThanOrEqual(before.proven.checkpoint.number);
      // The checkpointed tip's archive is the rollup's (anvil's state came back from <data-directory>/l1/).
      const c = after.checkpointed.checkpoint.number;
      expect((await nodeCheckpoint(c))?.archive.root).toBe(await archiveAt(c));
      expect(await l1Pending()).toBeGreaterThanOrEqual(c);
      // It builds and proposes on: two more checkpoints on the rollup, the roots equal.
      await untilCheckpointed(c + 2, 60_000);
      await expectRootsEqualL1();
    },
    scaled(240_000),
  );
});
