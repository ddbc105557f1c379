import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Tx } from '../../../../src/core/tx/tx.js';
import { findCommonAncestor } from '../../../../src/daemon/sync/common-ancestor.js';
import { SyncProgress, syncStatusLine } from '../../../../src/daemon/sync/sync-progress.js';
import { type Upstream, UpstreamRpcError, UpstreamUnavailableError } from '../../../../src/daemon/sync/upstream.js';
import { upstreamTxForwarder } from '../../../../src/daemon/sync/upstream-tx-forwarder.js';
import { RpcError } from '../../../../src/rpc/errors.js';

describe('the sync progress line', () => {
  it('shows "--" until the rate and ETA can be measured, never "unknown"', () => {
    let now = 0;
    const p = new SyncProgress(() => now);
    const base = { state: 'syncing' as const, upstream: 'http://up', blockNumber: 0 };
    expect(syncStatusLine(p.status(base))).toBe('sync from http://up: at block 0, target --');
    p.setTarget(2000);
    p.record(0);
    const first = syncStatusLine(p.status(base));
    expect(first).toBe('sync from http://up: block 0 of 2000 (0%), 2000 behind, -- blocks/s, ETA --');
    expect(p.status(base)).not.toHaveProperty('etaSeconds');
    now = 2000;
    p.record(500);
    const s = p.status({ ...base, blockNumber: 500 });
    expect(s).toMatchObject({ blocksPerSecond: 250, etaSeconds: 6, behind: 1500, percent: 25 });
    expect(syncStatusLine(s)).toBe('sync from http://up: block 500 of 2000 (25%), 1500 behind, 250 blocks/s, ETA 6s');
    now = 4000;
    p.record(2000);
    const done = p.status({ ...base, blockNumber: 2000 });
    expect(done.behind).toBe(0);
    expect(done).not.toHaveProperty('etaSeconds');
    for (const line of [first, syncStatusLine(s), syncStatusLine(done)]) expect(line).not.toMatch(/unknown/i);
  });

  it('looks at the last seconds only', () => {
    let now = 0;
    const p = new SyncProgress(() => now);
    p.setTarget(100_000);
    for (let t = 0; t <= 30_000; t += 1000) {
      now = t;
      p.record(t < 20_000 ? t / 10 : 2000 + (t - 20_000));
    }
    // 1 block/ms over the last 10 s, not the 0.1 of the first 20.
    expect(p.rate()).toBeCloseTo(1000, 0);
  });
});

describe('the common ancestor search', () => {
  it('finds the highest block both chains share', async () => {
    for (const shared of [0, 1, 7, 63, 64]) {
      const asked: number[] = [];
      const found = await findCommonAncestor(0, 64, async (n) => {
        asked.push(n);
        return n <= shared;
      });
      expect(found).toBe(shared);
      expect(asked.length).toBeLessThanOrEqual(8);
    }
  });
});

describe('tx forwarding', () => {
  const tx = { txHash: { toString: () => '0x01' }, toJSON: () => ({}) } as unknown as Tx;
  const upstream = (fail: Error): Upstream =>
    ({
      url: 'http://up',
      sendTx: async () => {
        throw fail;
      },
    }) as unknown as Upstream;
  const log = pino({ level: 'silent' });

  it("passes the upstream's refusal on as it was: code, message and data", async () => {
    const data = {
      code: 'LOW_PRIORITY_FEE',
      message: 'Tx does not meet minimum priority fee. Required: 110, got: 100',
      minimumPriorityFee: '110',
      txPriorityFee: '100',
    };
    const forward = upstreamTxForwarder(upstream(new UpstreamRpcError(-32003, data.message, data)), log);
    const err = (await forward(tx).catch((e: unknown) => e)) as RpcError;
    expect(err).toBeInstanceOf(RpcError);
    expect(err.toJSON()).toEqual({ code: -32003, message: data.message, data });
    const bare = upstreamTxForwarder(
      upstream(new UpstreamRpcError(-32702, 'Invalid tx: Incorrect chain id', undefined)),
      log,
    );
    expect(((await bare(tx).catch((e: unknown) => e)) as RpcError).toJSON()).toEqual({
      code: -32702,
      message: 'Invalid tx: Incorrect chain id',
    });
  });

  it('says so when the upstream cannot be reached', async () => {
    const forward = upstreamTxForwarder(
      upstream(new UpstreamUnavailableError('cannot reach http://up (ECONNREFUSED)')),
      log,
    );
    const err = (await forward(tx).catch((e: unknown) => e)) as RpcError;
    expect(err.toJSON()).toMatchObject({ code: -32005, data: { code: 'INVALID_STATE' } });
    expect(err.message).toMatch(/The upstream http:\/\/up did not take the tx .*send it again/);
  });
});
