import type { BlockProducer } from '../chain/block-producer.js';
import type { ChainState } from '../chain/chain-state.js';
import type { NodeConfig, SettingKey } from '../config/settings.js';
import type { NodeState } from '../lifecycle/node-state.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { Mempool } from '../mempool/mempool.js';
import { NO_SNAPSHOT_YET, type SnapshotStatus } from '../snapshots/snapshot-status.js';
import type { SnapshotUploader } from '../snapshots/snapshot-uploader.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { type RollbackResult, rollbackChain } from './chain-rollback.js';
import { OperationLock } from './operation-lock.js';
import { OperationsEvents } from './operations-events.js';
import { type ProductionStatus, productionStatus } from './production-status.js';
import { type ConfigChange, ConfigUpdateError, RuntimeConfig } from './runtime-config.js';
import { SyncControl } from './sync-control.js';

export interface OperationsServiceOptions {
  /** The one config object every service reads; setConfig changes it in place. */
  readonly config: NodeConfig;
  readonly db: SqliteDatabase;
  readonly chain: ChainState;
  readonly mempool: Mempool;
  /** What feeds blocks into the chain: the sequencer, or a follower's block source. */
  readonly producer: BlockProducer;
  readonly nodeState: () => NodeState;
  readonly now: () => number;
  readonly log: Logger;
}

/**
 * The admin operations (spec part 4, admin operations; issue 8) over the running services: the runtime
 * configuration, pausing and resuming block production or sync, rollbacks and snapshot uploads. Every change
 * is announced on `events` (the dashboard, the ws stream). Started after the services it drives and stopped
 * before them, so a running snapshot ends before the database closes.
 */
export class OperationsService implements Service {
  readonly name = 'operations';
  readonly events: OperationsEvents;
  readonly sync: SyncControl;
  readonly config: RuntimeConfig;
  /**
   * The snapshot uploader, loaded with the first upload, or at start on a data directory (to remove an interrupted
   * upload's copy): its modules (node:fs/promises, zlib streams, the object stores' clients) were part of every
   * start's time, and most nodes never upload.
   */
  #uploader: SnapshotUploader | undefined;
  #loadingUploader: Promise<SnapshotUploader> | undefined;
  private readonly lock = new OperationLock();

  constructor(private readonly o: OperationsServiceOptions) {
    this.events = new OperationsEvents((event, err) =>
      o.log.error({ err, event }, `a ${event} listener failed: ${(err as Error).message}`),
    );
    this.sync = new SyncControl(o.producer, () => this.events.emit('sync', this.productionStatus()));
    this.config = new RuntimeConfig(o.config, (changed) => this.applyConfig(changed));
  }

  async start(): Promise<void> {
    if (this.o.config.dataDirectory) await (await this.uploader()).removeLeftovers();
  }

  async stop(): Promise<void> {
    const uploader = await this.#loadingUploader?.catch(() => undefined);
    await uploader?.stop();
  }

  /** The uploader, made with its first use (see #uploader). */
  private uploader(): Promise<SnapshotUploader> {
    const o = this.o;
    this.#loadingUploader ??= import('../snapshots/snapshot-uploader.js').then(
      ({ SnapshotUploader }) =>
        (this.#uploader = new SnapshotUploader({
          db: o.db,
          chain: o.chain.chain,
          l1ChainId: o.config.l1ChainId,
          rollupVersion: o.config.rollupVersion,
          dataDirectory: o.config.dataDirectory,
          uploadRoots: o.config.snapshotUploadRoots,
          objectStores: {
            s3Endpoint: o.config.snapshotS3Endpoint,
            gcsEndpoint: o.config.snapshotGcsEndpoint,
            metadataCredentials: o.config.snapshotS3MetadataCredentials,
          },
          whilePaused: (copy) => this.lock.run(() => this.whilePaused('snapshot', copy)),
          now: o.now,
          log: o.log,
          onStatus: (status) => this.events.emit('snapshot', status),
        })),
    );
    return this.#loadingUploader;
  }

  /** nodeAdmin_setConfig: all keys or none; the changes apply at once. */
  setConfig(partial: Readonly<Record<string, unknown>>): ConfigChange {
    if ('slotDuration' in partial && this.o.chain.timeFromL1) {
      throw new ConfigUpdateError([
        `slotDuration is the L1 rollup's (${this.o.config.slotDuration} s) on a node with an L1: checkpoints must land in the rollup's slots`,
      ]);
    }
    const changed = this.config.set(partial);
    if (Object.keys(changed).length > 0) {
      this.o.log.info({ changed }, `config changed: ${Object.keys(changed).join(', ')}`);
      this.events.emit('config', { changed });
    }
    return changed;
  }

  /** nodeAdmin_pauseSync: idempotent; resolves once no block is in flight. */
  async pauseSync(): Promise<void> {
    const was = this.sync.pausedBy.includes('operator');
    await this.sync.hold('operator');
    if (!was) this.o.log.info({ producer: this.o.producer.name }, 'block production paused by the operator');
  }

  /** nodeAdmin_resumeSync: idempotent; production restarts unless a rollback or snapshot still holds it. */
  resumeSync(): void {
    if (!this.sync.pausedBy.includes('operator')) return;
    this.sync.release('operator');
    this.o.log.info({ pausedBy: this.sync.pausedBy }, 'block production resumed by the operator');
  }

  /** nodeAdmin_rollbackTo: production is paused around it and resumes after (unless the operator paused it). */
  rollbackTo(target: number, force: boolean): Promise<RollbackResult> {
    return this.lock.run(() =>
      this.whilePaused('rollback', async () => {
        const result = rollbackChain(
          {
            chain: this.o.chain.chain,
            clearPool: () => this.o.mempool.clearPool(),
            isPending: (txHash) => this.o.mempool.pool.getPending(txHash) !== undefined,
          },
          target,
          force,
        );
        this.o.log.warn(
          { ...result },
          `rolled back to block ${target}: ${result.removedBlocks} blocks removed, ${result.returnedTxs} of their ${result.removedTxs} txs back in the pool${result.rederived ? ', world state and pool data re-derived from the stored blocks' : ''}`,
        );
        this.events.emit('rollback', result);
        return result;
      }),
    );
  }

  /** Runs `fn` with production paused and no other operation running (the dev chain's revert to a snapshot). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.run(() => this.whilePaused('rollback', fn));
  }

  /** nodeAdmin_startSnapshotUpload: returns once the upload started; it runs in the background. */
  async startSnapshotUpload(location: string): Promise<void> {
    return (await this.uploader()).start(location);
  }

  productionStatus(): ProductionStatus {
    return productionStatus({
      nodeState: this.o.nodeState(),
      producer: this.o.producer,
      pausedBy: this.sync.pausedBy,
      blockNumber: this.o.chain.chain.latestBlockNumber,
    });
  }

  snapshotStatus(): SnapshotStatus {
    return this.#uploader?.status() ?? NO_SNAPSHOT_YET;
  }

  private async whilePaused<T>(reason: 'rollback' | 'snapshot', fn: () => Promise<T>): Promise<T> {
    try {
      // Inside the try: a producer that fails to pause must not keep the hold (and production stopped) forever.
      await this.sync.hold(reason);
      return await fn();
    } finally {
      this.sync.release(reason);
    }
  }

  /** What a change needs beyond the new value on the config object, which services read when they use it. */
  private applyConfig(changed: readonly SettingKey[]): void {
    const keys = new Set(changed);
    if (keys.has('maxPendingTxCount')) {
      const evicted = this.o.mempool.applyPoolLimit();
      if (evicted > 0) this.o.log.info({ evicted }, `evicted ${evicted} txs over the new pool limit`);
    }
    if (keys.has('slotDuration') || keys.has('blocksPerSlot')) {
      const from = this.o.chain.retimeSlots({
        slotDuration: this.o.config.slotDuration,
        blocksPerSlot: this.o.config.blocksPerSlot,
      });
      this.o.log.info({ fromSlot: from }, `slot timing changes from slot ${from}`);
    }
  }
}
