import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { PrivateLog } from '../../src/core/logs/private-log.js';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { QUICK_EPOCH_FLAGS, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';

/**
 * Block history pruning (issue 32 item 13) end to end: a dev node builds a block every second; a follower of it
 * keeps the bodies of its latest 4 blocks (--block-body-history-blocks 4). Once the block of a tx is pruned
 * there, every query of its body answers BLOCK_NOT_AVAILABLE naming the oldest available block, while its
 * header, the archive and the recent blocks are still served; `l2node db stats` says what is kept. A follower of
 * the pruned node from genesis is refused with a clear reason; one started from a snapshot of it follows it.
 */
const PAYER = new AztecAddress(0x7001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const COMMON = ['--prefunded-accounts', prefundedFlag(FUNDED), '--disable-admin-api-key'];
const FOLLOWER = [...COMMON, '--archiver-polling-interval-ms', '100'];
const KEEP = 4;
const TAG = new Fr(0x7a6e1n);

let root: string;
let dev: RunningNode;
let pruned: RunningNode;
let txHash: string;
let txBlock: number;

interface RpcErr {
  code: number;
  message: string;
  data?: { code?: string; oldestAvailableBlock?: number };
}

async function rpcError(url: string, method: string, params: unknown[]): Promise<RpcErr> {
  const a = await call(url, method, params);
  if (!a.error) throw new Error(`${method}(${JSON.stringify(params)}) answered ${JSON.stringify(a.result)}`);
  return a.error as RpcErr;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'l2node-pruning-'));
  dev = await spawnNode({
    args: [
      ...COMMON,
      ...['--sequencer-mode', 'interval', '--slot-duration', '1', '--blocks-per-slot', '1'],
      ...['--min-txs-per-block', '0', ...QUICK_EPOCH_FLAGS],
    ],
  });
  const fees = await result<{ feePerL2Gas: string }>(dev.publicUrl, 'node_getCurrentMinFees');
  const tx = devTxBuilder(genesisHeader(FUNDED)).build({
    feePayer: PAYER,
    txRequestHash: new Fr(0x7002n),
    maxFeesPerGas: new GasFees(0n, 2n * BigInt(fees.feePerL2Gas)),
    privateLogs: [PrivateLog.fromEmitted([TAG, new Fr(5n)])],
  });
  txHash = tx.txHash.toString();
  expect((await call(dev.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
  txBlock = await until('the tx mined', async () => {
    const r = await result<{ status: string; blockNumber?: number }>(dev.publicUrl, 'node_getTxReceipt', [txHash]);
    return r.blockNumber;
  });
  pruned = await spawnNode({
    args: [
      ...FOLLOWER,
      ...['--sync-from', dev.publicUrl, '--data-directory', join(root, 'pruned')],
      ...['--block-body-history-blocks', String(KEEP)],
    ],
  });
  // The tx's block leaves the follower's window once 4 newer blocks arrived and it is finalized.
  await until(
    "the tx's block pruned on the follower",
    async () => ((await call(pruned.publicUrl, 'node_getBlock', [txBlock])).error ? true : undefined),
    { timeoutMs: 60_000 },
  );
}, scaled(150_000));

afterAll(async () => {
  await pruned?.stop();
  await dev?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('a node that prunes block bodies', () => {
  it('answers queries of a pruned body with BLOCK_NOT_AVAILABLE naming the oldest available block', async () => {
    const err = await rpcError(pruned.publicUrl, 'node_getBlock', [txBlock]);
    const oldest = err.data?.oldestAvailableBlock as number;
    expect(err.code).toBe(-32002);
    expect(err.data?.code).toBe('BLOCK_NOT_AVAILABLE');
    expect(oldest).toBeGreaterThan(txBlock);
    expect(err.message).toBe(
      `Block ${txBlock} is older than the oldest available block ${oldest}: this node prunes block bodies ` +
        `(--block-body-history-blocks) and no longer holds block ${txBlock}'s tx effects and logs (its header is ` +
        'still served by node_getBlockHeader); ask a node that keeps the whole history',
    );
    for (const [method, params, subject] of [
      ['node_getBlocks', [1, 5], /^Block 1 is older than the oldest available block \d+/],
      ['node_getTxEffect', [txHash], new RegExp(`^Tx ${txHash} \\(mined in block ${txBlock}\\) is older than`)],
      ['node_getTxReceipt', [txHash], new RegExp(`^Tx ${txHash} \\(mined in block ${txBlock}\\) is older than`)],
      ['node_getPrivateLogs', [txBlock, 1], new RegExp(`^Block ${txBlock} is older than`)],
      ['node_getPublicLogs', [{ fromBlock: 1 }], /^Block 1 is older than/],
      ['node_getL2ToL1Messages', [txBlock], new RegExp(`^Block ${txBlock} is older than`)],
    ] as const) {
      const e = await rpcError(pruned.publicUrl, method, [...params]);
      expect(e.data?.code, method).toBe('BLOCK_NOT_AVAILABLE');
      expect(e.message, method).toMatch(subject);
      expect(e.data?.oldestAvailableBlock, method).toBeGreaterThanOrEqual(oldest);
    }
  });

  it('keeps headers, the archive and the latest blocks; tag queries see the kept blocks only', async () => {
    const header = await result(pruned.publicUrl, 'node_getBlockHeader', [txBlock]);
    expect(header).toEqual(await result(dev.publicUrl, 'node_getBlockHeader', [txBlock]));
    const path = await result(pruned.publicUrl, 'node_getArchiveSiblingPath', ['latest', String(txBlock)]);
    expect(path).toEqual(
      await result(dev.publicUrl, 'node_getArchiveSiblingPath', [
        await result<number>(pruned.publicUrl, 'node_getBlockNumber'),
        String(txBlock),
      ]),
    );
    const latest = await result<number>(pruned.publicUrl, 'node_getBlockNumber');
    const block = await result<{ header: unknown }>(pruned.publicUrl, 'node_getBlock', [latest]);
    expect(block).toEqual(await result(dev.publicUrl, 'node_getBlock', [latest]));
    // Public logs without a start begin at the oldest available block.
    expect(await result(pruned.publicUrl, 'node_getPublicLogs', [{}])).toEqual({ logs: [], maxLogsHit: false });
    // The log's tag entry went with its body: the node that keeps everything still finds it.
    const tags = [TAG.toString()];
    expect(await result<unknown[][]>(dev.publicUrl, 'node_getPrivateLogsByTags', [tags])).toHaveLength(1);
    expect((await result<unknown[][]>(dev.publicUrl, 'node_getPrivateLogsByTags', [tags]))[0]).toHaveLength(1);
    expect(await result(pruned.publicUrl, 'node_getPrivateLogsByTags', [tags])).toEqual([[]]);
  });

  it(
    'prunes as blocks arrive, keeping the latest blocks and nothing above the finalized block',
    async () => {
      const before = (await rpcError(pruned.publicUrl, 'node_getBlock', [1])).data?.oldestAvailableBlock as number;
      const moved = await until(
        'the oldest available block to move on',
        async () => {
          const now = (await rpcError(pruned.publicUrl, 'node_getBlock', [1])).data?.oldestAvailableBlock as number;
          return now > before ? now : undefined;
        },
        { timeoutMs: 30_000 },
      );
      const tips = await result<{ proposed: { number: number }; finalized: { block: { number: number } } }>(
        pruned.publicUrl,
        'node_getL2Tips',
      );
      expect(moved).toBeLessThanOrEqual(tips.proposed.number - KEEP + 1);
      expect(moved).toBeLessThanOrEqual(tips.finalized.block.number + 1);
    },
    scaled(60_000),
  );

  it('`l2node db stats` shows the oldest block with a body and how many were pruned', async () => {
    const run = await l2node(['db', 'stats', '--data-directory', join(root, 'pruned'), '--json']);
    const stats = envelopeOf(run).result as {
      chain: { latestBlock: number };
      bodies: { oldestBlockWithBody: number; prunedBlocks: number };
    };
    expect(stats.bodies.oldestBlockWithBody).toBeGreaterThan(txBlock);
    expect(stats.bodies.prunedBlocks).toBe(stats.bodies.oldestBlockWithBody - 1);
    const human = await l2node(['db', 'stats', '--data-directory', join(root, 'pruned')]);
    expect(human.stdout).toMatch(
      /block bodies\s+oldest block with a body \d+: bodies of blocks 1 to \d+ pruned, blocks \d+ to \d+ kept \(headers all kept\)/,
    );
  });
});

describe('followers of a pruned node', () => {
  it(
    'a follower from genesis is refused, naming the pruned history and what to do',
    async () => {
      const fresh = await spawnNode({
        args: [...FOLLOWER, '--sync-from', pruned.publicUrl, '--data-directory', join(root, 'fresh')],
      });
      try {
        const refusal = async () => {
          const s = (await (await fetch(`${fresh.publicUrl}/status`)).json()) as {
            follower: { state: string; problem?: { message: string } };
          };
          return s.follower.state === 'refused' ? s.follower.problem?.message : undefined;
        };
        const problem = await until('the sync to be refused', refusal);
        expect(problem).toMatch(
          new RegExp(
            `^the upstream ${pruned.publicUrl} cannot serve block 1: it pruned its block history and holds block ` +
              'bodies from block \\d+ on \\(.*\\)\\. A follower needs every block after its own tip: follow a node ' +
              'that keeps them, or start this one from a snapshot taken at block \\d+ or later \\(--snapshot-url\\)',
          ),
        );
        expect(await result(fresh.publicUrl, 'node_getBlockNumber')).toBe(0);
        // Said once, though the upstream's oldest available block moves on (the status follows it).
        await until('the status to follow the upstream oldest available block', async () =>
          (await refusal()) !== problem ? true : undefined,
        );
        expect(fresh.logs().filter((l) => /pruned its block history/.test(String(l.msg)))).toHaveLength(1);
      } finally {
        await fresh.stop();
      }
    },
    scaled(90_000),
  );

  it(
    'a follower started from a snapshot of the pruned node follows it, with the same pruned history',
    async () => {
      // The dev chain pauses while the snapshot is taken and restored: the pruned node's window (4 blocks) does not
      // move past the snapshot before the restored node asks for the next block.
      await result(dev.adminUrl, 'nodeAdmin_pauseSync');
      const tip = await result<number>(dev.publicUrl, 'node_getBlockNumber');
      await until('the pruned node at the paused tip', async () =>
        (await result<number>(pruned.publicUrl, 'node_getBlockNumber')) === tip ? true : undefined,
      );
      await result(pruned.adminUrl, 'nodeAdmin_startSnapshotUpload', [pathToFileURL(join(root, 'snapshots')).href]);
      const indexUrl = await until('the snapshot uploaded', async () => {
        const s = (await (await fetch(`${pruned.publicUrl}/status`)).json()) as {
          snapshot: { running: boolean; last?: { ok: boolean; indexUrl?: string; error?: string } };
        };
        if (s.snapshot.running || !s.snapshot.last) return undefined;
        expect(s.snapshot.last.error).toBeUndefined();
        return s.snapshot.last.indexUrl;
      });
      const restored = await spawnNode({
        args: [
          ...FOLLOWER,
          ...['--sync-from', pruned.publicUrl, '--data-directory', join(root, 'restored'), '--snapshot-url', indexUrl],
        ],
      });
      try {
        expect(await result(restored.publicUrl, 'node_getBlockNumber')).toBe(tip);
        await result(dev.adminUrl, 'nodeAdmin_resumeSync');
        await until('the restored follower past the snapshot', async () =>
          (await result<number>(restored.publicUrl, 'node_getBlockNumber')) > tip + 2 ? true : undefined,
        );
        const err = await rpcError(restored.publicUrl, 'node_getBlock', [txBlock]);
        expect(err.data?.code).toBe('BLOCK_NOT_AVAILABLE');
        const n = await result<number>(restored.publicUrl, 'node_getBlockNumber');
        expect(await result(restored.publicUrl, 'node_getBlock', [n])).toEqual(
          await result(dev.publicUrl, 'node_getBlock', [n]),
        );
      } finally {
        await restored.stop();
      }
    },
    scaled(90_000),
  );
});
