import { describe, expect, it } from 'vitest';
import { initialDashboardState, reduceDashboard, syncBadge } from '../../src/ui/dashboard-state.js';
import { averageRate } from '../../src/ui/rate-history.js';
import { blockEvent, sampleSnapshot, T0 } from '../helpers/stream-fixtures.js';

const URL = 'ws://127.0.0.1:8880/events';

function connected() {
  let s = initialDashboardState(URL);
  s = reduceDashboard(s, { kind: 'connection', state: { status: 'open', url: URL }, at: T0 });
  return reduceDashboard(s, { kind: 'event', event: sampleSnapshot(), at: T0 });
}

describe('reduceDashboard', () => {
  it('keeps blocks in order across an unwind and counts blocks and txs per second', () => {
    let s = connected();
    for (let n = 13; n <= 16; n++)
      s = reduceDashboard(s, { kind: 'event', event: blockEvent(n, T0, { txCount: 3 }), at: T0 + (n - 12) * 1000 });
    s = reduceDashboard(s, {
      kind: 'event',
      event: { type: 'unwound', at: T0, targetBlockNumber: 14, removed: 2 },
      at: T0 + 4500,
    });
    expect(s.blocks.map((b) => b.number)).toEqual([10, 11, 12, 13, 14]);
    s = reduceDashboard(s, { kind: 'event', event: blockEvent(15, T0), at: T0 + 4600 });
    expect(s.blocks.map((b) => b.number)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(s.log.at(-2)?.text).toBe('unwound to block 14: 2 blocks removed');
    // Five blocks applied over the four whole seconds seen (block 15 twice), 12 txs.
    expect(averageRate(s.rates, T0 + 5000, 'blocks')).toBe(1.25);
    expect(averageRate(s.rates, T0 + 5000, 'txs')).toBe(3);
  });

  it('turns the pool totals into per-second rates from their differences', () => {
    let s = connected();
    const pool = (added: number, evicted: number) => ({
      type: 'pool' as const,
      at: T0,
      pool: { pending: 1, added, dropped: { evicted }, rejected: { LOW_PRIORITY_FEE: 4 } },
    });
    s = reduceDashboard(s, { kind: 'event', event: pool(60, 2), at: T0 + 1100 });
    s = reduceDashboard(s, { kind: 'event', event: pool(80, 6), at: T0 + 2100 });
    // 40 at the snapshot, then +20 and +20 over two seconds.
    expect(averageRate(s.rates, T0 + 3000, 'adds')).toBe(20);
    expect(averageRate(s.rates, T0 + 3000, 'drops')).toBe(2);
    expect(averageRate(s.rates, T0 + 3000, 'rejects')).toBe(0);
  });

  it('adds each judged slot to the validators summary', () => {
    let s = reduceDashboard(initialDashboardState(URL), {
      kind: 'event',
      event: sampleSnapshot({
        validators: { ...sampleSnapshot().validators, enabled: true, keys: 1, tracked: 2 },
      }),
      at: T0,
    });
    s = reduceDashboard(s, {
      kind: 'event',
      event: {
        type: 'validatorSlot',
        at: T0,
        result: {
          slot: 9,
          proposer: `0x${'11'.repeat(20)}`,
          status: 'checkpoint-missed',
          attestationsSent: 0,
          attestationsMissed: 0,
        },
      },
      at: T0,
    });
    s = reduceDashboard(s, {
      kind: 'event',
      event: {
        type: 'validatorSlot',
        at: T0,
        result: {
          slot: 10,
          proposer: `0x${'22'.repeat(20)}`,
          status: 'checkpoint-mined',
          attestationsSent: 1,
          attestationsMissed: 1,
        },
      },
      at: T0,
    });
    expect(s.validators).toMatchObject({
      lastProcessedSlot: 10,
      missedProposals: { count: 1, total: 2 },
      missedAttestations: { count: 1, total: 2 },
    });
    expect(s.log.map((l) => l.level).slice(-2)).toEqual(['warn', 'warn']);
  });

  it('logs one line per outage, not one per attempt, and the badge says DISCONNECTED meanwhile', () => {
    let s = connected();
    for (let attempt = 1; attempt <= 4; attempt++) {
      s = reduceDashboard(s, {
        kind: 'connection',
        state: { status: 'reconnecting', url: URL, attempt, delayMs: 250, reason: 'ECONNREFUSED' },
        at: T0 + attempt,
      });
    }
    expect(s.log.filter((l) => l.text.includes('reconnecting'))).toHaveLength(1);
    expect(syncBadge(s).label).toBe('DISCONNECTED');
  });

  it('logs config changes, pauses, proofs and snapshot results; the pool and plain tips stay out of the log', () => {
    let s = connected();
    const before = s.log.length;
    const events = [
      { type: 'config', at: T0, changed: { minTxsPerBlock: 0 } },
      { type: 'pool', at: T0, pool: sampleSnapshot().pool },
      { type: 'tips', at: T0, tips: sampleSnapshot().tips },
      {
        type: 'tips',
        at: T0,
        tips: {
          ...sampleSnapshot().tips,
          proven: { block: { number: 10, hash: '0x' }, checkpoint: { number: 9, hash: '0x' } },
        },
      },
      {
        type: 'snapshotUpload',
        at: T0,
        snapshotUpload: { running: true, location: 'file:///tmp/s', phase: 'copying' },
      },
      {
        type: 'snapshotUpload',
        at: T0,
        snapshotUpload: { running: false, last: { ok: true, location: 'file:///tmp/s', finishedAt: 'x' } },
      },
    ] as const;
    for (const event of events) s = reduceDashboard(s, { kind: 'event', event, at: T0 });
    expect(s.log.slice(before).map((l) => l.text)).toEqual([
      'config changed: minTxsPerBlock=0',
      'tips: proven checkpoint 9 (block 10)',
      'snapshot upload to file:///tmp/s: copying',
      'snapshot uploaded to file:///tmp/s',
    ]);
  });
});
