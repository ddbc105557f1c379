import { AztecNodeAdminConfigSchema } from '@aztec/stdlib/interfaces/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { L2Block } from '../../src/core/block/l2-block.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { Tx } from '../../src/core/tx/tx.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { devTxBuilder, genesisHeader, prefundedFlag, type RpcAnswer } from '../helpers/mempool-e2e.js';
import { admin, adminOk, pub, status } from '../helpers/operations-e2e.js';
import { parsePrometheusText, sumOf } from '../helpers/prometheus-text.js';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * The admin operations on one spawned dev node (a block per second, finality a few seconds behind): runtime
 * config, pause and resume, rollbacks (with readers hammering the node meanwhile) and force below finality.
 */
const PAYER = new AztecAddress(0x0a11n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
let node: RunningNode;
let builder: TxBuilder;
let maxFee: bigint;
let nonce = 0n;

beforeAll(async () => {
  node = await spawnNode({
    args: [
      // Slot timing is what these cases observe; the default instant mode has its own tests.
      ...['--sequencer-mode', 'interval'],
      ...['--prefunded-accounts', prefundedFlag(FUNDED), '--min-txs-per-block', '0', '--metrics-port', '0'],
      ...['--slot-duration', '1', '--blocks-per-slot', '1'],
      ...['--epoch-duration', '2', '--proof-delay', '2', '--finality-delay', '4'],
    ],
  });
  builder = devTxBuilder(genesisHeader(FUNDED));
  maxFee = 2n * BigInt((await pub<{ feePerL2Gas: string }>(node, 'node_getCurrentMinFees')).feePerL2Gas);
});
afterAll(async () => {
  await node?.stop();
});

function tx(priorityFee = 1n): Tx {
  return builder.build({
    feePayer: PAYER,
    txRequestHash: new Fr(++nonce + 8_000_000n),
    maxFeesPerGas: new GasFees(0n, maxFee),
    maxPriorityFeesPerGas: new GasFees(0n, priorityFee),
  });
}

async function send(t: Tx): Promise<void> {
  const a = (await postJson(node.publicUrl, rpc('node_sendTx', [t.toJSON()]))).body as RpcAnswer;
  expect(a.error, a.error?.message).toBeUndefined();
}

type Receipt = { status: string; blockNumber?: number; dropReason?: string };
const receipt = (t: Tx) => pub<Receipt>(node, 'node_getTxReceipt', [t.txHash.toString()]);
const blockNumber = () => pub<number>(node, 'node_getBlockNumber');
const minedIn = (t: Tx) =>
  until(`tx ${t.txHash} to be mined`, async () => {
    const r = await receipt(t);
    return r.status === 'pending' ? undefined : r.blockNumber;
  });

describe('the admin listener', () => {
  it('refuses every operation without the API key', async () => {
    for (const method of [
      'nodeAdmin_getConfig',
      'nodeAdmin_setConfig',
      'nodeAdmin_pauseSync',
      'nodeAdmin_resumeSync',
      'nodeAdmin_rollbackTo',
      'nodeAdmin_startSnapshotUpload',
    ]) {
      expect((await postJson(node.adminUrl, rpc(method, []))).status, method).toBe(401);
    }
  });
});

describe('nodeAdmin_getConfig / nodeAdmin_setConfig', () => {
  it('returns the runtime settings; the keys 4.1.2 has carry 4.1.2 types', async () => {
    const config = (await adminOk(node, 'nodeAdmin_getConfig')) as Record<string, unknown>;
    expect(config).toMatchObject({ maxPendingTxCount: 1000, archiverPollingIntervalMS: 500, minTxsPerBlock: 0 });
    const parsed = AztecNodeAdminConfigSchema.partial().safeParse(config);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const extensions = Object.keys(config).filter((k) => !(k in AztecNodeAdminConfigSchema.shape));
    expect(extensions).toEqual(expect.arrayContaining(['slotDuration', 'blocksPerSlot']));
    expect(JSON.stringify(config)).not.toMatch(/apiKey|ApiKey/);
  });

  it('with one bad key among good ones changes nothing and names the bad key', async () => {
    const before = await adminOk(node, 'nodeAdmin_getConfig');
    const a = await admin(node, 'nodeAdmin_setConfig', [
      { maxPendingTxCount: 3, maxTxsPerBlock: 2, notASetting: true, coinbase: '0x1234' },
    ]);
    expect(a.error?.code).toBe(-32602);
    expect(a.error?.message).toMatch(/unknown key notASetting/);
    expect(a.error?.message).toMatch(/coinbase: /);
    expect(a.error?.message).not.toMatch(/maxPendingTxCount|maxTxsPerBlock/);
    expect(await adminOk(node, 'nodeAdmin_getConfig')).toEqual(before);
  });
});

describe('nodeAdmin_pauseSync / nodeAdmin_resumeSync', () => {
  const txs: Tx[] = [];

  it('pausing stops block production at once, twice is fine, and /status says paused', async () => {
    await adminOk(node, 'nodeAdmin_pauseSync');
    await adminOk(node, 'nodeAdmin_pauseSync');
    const paused = await status(node);
    expect(paused.sync).toMatchObject({ state: 'paused', producer: 'sequencer', pausedBy: ['operator'] });
    expect(paused.ready).toBe(false);
    const at = await blockNumber();
    for (const fee of [1n, 2n, 3n, 4n]) txs.push(tx(fee));
    for (const t of txs) await send(t);
    // Two block intervals pass without a block, and the txs wait.
    const deadline = Date.now() + 2_200;
    while (Date.now() < deadline) {
      expect(await blockNumber()).toBe(at);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await pub(node, 'node_getPendingTxCount')).toBe(4);
  });

  it('readiness is defined once: paused, the node accepts txs but follows no chain, in /status, node_isReady and l2node status', async () => {
    const body = (await status(node)) as unknown as { ready: boolean; acceptingTxs: boolean; notReadyReason?: string };
    expect(body).toMatchObject({ ready: false, acceptingTxs: true, notReadyReason: 'sync paused (by operator)' });
    expect(await pub(node, 'node_isReady')).toBe(true);
    const env = { NODE_URL: node.publicUrl, NODE_ADMIN_URL: node.adminUrl, NODE_ADMIN_API_KEY: node.adminKey ?? '' };
    const human = await l2node(['status'], { env });
    expect(human.stdout).toMatch(/ready for txs, not following the chain: sync paused \(by operator\)/);
    expect(human.stdout).toMatch(/^sync\s+paused \(paused by operator\)$/m);
    const json = envelopeOf(await l2node(['status', '--json'], { env })).result as { node: Record<string, unknown> };
    expect(json.node).toMatchObject({
      ready: false,
      acceptingTxs: true,
      notReadyReason: 'sync paused (by operator)',
      sync: { state: 'paused' },
    });
    // Liveness and readiness as HTTP codes, for orchestrators: /status 200, /ready 503 (same body), no key needed.
    for (const base of [node.publicUrl, node.adminUrl]) {
      const live = await fetch(`${base}/status`);
      const readiness = await fetch(`${base}/ready`);
      expect([live.status, readiness.status]).toEqual([200, 503]);
      expect(await readiness.json()).toMatchObject({ ready: false, notReadyReason: 'sync paused (by operator)' });
    }
  });

  it('a lower maxPendingTxCount evicts the lowest-fee txs right away', async () => {
    await adminOk(node, 'nodeAdmin_setConfig', [{ maxPendingTxCount: 2 }]);
    expect(await pub(node, 'node_getPendingTxCount')).toBe(2);
    expect(await receipt(txs[0] as Tx)).toMatchObject({ status: 'dropped', dropReason: 'evicted' });
    expect(await receipt(txs[1] as Tx)).toMatchObject({ status: 'dropped', dropReason: 'evicted' });
    expect((await receipt(txs[3] as Tx)).status).toBe('pending');
    await adminOk(node, 'nodeAdmin_setConfig', [{ maxPendingTxCount: 1000 }]);
  });

  it('resuming builds again, under a block limit changed meanwhile (one tx per block)', async () => {
    await adminOk(node, 'nodeAdmin_setConfig', [{ maxTxsPerBlock: 1 }]);
    await adminOk(node, 'nodeAdmin_resumeSync');
    await adminOk(node, 'nodeAdmin_resumeSync');
    const blocks = [await minedIn(txs[2] as Tx), await minedIn(txs[3] as Tx)];
    expect(blocks[0]).not.toBe(blocks[1]);
    const resumed = await until('/status to say synced', async () => {
      const s = await status(node);
      return s.sync.state === 'synced' ? s : undefined;
    });
    expect(resumed).toMatchObject({ ready: true, sync: { pausedBy: [] } });
    expect((await fetch(`${node.publicUrl}/ready`)).status).toBe(200);
    await adminOk(node, 'nodeAdmin_setConfig', [{ maxTxsPerBlock: 64 }]);
  });
});

describe('nodeAdmin_rollbackTo', () => {
  it('refuses a target above the tip with INVALID_STATE', async () => {
    const a = await admin(node, 'nodeAdmin_rollbackTo', [1_000_000]);
    expect(a.error).toMatchObject({ code: -32005, data: { code: 'INVALID_STATE' } });
    expect(a.error?.message).toMatch(/^Cannot roll back to block 1000000: the chain's tip is block \d+$/);
  });

  it('takes the txs of removed blocks back into the pool, and the chain builds on from the target', async () => {
    const t = tx();
    await send(t);
    const mined = await minedIn(t);
    await adminOk(node, 'nodeAdmin_pauseSync');
    const tips = await pub<{ finalized: { block: { number: number } } }>(node, 'node_getL2Tips');
    const target = mined - 1;
    expect(target).toBeGreaterThanOrEqual(tips.finalized.block.number);
    // Through the CLI, which reads what the rollback did from the node's rollback event.
    const env = { NODE_URL: node.publicUrl, NODE_ADMIN_URL: node.adminUrl, NODE_ADMIN_API_KEY: node.adminKey ?? '' };
    const cli = envelopeOf(await l2node(['admin', 'rollback', String(target), '--yes', '--json'], { env }));
    const removedBlocks = mined - target;
    expect(cli).toMatchObject({
      status: 0,
      result: { targetBlockNumber: target, removedBlocks, rederived: false },
    });
    // t and whatever else the removed blocks held, all still valid: every one of them back in the pool.
    const { removedTxs, returnedTxs } = cli.result as { removedTxs: number; returnedTxs: number };
    expect(removedTxs).toBeGreaterThanOrEqual(1);
    expect(returnedTxs).toBe(removedTxs);
    expect(await blockNumber()).toBe(target);
    expect(await receipt(t)).toMatchObject({ status: 'pending' });
    await adminOk(node, 'nodeAdmin_resumeSync');
    expect(await minedIn(t)).toBeGreaterThan(target);
    const [parent, child] = await Promise.all(
      [target, target + 1].map((n) => pub<unknown>(node, 'node_getBlock', [n])),
    );
    expect(L2Block.fromJSON(child).header.lastArchive.root.equals(L2Block.fromJSON(parent).archive.root)).toBe(true);
  });

  it('never shows a reader a half-rolled-back state, while rollbacks run under a steady read load', async () => {
    let stop = false;
    let answers = 0;
    const problems: string[] = [];
    // Each batch is answered from one state of the node: the block store, the tips and the world state agree.
    const reader = async () => {
      while (!stop) {
        const res = await postJson(node.publicUrl, [
          rpc('node_getBlockNumber', [], 1),
          rpc('node_getL2Tips', [], 2),
          rpc('node_getBlock', ['latest'], 3),
          rpc('node_getWorldStateSyncStatus', [], 4),
        ]);
        const [n, tips, block, ws] = (res.body as RpcAnswer[]).map((a) => a.result) as [
          number,
          { proposed: { number: number; hash: string }; finalized: { block: { number: number } } },
          unknown,
          { latestBlockNumber: number; latestBlockHash: string; finalizedBlockNumber: number },
        ];
        const b = L2Block.fromJSON(block);
        const hash = b.hash().toString();
        const facts = {
          n,
          tip: tips.proposed,
          block: [b.number, hash],
          ws: [ws.latestBlockNumber, ws.latestBlockHash],
        };
        if (
          tips.proposed.number !== n ||
          b.number !== n ||
          ws.latestBlockNumber !== n ||
          tips.proposed.hash !== hash ||
          ws.latestBlockHash !== hash ||
          tips.finalized.block.number > n ||
          ws.finalizedBlockNumber > n
        ) {
          problems.push(JSON.stringify(facts));
        }
        answers++;
      }
    };
    const readers = Array.from({ length: 4 }, reader);
    let rollbacks = 0;
    try {
      for (let i = 0; i < 3; i++) {
        const from = await blockNumber();
        await until('two more blocks', async () => ((await blockNumber()) >= from + 2 ? true : undefined));
        const tip = await blockNumber();
        const finalized = (await pub<{ finalized: { block: { number: number } } }>(node, 'node_getL2Tips')).finalized
          .block.number;
        // The last one goes below finality, so world state is re-derived while the readers read. With force the
        // others are valid even if finality moved up to their target meanwhile.
        const target = i === 2 && finalized > 0 ? finalized - 1 : tip - 2;
        await adminOk(node, 'nodeAdmin_rollbackTo', [target, true]);
        rollbacks++;
      }
    } finally {
      stop = true;
      await Promise.all(readers);
    }
    expect(problems).toEqual([]);
    expect(rollbacks).toBe(3);
    expect(node.logs().some((l) => /world state and pool data re-derived/.test(l.msg ?? ''))).toBe(true);
    expect(answers).toBeGreaterThan(20);
    expect((await status(node)).sync.state).toBe('synced');
  });

  it('below the finalized block needs force, then clears world state and pool data and re-derives them', async () => {
    await until('block 3 to be final', async () => {
      const tips = await pub<{ finalized: { block: { number: number } } }>(node, 'node_getL2Tips');
      return tips.finalized.block.number >= 3 ? true : undefined;
    });
    await adminOk(node, 'nodeAdmin_pauseSync');
    const pending = tx();
    await send(pending);
    const before = await Promise.all([
      pub(node, 'node_getBlockHeader', [2]),
      pub(node, 'node_getArchiveSiblingPath', [2, '1']),
      pub(node, 'node_getNullifierSiblingPath', [2, '128']),
      pub(node, 'node_getPublicDataSiblingPath', [2, '0']),
    ]);
    const refused = await admin(node, 'nodeAdmin_rollbackTo', [2]);
    expect(refused.error).toMatchObject({ code: -32005, data: { code: 'INVALID_STATE' } });
    expect(refused.error?.message).toMatch(/before the finalized block \d+\. Pass force/);

    await adminOk(node, 'nodeAdmin_rollbackTo', [2, true]);
    const ws = await pub<{ latestBlockNumber: number; latestBlockHash: string; finalizedBlockNumber: number }>(
      node,
      'node_getWorldStateSyncStatus',
    );
    expect(ws.latestBlockNumber).toBe(2);
    expect(ws.finalizedBlockNumber).toBeLessThanOrEqual(2);
    const after = await Promise.all([
      pub(node, 'node_getBlockHeader', ['latest']),
      pub(node, 'node_getArchiveSiblingPath', ['latest', '1']),
      pub(node, 'node_getNullifierSiblingPath', ['latest', '128']),
      pub(node, 'node_getPublicDataSiblingPath', ['latest', '0']),
    ]);
    expect(after).toEqual(before);
    // Pool data was cleared: the pending tx is forgotten.
    expect(await pub(node, 'node_getPendingTxCount')).toBe(0);
    expect((await receipt(pending)).status).toBe('dropped');

    await adminOk(node, 'nodeAdmin_resumeSync');
    await until('new blocks on top of block 2', async () => ((await blockNumber()) > 3 ? true : undefined));
    expect((await status(node)).sync.state).toBe('synced');
  });
});

describe('GET /metrics (--metrics-port)', () => {
  it('serves Prometheus text on its own loopback listener: height, tips, pool, RPC calls by method, apply time', async () => {
    const url = String(node.logs().find((l) => l.msg === 'metrics listening')?.metricsUrl);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    await pub(node, 'node_getBlockNumber');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = parsePrometheusText(await res.text());
    // A series by some of its labels (the RPC counter also has `code`), as PromQL's sum() would read it.
    const value = (series: string) => {
      const [, name, labels] = /^([^{]+)(?:\{(.*)\})?$/.exec(series) as RegExpExecArray;
      const wanted = Object.fromEntries([...(labels ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      return Number(sumOf(samples, name as string, wanted));
    };
    // A block may come between the scrape and this call.
    expect(value('l2node_block_height')).toBeGreaterThan(0);
    expect(value('l2node_block_height')).toBeLessThanOrEqual(await blockNumber());
    expect(value('l2node_tip_block_number{tip="proposed"}')).toBeGreaterThan(0);
    expect(value('l2node_pending_txs')).toBe(0);
    expect(value('l2node_sync_paused')).toBe(0);
    expect(
      value('l2node_rpc_requests_total{listener="public",method="node_getBlockNumber",outcome="ok"}'),
    ).toBeGreaterThan(0);
    expect(
      value('l2node_rpc_requests_total{listener="admin",method="nodeAdmin_rollbackTo",outcome="error"}'),
    ).toBeGreaterThan(0);
    expect(value('l2node_rpc_request_duration_seconds_count{method="node_getBlockNumber"}')).toBeGreaterThan(0);
    expect(value('l2node_block_apply_duration_seconds_count')).toBeGreaterThan(0);
    expect(value('l2node_rollbacks_total{rederived="true"}')).toBeGreaterThan(0);
    expect((await fetch(url.replace(/\/metrics$/, '/other'))).status).toBe(404);
  });
});
