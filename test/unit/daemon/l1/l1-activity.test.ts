import { pino } from 'pino';
import type { PublicClient } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import type { Chain } from '../../../../src/daemon/chain/chain.js';
import { L1Activity, type L1TxOutcome } from '../../../../src/daemon/l1/l1-activity.js';
import { L1Monitor, PUBLISHER_LOW_BALANCE_WEI } from '../../../../src/daemon/l1/l1-monitor.js';
import type { Mempool } from '../../../../src/daemon/mempool/mempool.js';
import { NodeMetrics } from '../../../../src/daemon/metrics/node-metrics.js';
import type { NodeEvents } from '../../../../src/daemon/node-events.js';
import type { OperationsService } from '../../../../src/daemon/operations/operations-service.js';
import { parsePrometheusText, sumOf } from '../../../helpers/prometheus-text.js';

/** A logger whose lines the test reads back. */
function capturingLog() {
  const lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines, warnings: () => lines.filter((l) => l.level === 40).map((l) => l.msg) };
}

const PUBLISHER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** An L1 that answers with block 100 and whatever balance the test sets. */
function fakeL1(balance: { wei: bigint }) {
  return {
    getBlock: async () => ({ number: 100n, timestamp: 1_795_000_000n }),
    getBalance: async () => balance.wei,
  } as unknown as PublicClient;
}

function monitorOf(activity: L1Activity, log: ReturnType<typeof capturingLog>['log'], balance = { wei: 10n ** 21n }) {
  return new L1Monitor({
    client: fakeL1(balance),
    chainId: 31337,
    rpcUrl: 'http://127.0.0.1:8545',
    rollupAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    registryAddress: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    publisherAddress: PUBLISHER,
    intervalMs: 5,
    activity,
    log,
  });
}

const proposed: L1TxOutcome = {
  kind: 'propose',
  txHash: `0x${'ab'.repeat(32)}`,
  ok: true,
  checkpoint: 12,
  l1BlockNumber: 345n,
  gasUsed: 251_234n,
  blobGasUsed: 131_072n,
  effectiveGasPriceWei: 1_000_000_007n,
  seconds: 1.5,
};

const failedProof: L1TxOutcome = {
  kind: 'proof',
  txHash: undefined,
  ok: false,
  epoch: 3,
  fromCheckpoint: 9,
  toCheckpoint: 12,
  error: 'insufficient funds for gas * price + value\n    at sendTransaction (viem/...)',
  seconds: 0.25,
};

describe('L1Activity', () => {
  it('keeps the last proposal and proof as JSON-ready reports, and logs each (a failure as a warning)', () => {
    const { log, lines, warnings } = capturingLog();
    const activity = new L1Activity({ log, now: () => new Date('2026-11-24T16:00:00Z') });
    expect(activity.lastProposal()).toBeUndefined();
    expect(activity.lastProof()).toBeUndefined();

    activity.record(proposed);
    activity.record(failedProof);
    expect(activity.lastProposal()).toEqual({
      kind: 'propose',
      ok: true,
      txHash: `0x${'ab'.repeat(32)}`,
      checkpoint: 12,
      l1BlockNumber: '345',
      gasUsed: '251234',
      blobGasUsed: '131072',
      effectiveGasPriceWei: '1000000007',
      seconds: 1.5,
      at: '2026-11-24T16:00:00.000Z',
    });
    // One line of the error, no stack; a tx that was never sent has no hash.
    expect(activity.lastProof()).toEqual({
      kind: 'proof',
      ok: false,
      txHash: null,
      epoch: 3,
      fromCheckpoint: 9,
      toCheckpoint: 12,
      error: 'insufficient funds for gas * price + value',
      seconds: 0.25,
      at: '2026-11-24T16:00:00.000Z',
    });
    expect(JSON.parse(JSON.stringify(activity.lastProposal()))).toEqual(activity.lastProposal());

    const info = lines.find((l) => l.level === 30);
    expect(info?.msg).toBe(
      `checkpoint 12 proposal landed on L1 in block 345 (0x${'ab'.repeat(32)}), 251234 gas, 1.5 s`,
    );
    expect(warnings()).toEqual([
      'epoch 3 (checkpoints 9 to 12) proof failed on L1, not sent: insufficient funds for gas * price + value; will retry',
    ]);
  });

  it('cuts a long error to a bounded line', () => {
    const activity = new L1Activity({ log: capturingLog().log });
    activity.record({ ...failedProof, error: `execution reverted: ${'ff'.repeat(5000)}` });
    expect(activity.lastProof()?.error?.length).toBeLessThanOrEqual(300);
  });

  it('feeds the L1 status: lastProposal and lastProof null before the first, then the reports', async () => {
    const { log } = capturingLog();
    const activity = new L1Activity({ log });
    const monitor = monitorOf(activity, log);
    expect(monitor.status()).toMatchObject({ lastProposal: null, lastProof: null });
    activity.record(proposed);
    expect(monitor.status().lastProposal).toEqual(activity.lastProposal());
    expect(monitor.status().lastProof).toBeNull();
  });

  it('is counted by the metrics: txs by kind and outcome, gas, blob gas, seconds', async () => {
    const { log } = capturingLog();
    const activity = new L1Activity({ log });
    const idle = { on: () => () => {} };
    const metrics = new NodeMetrics({
      chain: { events: idle } as unknown as Chain,
      mempool: {} as Mempool,
      operations: { events: idle } as unknown as OperationsService,
      events: idle as unknown as NodeEvents,
      sequencer: undefined,
      follower: false,
      l1: { status: () => undefined, activity },
      startedAt: new Date(),
    });
    const scrape = async () => parsePrometheusText(await metrics.render());
    // Every kind and outcome at 0 before anything is sent.
    const before = await scrape();
    expect(sumOf(before, 'l2node_l1_txs_total', { kind: 'propose', outcome: 'ok' })).toBe(0);
    expect(sumOf(before, 'l2node_l1_txs_total', { kind: 'proof', outcome: 'failed' })).toBe(0);

    metrics.attach();
    activity.record(proposed);
    activity.record({ ...proposed, checkpoint: 13, gasUsed: 250_000n, blobGasUsed: 262_144n, seconds: 3 });
    activity.record(failedProof);
    metrics.detachAll();
    activity.record(proposed); // after detaching: not counted

    const s = await scrape();
    expect(sumOf(s, 'l2node_l1_txs_total', { kind: 'propose', outcome: 'ok' })).toBe(2);
    expect(sumOf(s, 'l2node_l1_txs_total', { kind: 'propose', outcome: 'failed' })).toBe(0);
    expect(sumOf(s, 'l2node_l1_txs_total', { kind: 'proof', outcome: 'failed' })).toBe(1);
    expect(sumOf(s, 'l2node_l1_gas_used_total', { kind: 'propose' })).toBe(501_234);
    expect(sumOf(s, 'l2node_l1_gas_used_total', { kind: 'proof' })).toBe(0);
    expect(sumOf(s, 'l2node_l1_blob_gas_used_total')).toBe(393_216);
    expect(sumOf(s, 'l2node_l1_tx_seconds_count', { kind: 'propose' })).toBe(2);
    expect(sumOf(s, 'l2node_l1_tx_seconds_sum', { kind: 'propose' })).toBe(4.5);
    expect(sumOf(s, 'l2node_l1_tx_seconds_bucket', { kind: 'proof', le: '0.5' })).toBe(1);
  });
});

describe('L1Monitor publisher balance', () => {
  it('warns once when the publisher falls under one proposal, says once when it is funded again', async () => {
    const { log, lines, warnings } = capturingLog();
    const balance = { wei: PUBLISHER_LOW_BALANCE_WEI * 100n };
    const monitor = monitorOf(new L1Activity({ log }), log, balance);
    const polls = () => lines.length;
    monitor.start();
    try {
      await vi.waitFor(() => expect(monitor.status().publisher.lowBalance).toBe(false));
      expect(warnings()).toEqual([]);

      balance.wei = PUBLISHER_LOW_BALANCE_WEI - 1n;
      await vi.waitFor(() => expect(monitor.status().publisher.lowBalance).toBe(true));
      // Several more polls: still one warning.
      const seen = polls();
      await new Promise((r) => setTimeout(r, 60));
      expect(polls()).toBe(seen);
      expect(warnings()).toEqual([
        `L1 publisher ${PUBLISHER} holds 0.014999999999999999 ETH, under the 0.015 ETH one proposal may cost: ` +
          'send it ETH, or proposals and proofs will fail (and be retried)',
      ]);
      expect(monitor.status().publisher).toEqual({
        address: PUBLISHER,
        balanceWei: (PUBLISHER_LOW_BALANCE_WEI - 1n).toString(),
        lowBalance: true,
      });

      balance.wei = PUBLISHER_LOW_BALANCE_WEI;
      await vi.waitFor(() => expect(monitor.status().publisher.lowBalance).toBe(false));
      expect(lines.filter((l) => l.msg.includes('funded again'))).toHaveLength(1);
      expect(warnings()).toHaveLength(1);
    } finally {
      await monitor.stop();
    }
  });
});
