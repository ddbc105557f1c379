import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RPC_ERROR_CODES } from '../../rpc/errors.js';
import { RPC_METHODS } from '../../rpc/method-table.js';
import type { Chain } from '../chain/chain.js';
import { L1_TX_KINDS, type L1Activity, type L1TxOutcome } from '../l1/l1-activity.js';
import type { L1Status } from '../l1/l1-monitor.js';
import type { Mempool } from '../mempool/mempool.js';
import type { TxDropReason } from '../mempool/tx-pool.js';
import type { TxRejectionCode } from '../mempool/tx-rejection.js';
import type { NodeEvents } from '../node-events.js';
import type { OperationsService } from '../operations/operations-service.js';
import type { P2PService } from '../p2p/p2p-service.js';
import { PACKAGE_VERSION } from '../package-version.js';
import type { PublicExecutionPool } from '../public-execution/public-execution-pool.js';
import type { Sequencer } from '../sequencer/sequencer.js';
import { TREES } from '../world-state/merkle-tree-id.js';
import { processMetrics } from './process-metrics.js';

/** One answered JSON-RPC call, as the dispatcher reports it: `code` is 0 for a result, else the error's code. */
export interface RpcCallObservation {
  readonly listener: 'public' | 'admin';
  readonly method: string;
  readonly seconds: number;
  readonly code: number;
}

export interface NodeMetricsSources {
  readonly chain: Chain;
  readonly mempool: Mempool;
  readonly operations: OperationsService;
  /** The mempool's changes (`pool`). */
  readonly events: NodeEvents;
  /** The dev sequencer, when this node builds its blocks (its build times). */
  readonly sequencer: Sequencer | undefined;
  /** A follower (--sync-from): the distance to its upstream is measured. */
  readonly follower: boolean;
  /** The node's L1, when it runs with one (--l1 anvil, --l1-rpc-urls): its latest reading, its publisher's txs. */
  readonly l1?: { status(): L1Status | undefined; readonly activity: L1Activity };
  readonly startedAt: Date;
  /** The libp2p peer, when P2P is on: its peer count and its gossip and req/resp totals. */
  readonly p2p?: P2PService;
  /** The public execution workers: their queue, the workers started, the jobs over budget. */
  readonly publicExecution?: PublicExecutionPool;
}

/** Latency buckets in seconds, from 0.5 ms to 10 s. */
const SECONDS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** An L1 tx's seconds, from building it to its receipt: a block or a few (12 s on mainnet, 1 s on a dev anvil). */
const L1_TX_SECONDS_BUCKETS = [0.5, 1, 2, 4, 8, 12, 16, 24, 36, 48, 60, 120, 300];

/** A label value outside the known set: one series for all of them, so no caller can add series at will. */
const OTHER = 'other';
/** The `method` label of a call to a method the table does not have. */
export const UNKNOWN_METHOD = 'unknown';

const METHOD_NAMES: ReadonlySet<string> = new Set(Object.keys(RPC_METHODS));
/** 0: a result. */
const RPC_CODES: ReadonlySet<number> = new Set([0, ...RPC_ERROR_CODES]);

/** The list of every member of the union T, checked at compile time: a member added to T and not here fails the build. */
function everyOf<T extends string>() {
  return <const L extends readonly T[]>(
    list: L & ([T] extends [L[number]] ? unknown : { missing: Exclude<T, L[number]> }),
  ) => new Set<string>(list);
}
const REJECTION_CODES = everyOf<TxRejectionCode | 'TX_INVALID'>()([
  'LOW_PRIORITY_FEE',
  'INSUFFICIENT_FEE_PAYER_BALANCE',
  'NULLIFIER_CONFLICT',
  'TX_INVALID',
]);
const DROP_REASONS = everyOf<TxDropReason>()([
  'replaced',
  'evicted',
  'insufficient_balance',
  'expired',
  'nullifier_spent',
  'anchor_reorged',
  'invalid_after_reorg',
  'block_building_failed',
  'rejected_upstream',
]);

const bounded = (known: ReadonlySet<string>, value: string) => (known.has(value) ? value : OTHER);

/**
 * The node's Prometheus series on prom-client, in a registry of this node's own (several nodes in one process
 * never share a series): chain height and tips, pool size and traffic, sync state and a follower's distance,
 * RPC calls and latencies by method and code, block build and apply times, world-state tree sizes, rollbacks
 * and snapshot uploads. Tips and sizes are read at scrape time; events and calls are counted as they happen
 * (`attach` subscribes once the chain runs). The scrape adds prom-client's default process series. Every label
 * takes its values from a fixed list (the method table, the error codes, the pool's codes and reasons), so no
 * caller can make the node keep more series.
 */
export class NodeMetrics {
  readonly registry = new Registry();
  private readonly rpcCalls: Counter<'listener' | 'method' | 'outcome' | 'code'>;
  private readonly rpcSeconds: Histogram<'method'>;
  private readonly applySeconds: Histogram;
  private readonly buildSeconds: Histogram;
  private readonly blocks: Counter;
  private readonly rollbacks: Counter<'rederived'>;
  private readonly snapshots: Counter<'result'>;
  private readonly poolAdded: Counter;
  private readonly poolDropped: Counter<'reason'>;
  private readonly poolRejected: Counter<'code'>;
  private readonly l1Txs: ((outcome: L1TxOutcome) => void) | undefined;
  private detach: (() => void)[] = [];
  private lastSnapshot: string | undefined;
  private scrape: Registry | undefined;

  constructor(private readonly s: NodeMetricsSources) {
    const registers = [this.registry];
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({ name, help, registers, collect: readInto(read) });
    const gaugeBy = (name: string, help: string, label: string, read: () => readonly (readonly [string, number])[]) =>
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers,
        collect() {
          const readings = tryRead(read);
          if (readings) for (const [value, v] of readings) this.set({ [label]: value }, v);
        },
      });

    // A constant 1 whose labels say what runs, for joins and upgrade dashboards (the Prometheus convention).
    new Gauge({
      name: 'l2node_build_info',
      help: 'Always 1; labels: the l2node version, the Node.js version, and the mode (dev or follower).',
      labelNames: ['version', 'nodejs', 'mode'],
      registers,
    }).set({ version: PACKAGE_VERSION, nodejs: process.version, mode: s.follower ? 'follower' : 'dev' }, 1);
    gauge(
      'l2node_block_height',
      'Latest block of the chain store (the proposed tip).',
      () => s.chain.latestBlockNumber,
    );
    gaugeBy('l2node_tip_block_number', 'Block number of each chain tip.', 'tip', () => {
      const tips = s.chain.readTips();
      return [
        ['proposed', tips.proposed.number],
        ['checkpointed', tips.checkpointed.block.number],
        ['proven', tips.proven.block.number],
        ['finalized', tips.finalized.block.number],
      ];
    });
    gauge(
      'l2node_checkpoint_number',
      'Latest checkpoint published to L1.',
      () => s.chain.store.checkpoints.latest()?.number ?? 0,
    );
    gauge('l2node_pending_txs', 'Pending txs in the mempool.', () => s.mempool.pendingTxCount());
    gauge('l2node_sync_paused', '1 while block production or sync is paused.', () =>
      s.operations.productionStatus().state === 'paused' ? 1 : 0,
    );
    if (s.follower) {
      // Before the first poll of the upstream there is no target: the last reading stays (0 at start).
      const status = () => s.operations.productionStatus();
      gauge(
        'l2node_sync_distance_blocks',
        'Blocks behind the upstream tip (follower mode).',
        () => status().distance ?? 0,
      );
      gauge(
        'l2node_sync_target_block_number',
        "The upstream's latest block (follower mode).",
        () => status().target ?? 0,
      );
    }
    if (s.l1) {
      const l1 = () => s.l1?.status();
      gauge('l2node_l1_up', '1 while the L1 answers the monitor, 0 while it does not.', () =>
        l1()?.reachable === false ? 0 : 1,
      );
      // The last readings stay while the L1 is down (l2node_l1_up says so).
      gauge('l2node_l1_block_number', "The L1's latest block.", () => l1()?.blockNumber ?? 0);
      gauge(
        'l2node_l1_publisher_balance_eth',
        "ETH of the L1 account that deploys and publishes (a float: Prometheus's values are doubles).",
        () => Number(l1()?.publisher.balanceWei ?? 0) / 1e18,
      );
    }
    // A service keeps running totals (bounded labels); each scrape reports them as counters.
    const totals = <L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      read: () => ReadonlyMap<string, number>,
    ) =>
      new Counter<L>({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          for (const [key, n] of read()) {
            const values = key.split('|');
            this.inc(Object.fromEntries(labelNames.map((l, i) => [l, values[i] ?? ''])) as Record<L, string>, n);
          }
        },
      });
    if (s.publicExecution) {
      const pool = s.publicExecution;
      gauge(
        'l2node_public_execution_queued',
        'Public execution jobs of callers waiting for a worker.',
        () => pool.queued,
      );
      totals(
        'l2node_public_execution_workers_started_total',
        'Public execution worker threads started, by pool (callers, blocks): a worker is replaced only when a job had to be terminated.',
        ['pool'],
        () => pool.stats.workersStarted,
      );
      totals(
        'l2node_public_execution_over_budget_total',
        'Public execution jobs stopped at their budget, by pool and how (deadline: by itself; terminated: its worker).',
        ['pool', 'stop'],
        () => pool.stats.overBudget,
      );
    }
    if (s.p2p) {
      const p2p = s.p2p;
      gauge('l2node_p2p_peers', 'Connected P2P peers.', () => p2p.status()?.peerCount ?? 0);
      totals(
        'l2node_p2p_gossip_messages_total',
        'Gossip messages by topic and outcome (published, accepted, duplicate, invalid, undecodable, rate_limited...).',
        ['topic', 'outcome'],
        () => p2p.stats.gossipMessages,
      );
      totals(
        'l2node_p2p_reqresp_total',
        'Req/resp exchanges by protocol, direction (inbound: served, outbound: asked) and outcome.',
        ['protocol', 'direction', 'outcome'],
        () => p2p.stats.reqrespCalls,
      );
      totals(
        'l2node_p2p_peer_penalties_total',
        'Penalties given to peers, by severity.',
        ['severity'],
        () => p2p.stats.penalties,
      );
    }
    gaugeBy('l2node_world_state_tree_leaves', 'Leaves of each world-state tree at the latest block.', 'tree', () => {
      const worldState = s.chain.worldState;
      return TREES.map((t) => [t.name, Number(worldState.getTreeInfo('latest', t.id).size)]);
    });
    gauge('l2node_snapshot_upload_running', '1 while a snapshot upload runs.', () =>
      s.operations.snapshotStatus().running ? 1 : 0,
    );
    gauge('l2node_process_uptime_seconds', 'Seconds since the node started.', () =>
      Math.round((Date.now() - s.startedAt.getTime()) / 1000),
    );

    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Counter<L>({ name, help, labelNames, registers });
    const seconds = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Histogram<L>({ name, help, labelNames, buckets: SECONDS_BUCKETS, registers });
    this.rpcCalls = counter(
      'l2node_rpc_requests_total',
      'JSON-RPC calls answered, by listener, method, outcome and JSON-RPC code (0: a result).',
      ['listener', 'method', 'outcome', 'code'],
    );
    this.rpcSeconds = seconds('l2node_rpc_request_duration_seconds', 'JSON-RPC call latency by method.', ['method']);
    this.applySeconds = seconds(
      'l2node_block_apply_duration_seconds',
      'Time applyBlock takes for one block: world state, chain store, pool, commit.',
    );
    this.buildSeconds = seconds(
      'l2node_block_build_duration_seconds',
      'Time the sequencer takes to build one block, from the pending txs to its commit (applyBlock included).',
    );
    this.blocks = counter('l2node_blocks_applied_total', 'Blocks applied since start.');
    this.rollbacks = counter('l2node_rollbacks_total', 'nodeAdmin_rollbackTo calls that removed blocks.', [
      'rederived',
    ]);
    this.snapshots = counter('l2node_snapshot_uploads_total', 'Snapshot uploads finished, by result.', ['result']);
    this.poolAdded = counter('l2node_mempool_txs_added_total', 'Txs node_sendTx added to the mempool.');
    this.poolDropped = counter(
      'l2node_mempool_txs_dropped_total',
      'Txs that left the mempool unmined, by reason (evicted, replaced, expired, nullifier_spent...).',
      ['reason'],
    );
    this.poolRejected = counter(
      'l2node_mempool_txs_rejected_total',
      'Txs node_sendTx refused, by code (LOW_PRIORITY_FEE, INSUFFICIENT_FEE_PAYER_BALANCE, NULLIFIER_CONFLICT, TX_INVALID).',
      ['code'],
    );
    if (s.l1) {
      const txs = counter('l2node_l1_txs_total', 'L1 txs the publisher sent or tried, by kind and outcome.', [
        'kind',
        'outcome',
      ]);
      const gasUsed = counter('l2node_l1_gas_used_total', "L1 gas the publisher's txs used, by kind.", ['kind']);
      const blobGasUsed = counter('l2node_l1_blob_gas_used_total', "Blob gas the publisher's proposals used.");
      const txSeconds = new Histogram<'kind'>({
        name: 'l2node_l1_tx_seconds',
        help: 'Seconds from building an L1 tx to its receipt (or its failure), by kind.',
        labelNames: ['kind'],
        buckets: L1_TX_SECONDS_BUCKETS,
        registers: [this.registry],
      });
      // Every series from the start, at 0: a rate over a fresh node is 0, not absent.
      for (const kind of L1_TX_KINDS) {
        for (const outcome of ['ok', 'failed']) txs.inc({ kind, outcome }, 0);
        gasUsed.inc({ kind }, 0);
      }
      this.l1Txs = (o) => {
        txs.inc({ kind: o.kind, outcome: o.ok ? 'ok' : 'failed' });
        if (o.gasUsed !== undefined) gasUsed.inc({ kind: o.kind }, Number(o.gasUsed));
        if (o.blobGasUsed !== undefined) blobGasUsed.inc(Number(o.blobGasUsed));
        txSeconds.observe({ kind: o.kind }, o.seconds);
      };
    }
  }

  /** Subscribes to the chain, pool, sequencer and operations events. */
  attach(): void {
    const { chain, operations, events, sequencer } = this.s;
    this.detach.push(
      chain.events.on('block', (e) => {
        this.blocks.inc();
        this.applySeconds.observe(e.durationMs / 1000);
      }),
      events.on('pool', (change) => {
        if (change.kind === 'added') this.poolAdded.inc();
        else if (change.kind === 'rejected') this.poolRejected.inc({ code: bounded(REJECTION_CODES, change.code) });
        else for (const reason of change.reasons) this.poolDropped.inc({ reason: bounded(DROP_REASONS, reason) });
      }),
      operations.events.on('rollback', (e) => {
        if (e.removedBlocks > 0) this.rollbacks.inc({ rederived: String(e.rederived) });
      }),
      operations.events.on('snapshot', (e) => {
        if (!e.running && e.last && e.last.finishedAt !== this.lastSnapshot) {
          this.lastSnapshot = e.last.finishedAt;
          this.snapshots.inc({ result: e.last.ok ? 'ok' : 'failed' });
        }
      }),
    );
    if (sequencer) this.detach.push(sequencer.onBlockBuilt((b) => this.buildSeconds.observe(b.seconds)));
    const { l1 } = this.s;
    if (l1 && this.l1Txs) this.detach.push(l1.activity.onRecord(this.l1Txs));
  }

  detachAll(): void {
    for (const off of this.detach) off();
    this.detach = [];
  }

  observeRpc(call: RpcCallObservation): void {
    const method = METHOD_NAMES.has(call.method) ? call.method : UNKNOWN_METHOD;
    const code = RPC_CODES.has(call.code) ? String(call.code) : OTHER;
    this.rpcCalls.inc({ listener: call.listener, method, outcome: call.code === 0 ? 'ok' : 'error', code });
    this.rpcSeconds.observe({ method }, call.seconds);
  }

  /** The exposition text (Prometheus 0.0.4) of this node's series and the process's. */
  async render(): Promise<string> {
    this.scrape ??= Registry.merge([processMetrics(), this.registry]);
    return this.scrape.metrics();
  }

  /** The content type of `render`'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }
}

/** A reading that fails (the store closing under a scrape) is skipped: the series keeps its last value. */
function tryRead<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

function readInto(read: () => number): (this: Gauge) => void {
  return function (this: Gauge) {
    const v = tryRead(read);
    if (v !== undefined) this.set(v);
  };
}
