import type { Chain } from '../chain/chain.js';
import type { Mempool } from '../mempool/mempool.js';
import type { OperationsService } from '../operations/operations-service.js';
import { type Labels, MetricsRegistry } from './metrics-registry.js';

/** One answered JSON-RPC call, as the dispatcher reports it. */
export interface RpcCallObservation {
  readonly listener: 'public' | 'admin';
  readonly method: string;
  readonly seconds: number;
  readonly ok: boolean;
}

export interface NodeMetricsSources {
  readonly chain: Chain;
  readonly mempool: Mempool;
  readonly operations: OperationsService;
  readonly startedAt: Date;
}

/**
 * The node's Prometheus series: chain height and tips, pool size, sync state, RPC calls and latencies by
 * method, block apply time, rollbacks and snapshot uploads, and a little about the process. Tips and sizes are
 * read at scrape time; events and calls are counted as they happen (`attach` subscribes once the chain runs).
 */
export class NodeMetrics {
  readonly registry = new MetricsRegistry();
  private readonly rpcCalls: (labels?: Labels, by?: number) => void;
  private readonly rpcSeconds: (v: number, l?: Labels) => void;
  private readonly applySeconds: (v: number, l?: Labels) => void;
  private readonly blocks: (labels?: Labels, by?: number) => void;
  private readonly rollbacks: (labels?: Labels, by?: number) => void;
  private readonly snapshots: (labels?: Labels, by?: number) => void;
  private detach: (() => void)[] = [];

  constructor(private readonly s: NodeMetricsSources) {
    const r = this.registry;
    r.gauge(
      'l2node_block_height',
      'Latest block of the chain store (the proposed tip).',
      () => s.chain.latestBlockNumber,
    );
    r.gauge('l2node_tip_block_number', 'Block number of each chain tip.', () => {
      const tips = s.chain.readTips();
      return [
        [{ tip: 'proposed' }, tips.proposed.number],
        [{ tip: 'checkpointed' }, tips.checkpointed.block.number],
        [{ tip: 'proven' }, tips.proven.block.number],
        [{ tip: 'finalized' }, tips.finalized.block.number],
      ];
    });
    r.gauge(
      'l2node_checkpoint_number',
      'Latest checkpoint published to L1.',
      () => s.chain.store.checkpoints.latest()?.number ?? 0,
    );
    r.gauge('l2node_pending_txs', 'Pending txs in the mempool.', () => s.mempool.pendingTxCount());
    r.gauge('l2node_sync_paused', '1 while block production or sync is paused.', () =>
      s.operations.productionStatus().state === 'paused' ? 1 : 0,
    );
    r.gauge(
      'l2node_sync_distance_blocks',
      'Blocks behind the upstream tip (follower mode).',
      () => s.operations.productionStatus().distance,
    );
    r.gauge('l2node_snapshot_upload_running', '1 while a snapshot upload runs.', () =>
      s.operations.snapshotStatus().running ? 1 : 0,
    );
    this.rpcCalls = r.counter('l2node_rpc_requests_total', 'JSON-RPC calls answered, by listener, method and outcome.');
    this.rpcSeconds = r.histogram('l2node_rpc_request_duration_seconds', 'JSON-RPC call latency by method.');
    this.applySeconds = r.histogram(
      'l2node_block_apply_duration_seconds',
      'Time applyBlock takes for one block: world state, chain store, pool, commit.',
    );
    this.blocks = r.counter('l2node_blocks_applied_total', 'Blocks applied since start.');
    this.rollbacks = r.counter('l2node_rollbacks_total', 'nodeAdmin_rollbackTo calls that removed blocks.');
    this.snapshots = r.counter('l2node_snapshot_uploads_total', 'Snapshot uploads finished, by result.');
    r.gauge('l2node_process_uptime_seconds', 'Seconds since the node started.', () =>
      Math.round((Date.now() - s.startedAt.getTime()) / 1000),
    );
    r.gauge('l2node_process_resident_memory_bytes', 'Resident set size of the node process.', () =>
      process.memoryUsage.rss(),
    );
  }

  /** Subscribes to the chain and operations events. */
  attach(): void {
    const { chain, operations } = this.s;
    this.detach.push(
      chain.events.on('block', (e) => {
        this.blocks();
        this.applySeconds(e.durationMs / 1000);
      }),
      operations.events.on('rollback', (e) => {
        if (e.removedBlocks > 0) this.rollbacks({ rederived: String(e.rederived) });
      }),
      operations.events.on('snapshot', (e) => {
        if (!e.running && e.last && e.last.finishedAt !== this.lastSnapshot) {
          this.lastSnapshot = e.last.finishedAt;
          this.snapshots({ result: e.last.ok ? 'ok' : 'failed' });
        }
      }),
    );
  }

  detachAll(): void {
    for (const off of this.detach) off();
    this.detach = [];
  }

  observeRpc(call: RpcCallObservation): void {
    this.rpcCalls({ listener: call.listener, method: call.method, outcome: call.ok ? 'ok' : 'error' });
    this.rpcSeconds(call.seconds, { method: call.method });
  }

  render(): string {
    return this.registry.render();
  }

  private lastSnapshot: string | undefined;
}
