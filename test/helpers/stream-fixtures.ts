/**
 * Event stream messages for tests of the stream server, its client and the dashboard: a snapshot of a small dev
 * node and the events that follow it, with anything overridable.
 */
import type { NodeStreamEvent, SnapshotEvent, StreamBlock, StreamTips } from '../../src/rpc/node-stream-event.js';

export const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

export function hash(n: number): string {
  return `0x${n.toString(16).padStart(64, '0')}`;
}

export function tipsAt(proposed: number, checkpointed = proposed, proven = 0, finalized = 0): StreamTips {
  const tip = (n: number) => ({ block: { number: n, hash: hash(n) }, checkpoint: { number: n, hash: hash(1000 + n) } });
  return {
    proposed: { number: proposed, hash: hash(proposed) },
    checkpointed: tip(checkpointed),
    proven: tip(proven),
    finalized: tip(finalized),
  };
}

export function streamBlock(n: number, overrides: Partial<StreamBlock> = {}): StreamBlock {
  return {
    number: n,
    hash: hash(n),
    txCount: n % 3,
    mana: 1000 * (n % 3),
    timestamp: Math.floor(T0 / 1000) + n,
    slot: Math.floor(n / 2),
    durationMs: 4.5,
    ...overrides,
  };
}

export function sampleSnapshot(overrides: Partial<SnapshotEvent> = {}): SnapshotEvent {
  return {
    type: 'snapshot',
    at: T0,
    node: { nodeVersion: '0.1.0', l1ChainId: 31337, rollupVersion: 1, mode: 'dev', startedAt: T0 - 3_723_000 },
    tips: tipsAt(12, 10, 8, 6),
    pool: { pending: 3, added: 40, dropped: { evicted: 2, replaced: 1 }, rejected: { LOW_PRIORITY_FEE: 4 } },
    production: { state: 'synced', producer: 'sequencer', pausedBy: [], blockNumber: 12 },
    snapshotUpload: { running: false },
    validators: {
      enabled: false,
      keys: 0,
      tracked: 0,
      missedProposals: { count: 0, total: 0 },
      missedAttestations: { count: 0, total: 0 },
      recentSlots: [],
    },
    recentBlocks: [10, 11, 12].map((n) => streamBlock(n)),
    ...overrides,
  };
}

export function blockEvent(n: number, at: number, overrides: Partial<StreamBlock> = {}): NodeStreamEvent {
  return { type: 'block', at, block: streamBlock(n, overrides) };
}
