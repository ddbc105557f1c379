import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { rpcResult } from '../helpers/rpc-result.js';
import { type LogLine, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * A follower facing a bad upstream (issue 7): a proxy that changes one note hash in one block is refused, the
 * follower keeps serving its last good block and says why in GET /status, and carries on once the upstream
 * serves the real block; nodeAdmin_pauseSync stops it and resumeSync restarts it; when the upstream rolls back
 * and builds other blocks at the same heights, the follower unwinds to the common ancestor and converges.
 */
const PAYER = new AztecAddress(0x6001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const COMMON = ['--prefunded-accounts', prefundedFlag(FUNDED), '--disable-admin-api-key'];

let dev: RunningNode;
let follower: RunningNode;
let proxy: RpcProxy;
let builder: TxBuilder;
let maxFee: bigint;
let nonce = 0n;

const blockNumber = (url: string) => rpcResult(url, 'node_getBlockNumber');
const tipHash = async (url: string) =>
  (await result<{ proposed: { hash: string } }>(url, 'node_getL2Tips')).proposed.hash;
const followerStatus = async () =>
  ((await (await fetch(`${follower.publicUrl}/status`)).json()) as { follower: Record<string, unknown> }).follower;

/** One block on the dev node: a tx with a note hash (on-demand: built as soon as it arrives). */
async function oneBlock(): Promise<number> {
  const before = await blockNumber(dev.publicUrl);
  const tx = builder.build({
    feePayer: PAYER,
    txRequestHash: new Fr(++nonce + 9_000_000n),
    noteHashes: [new Fr(nonce + 100n)],
    maxFeesPerGas: new GasFees(0n, maxFee),
  });
  expect((await call(dev.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
  return until('the block', async () => {
    const n = await blockNumber(dev.publicUrl);
    return n > before ? n : undefined;
  });
}

/** Changes the first note hash of block `n` wherever a block travels (node_getBlocks, node_getCheckpoints). */
function tamperWith(n: number): (method: string, r: unknown) => unknown {
  const tamper = (b: {
    header: { globalVariables: { blockNumber: number } };
    body: { txEffects: { noteHashes: string[] }[] };
  }) => {
    if (b.header.globalVariables.blockNumber !== n) return;
    (b.body.txEffects[0] as { noteHashes: string[] }).noteHashes[0] = `0x${'00'.repeat(31)}2a`;
  };
  return (method, r) => {
    if (method === 'node_getBlocks') for (const b of r as Parameters<typeof tamper>[0][]) tamper(b);
    if (method === 'node_getCheckpoints') {
      for (const c of r as { checkpoint: { blocks: Parameters<typeof tamper>[0][] } }[])
        c.checkpoint.blocks.forEach(tamper);
    }
    return r;
  };
}

beforeAll(async () => {
  dev = await spawnNode({
    args: [
      ...COMMON,
      '--sequencer-mode',
      'on-demand',
      '--slot-duration',
      '1',
      '--blocks-per-slot',
      '1',
      '--proof-delay',
      '86400',
    ],
  });
  builder = devTxBuilder(genesisHeader(FUNDED));
  maxFee = 2n * BigInt((await result<{ feePerL2Gas: string }>(dev.publicUrl, 'node_getCurrentMinFees')).feePerL2Gas);
  for (let i = 0; i < 3; i++) await oneBlock();
  proxy = await startRpcProxy(dev.publicUrl);
  proxy.rewriteResult = tamperWith(3);
  follower = await spawnNode({
    args: [...COMMON, '--sync-from', proxy.url, '--archiver-polling-interval-ms', '100'],
  });
}, 60_000);

afterAll(async () => {
  await follower?.stop();
  await dev?.stop();
});

describe('a follower of a bad upstream', () => {
  it('refuses a block with a changed note hash and keeps serving its last good block', async () => {
    const status = await until('the refusal', async () => {
      const s = await followerStatus();
      return s.state === 'refused' ? s : undefined;
    });
    expect(status).toMatchObject({ blockNumber: 2, targetBlockNumber: 3, problem: { subject: 'block 3' } });
    expect((status.problem as { message: string }).message).toMatch(
      /refused block 3 from http:\/\/127\.0\.0\.1:\d+: its body does not match its header/,
    );
    const line = await follower.waitForLog((l) => l.level === 50 && /refused block 3/.test(String(l.msg)));
    expect(line.module).toBe('sync');
    // Polls go on and check block 3 again, without a new error line each time.
    const polls = proxy.count('node_getL2Tips');
    await until('more polls', async () => (proxy.count('node_getL2Tips') > polls + 3 ? true : undefined));
    expect(follower.logs().filter((l) => /refused block 3/.test(String(l.msg)))).toHaveLength(1);
    // Nothing of block 3 was stored; block 2 and the state at it are served.
    expect(await blockNumber(follower.publicUrl)).toBe(2);
    expect((await call(follower.publicUrl, 'node_getBlock', [3])).result).toBeNull();
    expect(await result(follower.publicUrl, 'node_getBlock', [2])).toEqual(
      await result(dev.publicUrl, 'node_getBlock', [2]),
    );
    const ws = await result<{ latestBlockNumber: number }>(follower.publicUrl, 'node_getWorldStateSyncStatus');
    expect(ws.latestBlockNumber).toBe(2);
  });

  it('carries on once the upstream serves the real block', async () => {
    proxy.rewriteResult = undefined;
    await until('the follower at block 3', async () =>
      (await blockNumber(follower.publicUrl)) === 3 ? true : undefined,
    );
    expect(await tipHash(follower.publicUrl)).toBe(await tipHash(dev.publicUrl));
    const s = await followerStatus();
    expect(s.state).toBe('synced');
    expect(s.problem).toBeUndefined();
  });
});

describe('pausing a follower', () => {
  it('stops fetching and applying blocks while paused, still answers queries, and catches up on resume', async () => {
    expect((await call(follower.adminUrl, 'nodeAdmin_pauseSync')).error).toBeUndefined();
    const at = await blockNumber(follower.publicUrl);
    const target = await oneBlock();
    const polls = proxy.count('node_getL2Tips');
    await new Promise((r) => setTimeout(r, 500));
    expect(proxy.count('node_getL2Tips')).toBe(polls);
    expect(await blockNumber(follower.publicUrl)).toBe(at);
    expect(await result(follower.publicUrl, 'node_getBlock', [at])).toEqual(
      await result(dev.publicUrl, 'node_getBlock', [at]),
    );
    expect((await followerStatus()).state).toBe('paused');
    expect((await call(follower.adminUrl, 'nodeAdmin_resumeSync')).error).toBeUndefined();
    await until('the follower to catch up', async () =>
      (await blockNumber(follower.publicUrl)) === target ? true : undefined,
    );
    expect((await followerStatus()).state).toBe('synced');
  });
});

describe('a follower of an upstream that reorganises', () => {
  it('unwinds to the common ancestor when the upstream rolls back and builds other blocks, then converges', async () => {
    await oneBlock();
    const tip = await oneBlock();
    await until('the follower at the tip', async () =>
      (await blockNumber(follower.publicUrl)) === tip ? true : undefined,
    );
    const base = tip - 2;
    const header = (url: string, n: number) => result<Record<string, unknown>>(url, 'node_getBlockHeader', [n]);
    const old = await header(follower.publicUrl, base + 1);

    // The upstream goes back to block `base` and builds other blocks from there: the unwound txs, back in its
    // pool, go into a new block at once (a later slot), then two more txs.
    expect((await call(dev.adminUrl, 'nodeAdmin_rollbackTo', [base])).error).toBeUndefined();
    await oneBlock();
    await oneBlock();
    expect(await header(dev.publicUrl, base + 1)).not.toEqual(old);
    const devTip = await tipHash(dev.publicUrl);
    await until('the follower on the new chain', async () =>
      (await tipHash(follower.publicUrl)) === devTip ? true : undefined,
    );
    expect(await header(follower.publicUrl, base + 1)).toEqual(await header(dev.publicUrl, base + 1));
    const n = await blockNumber(dev.publicUrl);
    expect(await result(follower.publicUrl, 'node_getBlock', [n])).toEqual(
      await result(dev.publicUrl, 'node_getBlock', [n]),
    );
    const line = follower.logs().find((l) => /the upstream reorganised/.test(String(l.msg)));
    expect(String(line?.msg)).toMatch(new RegExp(`unwound [12] blocks? to the common ancestor, block ${base}`));
    expect((await followerStatus()).state).toBe('synced');
  });
});

describe('a follower fed a tip block whose header does not match its body', () => {
  it('refuses it with one line naming the block and the mismatch, not as a reorg', async () => {
    const synced = await blockNumber(dev.publicUrl);
    await until('the follower at the tip', async () =>
      (await blockNumber(follower.publicUrl)) === synced ? true : undefined,
    );
    const target = synced + 1;
    const before = await result<Record<string, unknown>>(dev.publicUrl, 'node_getL2Tips');
    const isReorg = (l: LogLine) => /the upstream reorganised/.test(String(l.msg));
    const isRefusal = (l: LogLine) => String(l.msg).startsWith(`refused block ${target} from`);
    const reorgs = follower.logs().filter(isReorg).length;
    // The tips keep the block out of any checkpoint (so it comes as the proposed tip, through node_getBlocks),
    // and its coinbase, which the body does not commit to, is changed.
    proxy.rewriteResult = (method, r) => {
      if (method === 'node_getL2Tips') (r as Record<string, unknown>).checkpointed = before.checkpointed;
      if (method === 'node_getBlocks') {
        for (const b of r as { header: { globalVariables: { blockNumber: number; coinbase: string } } }[]) {
          if (b.header.globalVariables.blockNumber === target)
            b.header.globalVariables.coinbase = `0x${'11'.repeat(20)}`;
        }
      }
      return r;
    };
    try {
      expect(await oneBlock()).toBe(target);
      const line = await follower.waitForLog(isRefusal, 30_000);
      expect(line.msg).toMatch(
        /its header does not match the block: it hashes to 0x[0-9a-f]{64}, but the upstream names/,
      );
      const polls = proxy.count('node_getL2Tips');
      await until('more polls', async () => (proxy.count('node_getL2Tips') > polls + 10 ? true : undefined));
      expect(follower.logs().filter(isReorg)).toHaveLength(reorgs);
      expect(follower.logs().filter(isRefusal)).toHaveLength(1);
      expect(await blockNumber(follower.publicUrl)).toBe(synced);
    } finally {
      proxy.rewriteResult = undefined;
    }
    await until('the follower past the block', async () =>
      (await blockNumber(follower.publicUrl)) >= target ? true : undefined,
    );
    expect(await tipHash(follower.publicUrl)).toBe(await tipHash(dev.publicUrl));
  });
});

describe('a follower of a slow upstream', () => {
  it('names the upstream and its latency in the log and GET /status, once, and says when it is fast again', async () => {
    // 2.5 s per call (the upstream took 10 s): over the 2 s the follower calls slow.
    proxy.delayMs = 2_500;
    try {
      const line = await follower.waitForLog((l) => /is slow: its answers take/.test(String(l.msg)), 30_000);
      expect(line.msg).toContain(`the upstream ${proxy.url} is slow`);
      const s = (await followerStatus()) as {
        upstream: string;
        upstreamLatency?: { averageMs: number; slow: boolean };
      };
      expect(s.upstream).toBe(proxy.url);
      expect(s.upstreamLatency).toMatchObject({ slow: true });
      expect(s.upstreamLatency?.averageMs).toBeGreaterThanOrEqual(2_000);
    } finally {
      proxy.delayMs = 0;
    }
    await follower.waitForLog((l) => /answers in .* again/.test(String(l.msg)), 30_000);
    expect(((await followerStatus()) as { upstreamLatency?: { slow: boolean } }).upstreamLatency?.slow).toBe(false);
    expect(follower.logs().filter((l) => /is slow: its answers take/.test(String(l.msg)))).toHaveLength(1);
  }, 90_000);
});
