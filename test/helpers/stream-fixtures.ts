/**
 * Event stream messages for tests of the stream server, its client and the dashboard: a snapshot of a small dev
 * node and the events that follow it, with anything overridable.
 */
import type {
  NodeStreamEvent,
  SnapshotEvent,
  StreamBlock,
  StreamL1,
  StreamL1Tx,
  StreamTips,
} from '../../src/rpc/node-stream-event.js';

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

export const ROLLUP = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
export const PUBLISHER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** The L1 of a node on anvil: reachable, a funded publisher, nothing sent yet. */
export function sampleL1(overrides: Partial<StreamL1> = {}): StreamL1 {
  return {
    chainId: 31337,
    rpcUrl: 'http://127.0.0.1:8545',
    rollupAddress: ROLLUP,
    registryAddress: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    publisher: { address: PUBLISHER, balanceWei: '9999986113012345678901', lowBalance: false },
    reachable: true,
    blockNumber: 1234,
    blockTimestamp: Math.floor(T0 / 1000),
    checkedAt: new Date(T0).toISOString(),
    lastProposal: null,
    lastProof: null,
    ...overrides,
  };
}

/** A proposal of `checkpoint` that landed in L1 block `l1Block`. */
export function proposalTx(checkpoint: number, l1Block: number, overrides: Partial<StreamL1Tx> = {}): StreamL1Tx {
  return {
    kind: 'propose',
    ok: true,
    txHash: hash(0xab00 + checkpoint),
    checkpoint,
    l1BlockNumber: String(l1Block),
    gasUsed: '251000',
    blobGasUsed: '131072',
    effectiveGasPriceWei: '1000000000',
    seconds: 1.2,
    at: new Date(T0).toISOString(),
    ...overrides,
  };
}
