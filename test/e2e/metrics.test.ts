import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { Tx } from '../../src/core/tx/tx.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag, result } from '../helpers/mempool-e2e.js';
import { parsePrometheusText, type Sample, sumOf } from '../helpers/prometheus-text.js';
import { startRpcProxy } from '../helpers/rpc-proxy.js';
import { REPO_ROOT, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * GET /metrics of spawned nodes (--metrics-port 0), read the way Prometheus reads it: a dev node (instant
 * sequencer) answers RPC calls, takes a tx, refuses one and builds a block, and the series of each move; a
 * follower shows its upstream's tip. Method and code labels stay bounded whatever a caller sends.
 */
const PAYER = new AztecAddress(0x6001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
const COMMON = ['--prefunded-accounts', prefundedFlag(FUNDED), '--disable-admin-api-key', '--metrics-port', '0'];

let dev: RunningNode;
let builder: TxBuilder;
let maxFee: bigint;
let nonce = 0n;

beforeAll(async () => {
  dev = await spawnNode({ args: COMMON });
  builder = devTxBuilder(genesisHeader(FUNDED));
  const fees = await result<{ feePerL2Gas: string }>(dev.publicUrl, 'node_getCurrentMinFees');
  maxFee = 2n * BigInt(fees.feePerL2Gas);
}, 60_000);
afterAll(async () => {
  await dev?.stop();
});

const tx = (fee = maxFee): Tx =>
  builder.build({
    feePayer: PAYER,
    txRequestHash: new Fr(++nonce + 9_000_000n),
    maxFeesPerGas: new GasFees(0n, fee),
  });

function metricsUrl(node: RunningNode): string {
  return String(node.logs().find((l) => l.msg === 'metrics listening')?.metricsUrl);
}

async function scrape(node: RunningNode): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(metricsUrl(node));
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, samples: parsePrometheusText(text) };
}

describe('GET /metrics on prom-client', () => {
  it('counts RPC calls, txs and blocks, with process series; labels stay bounded', async () => {
    const before = (await scrape(dev)).samples;
    const at = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
      sumOf(samples, name, labels) ?? 0;
    const rpcOk = { listener: 'public', method: 'node_getBlockNumber', outcome: 'ok', code: '0' };

    for (let i = 0; i < 3; i++) await result(dev.publicUrl, 'node_getBlockNumber');
    // Unknown methods, one of them a name no one should keep a series for.
    const long = `node_${'x'.repeat(5000)}`;
    expect((await call(dev.publicUrl, long)).error?.code).toBe(-32601);
    expect((await call(dev.publicUrl, 'nope_nothing')).error?.code).toBe(-32601);
    expect((await call(dev.publicUrl, 'node_getBlock', ['not a block'])).error?.code).toBe(-32602);

    // One tx mined in a block of its own (instant mode), one refused by the pool.
    const good = tx();
    expect((await call(dev.publicUrl, 'node_sendTx', [good.toJSON()])).error).toBeUndefined();
    await until('the tx to be mined', async () => {
      const r = await result<{ status: string }>(dev.publicUrl, 'node_getTxReceipt', [good.txHash.toString()]);
      return r.status !== 'pending' ? r : undefined;
    });
    const refused = await call(dev.publicUrl, 'node_sendTx', [tx(1n).toJSON()]);
    expect(refused.error?.code).toBe(-32004);

    const { text, samples: after } = await scrape(dev);
    const moved = (name: string, labels: Record<string, string> = {}) =>
      at(after, name, labels) - at(before, name, labels);

    // prom-client's default process series.
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(sumOf(after, name), name).toBeGreaterThan(0);
    expect(text).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram$/m);

    // What runs: a constant 1 with the versions as labels.
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(at(after, 'l2node_build_info', { version, mode: 'dev' })).toBe(1);

    // RPC calls by method and code, latency by method.
    expect(moved('l2node_rpc_requests_total', rpcOk)).toBeGreaterThanOrEqual(3);
    expect(
      moved('l2node_rpc_request_duration_seconds_count', { method: 'node_getBlockNumber' }),
    ).toBeGreaterThanOrEqual(3);
    expect(moved('l2node_rpc_requests_total', { method: 'unknown', code: '-32601', outcome: 'error' })).toBe(2);
    expect(moved('l2node_rpc_requests_total', { method: 'node_getBlock', code: '-32602' })).toBe(1);
    expect(moved('l2node_rpc_requests_total', { method: 'node_sendTx', code: '-32004' })).toBe(1);
    expect(text).not.toContain('xxxxxxxx');
    expect(text).not.toContain('nope_nothing');

    // The pool, the block and the world state.
    expect(moved('l2node_mempool_txs_added_total')).toBe(1);
    expect(moved('l2node_mempool_txs_rejected_total', { code: 'TX_INVALID' })).toBe(1);
    expect(text).toMatch(/^# TYPE l2node_mempool_txs_dropped_total counter$/m);
    expect(at(after, 'l2node_pending_txs')).toBe(0);
    expect(moved('l2node_blocks_applied_total')).toBeGreaterThanOrEqual(1);
    expect(moved('l2node_block_apply_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(moved('l2node_block_build_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    const height = at(after, 'l2node_block_height');
    expect(height).toBeGreaterThan(at(before, 'l2node_block_height'));
    // The archive holds the genesis block's hash and one per block.
    expect(at(after, 'l2node_world_state_tree_leaves', { tree: 'ARCHIVE' })).toBe(height + 1);
    expect(moved('l2node_world_state_tree_leaves', { tree: 'NULLIFIER_TREE' })).toBeGreaterThan(0);
    for (const tree of ['NOTE_HASH_TREE', 'PUBLIC_DATA_TREE', 'L1_TO_L2_MESSAGE_TREE'])
      expect(sumOf(after, 'l2node_world_state_tree_leaves', { tree }), tree).toBeDefined();
    // A dev node follows no one.
    expect(sumOf(after, 'l2node_sync_distance_blocks')).toBeUndefined();
  });

  it('the Grafana dashboard in deploy/ queries only series the node exports (scraped here, or documented for an L1 or a follower)', async () => {
    const dashboard = readFileSync(join(REPO_ROOT, 'deploy/grafana/l2node-dashboard.json'), 'utf8');
    const exprs = (JSON.parse(dashboard) as { panels: { targets: { expr: string }[] }[] }).panels.flatMap((p) =>
      p.targets.map((t) => t.expr),
    );
    const used = new Set(
      exprs.flatMap((e) => [...e.matchAll(/\b((?:l2node|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1] as string)),
    );
    expect(used.size).toBeGreaterThan(10);
    const { text } = await scrape(dev);
    const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    const documented = readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8');
    for (const name of used) {
      const family = name.replace(/_(bucket|count|sum)$/, '');
      expect(exported.has(family) || documented.includes(`\`${family}`), name).toBe(true);
    }
  });

  it('a follower shows its upstream tip and how far behind it is', async () => {
    // Through a proxy that can hold the blocks the follower fetches while the upstream's tip moves on.
    const proxy = await startRpcProxy(dev.publicUrl);
    const follower = await spawnNode({
      args: [...COMMON, '--sync-from', proxy.url, '--archiver-polling-interval-ms', '100'],
    });
    try {
      const series = async (name: string) => sumOf((await scrape(follower)).samples, name);
      const caughtUp = (tip: number) =>
        until(`the follower at block ${tip}, its distance 0`, async () => {
          const { samples } = await scrape(follower);
          const at = (name: string) => sumOf(samples, name);
          return at('l2node_sync_target_block_number') === tip &&
            at('l2node_block_height') === tip &&
            at('l2node_sync_distance_blocks') === 0
            ? true
            : undefined;
        });
      const tip = await result<number>(dev.publicUrl, 'node_getBlockNumber');
      expect(tip).toBeGreaterThan(0);
      await caughtUp(tip);
      expect(await series('l2node_blocks_applied_total')).toBeGreaterThanOrEqual(tip);
      // It builds nothing itself.
      expect(await series('l2node_block_build_duration_seconds_count')).toBe(0);

      // Blocks come as blocks or inside published checkpoints: both wait.
      proxy.hold('node_getBlocks');
      proxy.hold('node_getCheckpoints');
      const next = tx();
      expect((await call(dev.publicUrl, 'node_sendTx', [next.toJSON()])).error).toBeUndefined();
      await until('a block on the dev node', async () =>
        (await result<number>(dev.publicUrl, 'node_getBlockNumber')) > tip ? true : undefined,
      );
      const newTip = await result<number>(dev.publicUrl, 'node_getBlockNumber');
      await until('the follower to see it is behind', async () =>
        (await series('l2node_sync_distance_blocks')) === newTip - tip ? true : undefined,
      );
      expect(await series('l2node_sync_target_block_number')).toBe(newTip);
      expect(await series('l2node_block_height')).toBe(tip);
      proxy.release();
      await caughtUp(newTip);
    } finally {
      proxy.release();
      await follower.stop();
      await proxy.close();
    }
  }, 60_000);
});
