import type { EventStreamState } from '../rpc/client/event-stream-client.js';
import type {
  NodeStreamEvent,
  StreamBlock,
  StreamL1,
  StreamNodeIdentity,
  StreamPool,
  StreamProduction,
  StreamSnapshotUpload,
  StreamSyncProgress,
  StreamTips,
  StreamValidators,
} from '../rpc/node-stream-event.js';
import { describeEvent, type LogLevel, type LogLine } from './event-log.js';
import type { PeerRow } from './peers-panel.js';
import { addCounts, EMPTY_RATES, type RateHistory, startRates } from './rate-history.js';

/** Everything the dashboard shows, built from the event stream. The node's parts are absent until a snapshot. */
export interface DashboardState {
  readonly connection: EventStreamState;
  /** The node's clock minus this machine's, measured at the last snapshot (uptime uses the node's start time). */
  readonly clockOffsetMs: number;
  readonly node?: StreamNodeIdentity;
  readonly tips?: StreamTips;
  readonly pool?: StreamPool;
  readonly production?: StreamProduction;
  readonly sync?: StreamSyncProgress;
  readonly snapshotUpload?: StreamSnapshotUpload;
  readonly validators?: StreamValidators;
  /** The node's L1, when it runs with one (absent on a node without, and until its first reading). */
  readonly l1?: StreamL1;
  /** Latest blocks, oldest first. */
  readonly blocks: readonly StreamBlock[];
  readonly rates: RateHistory;
  /** Oldest first. */
  readonly log: readonly LogLine[];
  /** The node's P2P peers as last polled (nodeAdmin_getPeers); absent until the first answer. */
  readonly peers?: readonly PeerRow[];
}

export type DashboardAction =
  | { readonly kind: 'event'; readonly event: NodeStreamEvent; readonly at: number }
  | { readonly kind: 'connection'; readonly state: EventStreamState; readonly at: number }
  | { readonly kind: 'note'; readonly level: LogLevel; readonly text: string; readonly at: number }
  | { readonly kind: 'peers'; readonly peers: readonly PeerRow[] };

const MAX_BLOCKS = 50;
const MAX_LOG = 200;
const MAX_SLOTS = 10;

export function initialDashboardState(streamUrl: string): DashboardState {
  return {
    connection: { status: 'connecting', url: streamUrl },
    clockOffsetMs: 0,
    blocks: [],
    rates: EMPTY_RATES,
    log: [],
  };
}

/** The dashboard's reducer: pure, so panels and tests see the same state for the same events. */
export function reduceDashboard(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.kind) {
    case 'peers':
      return { ...state, peers: action.peers };
    case 'note':
      return withLog(state, { at: action.at, level: action.level, text: action.text });
    case 'connection':
      return connectionChanged(state, action.state, action.at);
    case 'event': {
      const next = applyEvent(state, action.event, action.at);
      const line = describeEvent(action.event, state, action.at);
      return line ? withLog(next, line) : next;
    }
  }
}

function connectionChanged(state: DashboardState, c: EventStreamState, at: number): DashboardState {
  const next = { ...state, connection: c };
  // One line per outage: later attempts are shown in the header, not repeated in the log.
  if (c.status === 'reconnecting' && c.attempt === 1) {
    return withLog(next, { at, level: 'warn', text: `connection to ${c.url} lost (${c.reason}); reconnecting` });
  }
  if (c.status === 'unauthorized') return withLog(next, { at, level: 'error', text: c.reason });
  return next;
}

function applyEvent(state: DashboardState, event: NodeStreamEvent, at: number): DashboardState {
  switch (event.type) {
    case 'snapshot':
      return {
        ...state,
        clockOffsetMs: event.at - at,
        node: event.node,
        tips: event.tips,
        pool: event.pool,
        production: event.production,
        sync: event.sync,
        snapshotUpload: event.snapshotUpload,
        validators: event.validators,
        l1: event.l1,
        blocks: event.recentBlocks.slice(-MAX_BLOCKS),
        rates: startRates(state.rates, at),
      };
    case 'block': {
      const b = event.block;
      const blocks = [...state.blocks.filter((x) => x.number < b.number), b].slice(-MAX_BLOCKS);
      const production = state.production && { ...state.production, blockNumber: b.number };
      return { ...state, blocks, production, rates: addCounts(state.rates, at, { blocks: 1, txs: b.txCount }) };
    }
    case 'tips':
      return { ...state, tips: event.tips };
    case 'unwound':
    case 'rollback':
      return { ...state, blocks: state.blocks.filter((b) => b.number <= event.targetBlockNumber) };
    case 'pool': {
      const was = state.pool;
      const now = event.pool;
      const rates = was
        ? addCounts(state.rates, at, {
            adds: Math.max(0, now.added - was.added),
            drops: Math.max(0, total(now.dropped) - total(was.dropped)),
            rejects: Math.max(0, total(now.rejected) - total(was.rejected)),
          })
        : state.rates;
      return { ...state, pool: now, rates };
    }
    case 'sync':
      return { ...state, sync: event.sync };
    case 'paused':
    case 'resumed':
      return { ...state, production: event.production };
    case 'config':
      return state;
    case 'snapshotUpload':
      return { ...state, snapshotUpload: event.snapshotUpload };
    case 'l1':
      return { ...state, l1: event.l1 };
    case 'validatorSlot': {
      const v = state.validators;
      if (!v) return state;
      const r = event.result;
      const missed = r.status === 'checkpoint-missed' || r.status === 'blocks-missed';
      return {
        ...state,
        validators: {
          ...v,
          lastProcessedSlot: r.slot,
          missedProposals: { count: v.missedProposals.count + (missed ? 1 : 0), total: v.missedProposals.total + 1 },
          missedAttestations: {
            count: v.missedAttestations.count + r.attestationsMissed,
            total: v.missedAttestations.total + r.attestationsSent + r.attestationsMissed,
          },
          recentSlots: [...v.recentSlots, r].slice(-MAX_SLOTS),
        },
      };
    }
  }
}

function withLog(state: DashboardState, line: LogLine): DashboardState {
  return { ...state, log: [...state.log, line].slice(-MAX_LOG) };
}

function total(counts: Readonly<Record<string, number>>): number {
  let sum = 0;
  for (const v of Object.values(counts)) sum += v;
  return sum;
}

/** The header's badge: what the node is doing, in one word. */
export function syncBadge(state: DashboardState): { readonly label: string; readonly color: string } {
  const p = state.production;
  const c = state.connection.status;
  if (c === 'unauthorized') return { label: 'UNAUTHORIZED', color: 'red' };
  // What was last seen may no longer hold: the node could be down, restarting or paused by someone else.
  if (c !== 'open') return p ? { label: 'DISCONNECTED', color: 'red' } : { label: 'CONNECTING', color: 'gray' };
  if (!p) return { label: 'CONNECTING', color: 'gray' };
  if (p.state === 'paused') return { label: 'PAUSED', color: 'yellow' };
  if (p.state === 'stopping') return { label: 'STOPPING', color: 'red' };
  if (p.state === 'starting') return { label: 'STARTING', color: 'gray' };
  const s = state.sync;
  if (s?.state === 'paused') return { label: 'PAUSED', color: 'yellow' };
  if (s?.state === 'starting') return { label: 'STARTING', color: 'gray' };
  // A follower stuck on its upstream: refused, diverged, unreachable.
  if (s && s.state !== 'synced' && s.state !== 'syncing') return { label: s.state.toUpperCase(), color: 'red' };
  if (s?.state === 'syncing' || p.state === 'syncing') return { label: 'SYNCING', color: 'cyan' };
  return { label: 'SYNCED', color: 'green' };
}

/** True when the operator's pause holds production (p then offers to resume). */
export function pausedByOperator(state: DashboardState): boolean {
  return state.production?.pausedBy.includes('operator') ?? false;
}
