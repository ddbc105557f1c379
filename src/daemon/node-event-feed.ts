import { BlockHeader } from '../core/block/block-header.js';
import type { L2Block } from '../core/block/l2-block.js';
import type {
  NodeStreamEvent,
  SnapshotEvent,
  StreamBlock,
  StreamL1,
  StreamPool,
  StreamProduction,
  StreamSyncProgress,
  StreamValidatorSlot,
  StreamValidators,
} from '../rpc/node-stream-event.js';
import type { EventFeed } from '../rpc/server/event-stream.js';
import type { Chain } from './chain/chain.js';
import type { NodeConfig } from './config/settings.js';
import type { L1Status } from './l1/l1-monitor.js';
import type { Clock } from './lifecycle/clock.js';
import type { Mempool } from './mempool/mempool.js';
import type { NodeEvents, PoolChange } from './node-events.js';
import type { OperationsService } from './operations/operations-service.js';
import type { ProductionStatus } from './operations/production-status.js';
import { PACKAGE_VERSION } from './package-version.js';
import type { UpstreamBlockSource } from './sync/upstream-block-source.js';
import type { ValidatorService } from './validators/validator-service.js';

/** What the feed reads from the node (L2Node has all of it). */
export interface NodeEventFeedSources {
  readonly config: NodeConfig;
  readonly startedAt: Date;
  readonly clock: Clock;
  readonly chain: Chain;
  readonly mempool: Mempool;
  readonly operations: OperationsService;
  readonly validators: ValidatorService;
  readonly sync: UpstreamBlockSource | undefined;
  /** The node's L1, when it runs with one: its status, and word when that changes (each poll, each tx). */
  readonly l1: { status(): L1Status | undefined; onStatus(listener: () => void): () => void } | undefined;
  readonly events: NodeEvents;
}

/** Blocks in a snapshot, and slot results kept for one. */
const RECENT_BLOCKS = 20;
const RECENT_SLOTS = 10;
/** Pool changes are summed and sent at most this often: a busy pool changes thousands of times a second. */
const POOL_EVENT_MS = 250;
/** A follower's progress rides along with its blocks at most this often (its own event comes every 5 s). */
const SYNC_EVENT_MS = 1000;

type Listener = (event: NodeStreamEvent) => void;

/**
 * The node's events as the admin event stream sends them (src/rpc/server/event-stream.ts): the chain's blocks,
 * tips and unwinds, the follower's progress, the admin operations (pause, config, snapshots, rollbacks), the
 * mempool's changes summed into running totals, and the sentinel's slot results; plus the snapshot a client
 * starts from. Pool totals and slot results are counted from the node's start, whether a client listens or not.
 */
export class NodeEventFeed implements EventFeed {
  private readonly listeners = new Set<Listener>();
  private readonly detach: (() => void)[] = [];
  private readonly added = { count: 0 };
  private readonly dropped: Record<string, number> = {};
  private readonly rejected: Record<string, number> = {};
  private readonly recentSlots: StreamValidatorSlot[] = [];
  /** applyBlock durations of the latest blocks, for the snapshot's table. */
  private readonly durations = new Map<number, number>();
  private poolTimer: NodeJS.Timeout | undefined;
  private lastSyncEventAt = 0;

  constructor(private readonly node: NodeEventFeedSources) {
    node.events.on('pool', (change) => this.countPool(change));
    node.events.on('validatorSlot', (result) => {
      const slot: StreamValidatorSlot = { ...result };
      this.recentSlots.push(slot);
      if (this.recentSlots.length > RECENT_SLOTS) this.recentSlots.shift();
      this.emit({ type: 'validatorSlot', at: this.now(), result: slot });
    });
  }

  subscribe(listener: Listener): () => void {
    if (this.listeners.size === 0) this.attach();
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.release();
    };
  }

  snapshot(): SnapshotEvent {
    const { config, chain, operations, sync } = this.node;
    return {
      type: 'snapshot',
      at: this.now(),
      node: {
        nodeVersion: PACKAGE_VERSION,
        l1ChainId: config.l1ChainId,
        rollupVersion: config.rollupVersion,
        mode: config.syncFrom ? 'follower' : 'dev',
        ...(config.syncFrom ? { upstream: config.syncFrom } : {}),
        startedAt: this.node.startedAt.getTime(),
      },
      tips: chain.readTips(),
      pool: this.pool(),
      production: production(operations.productionStatus()),
      ...(sync ? { sync: sync.status() } : {}),
      snapshotUpload: operations.snapshotStatus(),
      validators: this.validators(),
      ...this.l1(),
      recentBlocks: this.recentBlocks(),
    };
  }

  /** Subscribes to the chain's and the operations' emitters. */
  private attach(): void {
    const { chain, operations } = this.node;
    this.detach.push(
      chain.events.on('block', ({ block, durationMs }) => {
        this.durations.set(block.number, durationMs);
        this.durations.delete(block.number - RECENT_BLOCKS);
        this.emit({ type: 'block', at: this.now(), block: blockSummary(block, durationMs) });
        // Mining takes txs out of the pool.
        this.schedulePool();
        this.followerProgress(false);
      }),
      chain.events.on('tips', (tips) => this.emit({ type: 'tips', at: this.now(), tips })),
      chain.events.on('unwound', ({ targetBlockNumber, removed }) => {
        this.emit({ type: 'unwound', at: this.now(), targetBlockNumber, removed });
        this.schedulePool();
      }),
      chain.events.on('sync', (s) => this.emitSync(s)),
      operations.events.on('sync', (s) => {
        const p = production(s);
        this.emit({ type: p.state === 'paused' ? 'paused' : 'resumed', at: this.now(), production: p });
      }),
      operations.events.on('config', ({ changed }) => this.emit({ type: 'config', at: this.now(), changed })),
      operations.events.on('snapshot', (s) => this.emit({ type: 'snapshotUpload', at: this.now(), snapshotUpload: s })),
      operations.events.on('rollback', (r) => {
        this.emit({ type: 'rollback', at: this.now(), ...r });
        this.schedulePool();
      }),
    );
    const l1 = this.node.l1;
    if (l1) {
      this.detach.push(
        l1.onStatus(() => {
          const { l1: status } = this.l1();
          if (status) this.emit({ type: 'l1', at: this.now(), l1: status });
        }),
      );
    }
  }

  /** The L1's status as the stream carries it, once there is one. */
  private l1(): { l1?: StreamL1 } {
    const status = this.node.l1?.status();
    return status ? { l1: status } : {};
  }

  private release(): void {
    for (const off of this.detach.splice(0)) off();
    clearTimeout(this.poolTimer);
    this.poolTimer = undefined;
  }

  private emit(event: NodeStreamEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private now(): number {
    return this.node.clock.now();
  }

  private countPool(change: PoolChange): void {
    if (change.kind === 'added') this.added.count++;
    else if (change.kind === 'dropped') for (const r of change.reasons) this.dropped[r] = (this.dropped[r] ?? 0) + 1;
    else this.rejected[change.code] = (this.rejected[change.code] ?? 0) + 1;
    this.schedulePool();
  }

  private schedulePool(): void {
    if (this.poolTimer || this.listeners.size === 0) return;
    this.poolTimer = setTimeout(() => {
      this.poolTimer = undefined;
      this.emit({ type: 'pool', at: this.now(), pool: this.pool() });
    }, POOL_EVENT_MS);
    this.poolTimer.unref();
  }

  private pool(): StreamPool {
    return {
      pending: this.node.mempool.pendingTxCount(),
      added: this.added.count,
      dropped: { ...this.dropped },
      rejected: { ...this.rejected },
    };
  }

  /** A follower's progress with its blocks, at most once a second (or now, when forced). */
  private followerProgress(force: boolean): void {
    const sync = this.node.sync;
    if (!sync) return;
    if (!force && this.now() - this.lastSyncEventAt < SYNC_EVENT_MS) return;
    this.emitSync(sync.status());
  }

  private emitSync(s: StreamSyncProgress): void {
    this.lastSyncEventAt = this.now();
    this.emit({ type: 'sync', at: this.lastSyncEventAt, sync: s });
  }

  private recentBlocks(): StreamBlock[] {
    const store = this.node.chain.store;
    const latest = store.latestBlockNumber();
    return store.blocks.getRange(Math.max(1, latest - RECENT_BLOCKS + 1), latest + 1).map((row) => {
      const header = BlockHeader.fromBuffer(row.header);
      const durationMs = this.durations.get(row.number);
      return {
        number: row.number,
        hash: `0x${row.hash.toString('hex')}`,
        txCount: row.txCount,
        mana: Number(header.totalManaUsed.value),
        timestamp: Number(header.globalVariables.timestamp),
        slot: header.globalVariables.slotNumber,
        ...(durationMs === undefined ? {} : { durationMs: round(durationMs) }),
      };
    });
  }

  private validators(): StreamValidators {
    const v = this.node.validators;
    const recentSlots = [...this.recentSlots];
    const missedProposals = { count: 0, total: 0 };
    const missedAttestations = { count: 0, total: 0 };
    if (!v.enabled) return { enabled: false, keys: 0, tracked: 0, missedProposals, missedAttestations, recentSlots };
    const stats = v.validatorsStats();
    const all = Object.values(stats.stats);
    for (const s of all) {
      missedProposals.count += s.missedProposals.count;
      missedProposals.total += s.missedProposals.total;
      missedAttestations.count += s.missedAttestations.count;
      missedAttestations.total += s.missedAttestations.total;
    }
    return {
      enabled: true,
      keys: v.keystore?.addresses.length ?? 0,
      tracked: all.length,
      ...(stats.lastProcessedSlot === undefined ? {} : { lastProcessedSlot: stats.lastProcessedSlot }),
      missedProposals,
      missedAttestations,
      recentSlots,
    };
  }
}

function blockSummary(block: L2Block, durationMs: number): StreamBlock {
  return {
    number: block.number,
    hash: block.hash().toString(),
    txCount: block.body.txEffects.length,
    mana: Number(block.header.totalManaUsed.value),
    timestamp: Number(block.timestamp),
    slot: block.slot,
    durationMs: round(durationMs),
  };
}

function production(s: ProductionStatus): StreamProduction {
  return { state: s.state, producer: s.producer, pausedBy: [...s.pausedBy], blockNumber: s.blockNumber };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
