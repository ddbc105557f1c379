import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import Database from 'better-sqlite3';
import { toHex64 } from '../../core/fr.js';
import type { Chain } from '../chain/chain.js';
import type { Logger } from '../logging/logger.js';
import { TxPoolRepository } from '../mempool/tx-pool-repository.js';
import type { SqliteDatabase } from '../store/node-database.js';
import type { ObjectStoreEndpoints } from './object-store.js';
import { parseSnapshotIndex, type SnapshotEntry, type SnapshotIndex, snapshotFolder } from './snapshot-index.js';
import { SnapshotRefusedError } from './snapshot-refused-error.js';
import { NO_SNAPSHOT_YET, type SnapshotPhase, type SnapshotResult, type SnapshotStatus } from './snapshot-status.js';
import { describeFileError, openSnapshotStore, type SnapshotStore } from './snapshot-store.js';
import { parseSnapshotUrl } from './snapshot-url.js';
import { checkUploadDestination } from './upload-destination.js';

export interface SnapshotUploaderOptions {
  readonly db: SqliteDatabase;
  readonly chain: Chain;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  /** Temporary copies go under it (beside the database); without one, under the OS temp directory. */
  readonly dataDirectory: string | undefined;
  /** --snapshot-upload-roots: the directories file:// uploads may write under (unset: anywhere allowed). */
  readonly uploadRoots: readonly string[] | undefined;
  /** Where s3:// and gs:// locations are reached. */
  readonly objectStores: ObjectStoreEndpoints;
  /** Runs `copy` with block production paused and no rollback running. */
  readonly whilePaused: <T>(copy: () => Promise<T>) => Promise<T>;
  readonly now: () => number;
  readonly log: Logger;
  /** Every change of the status (phases, throttled progress, the result): for the dashboard's event. */
  readonly onStatus: (status: SnapshotStatus) => void;
}

/** The chain tip a snapshot holds, read while production is paused. */
interface SnapshotTip {
  readonly blockNumber: number;
  readonly blockHash: string;
  readonly l1BlockNumber: number;
  readonly genesisBlockHash: string;
  readonly rollupAddress: string;
}

/** Database pages copied per step of the online backup (4 MiB of 4 KiB pages): the event loop runs between steps. */
const PAGES_PER_STEP = 1024;
const PROGRESS_EVERY_MS = 250;
/** Temporary copies are made in a fresh `<data directory>/.snapshot-<random>/` folder (mkdtemp). */
const TEMP_PREFIX = '.snapshot-';

/**
 * nodeAdmin_startSnapshotUpload (docs/aztec-facts.md section 6.2): in the background, a consistent copy of the node
 * database (SQLite's online backup, with block production paused only while it copies), without the pool's txs,
 * gzip-compressed, sent to a file://, http(s)://, s3:// or gs:// location with an index.json that lists it newest
 * first.
 * One upload at a time; its progress and the last result are in `status()`.
 */
export class SnapshotUploader {
  #status: SnapshotStatus = NO_SNAPSHOT_YET;
  #job: Promise<void> | undefined;
  #abort: AbortController | undefined;
  #lastProgressAt = 0;

  constructor(private readonly o: SnapshotUploaderOptions) {}

  status(): SnapshotStatus {
    return this.#status;
  }

  /**
   * Starts an upload. Throws SettingParseError for a location it cannot write to, and SnapshotRefusedError when an
   * upload already runs or the chain has no block yet; the promise resolves once what can be checked beforehand
   * passed (the destination directory, the object store's credentials), or rejects with a SnapshotRefusedError.
   */
  start(location: string): Promise<void> {
    const url = parseSnapshotUrl(location);
    checkUploadDestination(location, url, { dataDirectory: this.o.dataDirectory, allowedRoots: this.o.uploadRoots });
    if (this.#job) {
      throw new SnapshotRefusedError(
        `Snapshot upload already in progress (to ${this.#status.location}, ${this.#status.phase ?? 'starting'}); ` +
          'start another one once it is complete (GET /status shows its progress)',
      );
    }
    if (this.o.chain.latestBlockNumber === 0) {
      throw new SnapshotRefusedError('The chain has no block yet: there is nothing to snapshot');
    }
    const store = openSnapshotStore(url, this.o.objectStores);
    const abort = new AbortController();
    const checked = store.check();
    // The slot is taken at once, before the check resolves: a second start meanwhile is refused.
    this.#abort = abort;
    this.update({ running: true, location: url, startedAt: new Date(this.o.now()).toISOString(), last: this.last });
    this.#job = checked
      .then(
        () => this.run(url, store, abort.signal),
        // Refused before it began: the status goes back to the last upload's.
        () => this.update({ running: false, last: this.last }),
      )
      .finally(() => {
        store.close();
        this.#job = undefined;
        this.#abort = undefined;
      });
    return checked.catch((err: Error) => {
      throw new SnapshotRefusedError(err.message);
    });
  }

  /** Removes the temporary copies an upload cut short by a crash left in the data directory. */
  async removeLeftovers(): Promise<void> {
    const dir = this.o.dataDirectory;
    if (!dir) return;
    const entries = await readdir(dir).catch(() => [] as string[]);
    for (const e of entries.filter((name) => name.startsWith(TEMP_PREFIX))) {
      await rm(join(dir, e), { recursive: true, force: true });
      this.o.log.info({ path: join(dir, e) }, 'removed the temporary copy of an interrupted snapshot upload');
    }
  }

  /** Resolves when no upload runs (the running one finished, either way). */
  async idle(): Promise<void> {
    await this.#job;
  }

  /** Stops a running upload (the node is stopping) and waits until it has cleaned up. */
  async stop(): Promise<void> {
    this.#abort?.abort(new Error('the node is stopping'));
    await this.#job;
  }

  private get last(): SnapshotResult | undefined {
    return this.#status.last;
  }

  private async run(location: string, store: SnapshotStore, signal: AbortSignal): Promise<void> {
    const started = this.o.now();
    const dir = await mkdtemp(join(this.o.dataDirectory ?? tmpdir(), TEMP_PREFIX));
    const copy = join(dir, 'database.db');
    const zipped = join(dir, 'database.db.gz');
    try {
      this.phase('pausing');
      const tip = await this.o.whilePaused(async () => {
        this.phase('copying');
        const tip = this.readTip();
        this.update({ ...this.#status, blockNumber: tip.blockNumber });
        await this.o.db.backup(copy, {
          progress: ({ totalPages, remainingPages }) => {
            if (signal.aborted) throw signal.reason;
            this.progress(totalPages - remainingPages, totalPages, 'pages');
            return PAGES_PER_STEP;
          },
        });
        return tip;
      });
      const schema = prepareCopy(copy);
      this.phase('compressing');
      const { sha256, size } = await compress(copy, zipped, signal, (bytes, total) =>
        this.progress(bytes, total, 'bytes'),
      );
      this.phase('uploading');
      const folder = snapshotFolder(this.o.l1ChainId, this.o.rollupVersion);
      // The name carries the file's own checksum: two uploads of one block in the same second (from this node or
      // another) never write one name with different bytes, so every index entry's sha256 matches its file.
      const dataName = `${folder}/database-${stamp(started)}-${tip.blockHash}-${sha256.slice(0, 16)}.db.gz`;
      await store.upload(dataName, zipped, (bytes) => this.progress(bytes, size, 'bytes'), signal);
      const entry: SnapshotEntry = {
        l2BlockNumber: tip.blockNumber,
        l2BlockHash: tip.blockHash,
        l1BlockNumber: tip.l1BlockNumber,
        timestamp: started,
        schemaVersions: schema,
        genesisBlockHash: tip.genesisBlockHash,
        dataUrls: { database: store.urlOf(dataName) },
        sha256: { database: sha256 },
        sizes: { database: size },
      };
      const indexName = `${folder}/index.json`;
      const index = await this.readIndex(store, indexName, tip, signal);
      const updated: SnapshotIndex = { ...index, snapshots: [entry, ...index.snapshots] };
      await store.writeText(indexName, `${JSON.stringify(updated, null, 2)}\n`, 'application/json', signal);
      const result: SnapshotResult = {
        ok: true,
        location,
        indexUrl: store.urlOf(indexName),
        dataUrl: entry.dataUrls.database,
        blockNumber: tip.blockNumber,
        blockHash: tip.blockHash,
        bytes: size,
        finishedAt: new Date(this.o.now()).toISOString(),
        durationMs: this.o.now() - started,
      };
      this.o.log.info(result, `snapshot of block ${tip.blockNumber} uploaded to ${result.indexUrl}`);
      this.update({ running: false, last: result });
    } catch (err) {
      const error = signal.aborted ? `aborted: ${(signal.reason as Error).message}` : describeFileError(err);
      this.o.log.error({ location, err: error }, `snapshot upload to ${location} failed: ${error}`);
      this.update({
        running: false,
        last: { ok: false, location, error, finishedAt: new Date(this.o.now()).toISOString() },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private readTip(): SnapshotTip {
    const chain = this.o.chain;
    const blockNumber = chain.latestBlockNumber;
    const hash = chain.store.getBlockHash(blockNumber);
    if (hash === undefined) throw new Error(`block ${blockNumber} is not stored`);
    return {
      blockNumber,
      blockHash: toHex64(hash),
      l1BlockNumber: Number(chain.store.checkpoints.latest()?.l1.blockNumber ?? 0n),
      genesisBlockHash: toHex64(chain.worldState.getGenesisBlockHash()),
      rollupAddress: chain.settlement.l1ContractAddresses().rollupAddress,
    };
  }

  /** The location's index of this chain, or a new one; an index of another chain there is an error. */
  private async readIndex(
    store: SnapshotStore,
    name: string,
    tip: SnapshotTip,
    signal: AbortSignal,
  ): Promise<SnapshotIndex> {
    const text = await store.readText(name, signal);
    const fresh = {
      l1ChainId: this.o.l1ChainId,
      rollupVersion: this.o.rollupVersion,
      rollupAddress: tip.rollupAddress,
      snapshots: [],
    };
    if (text === undefined) return fresh;
    const index = parseSnapshotIndex(text, store.urlOf(name));
    if (index.l1ChainId !== this.o.l1ChainId || index.rollupVersion !== this.o.rollupVersion) {
      throw new Error(
        `${store.urlOf(name)} indexes chain ${index.l1ChainId} version ${index.rollupVersion}, not this node's ` +
          `(${this.o.l1ChainId}, ${this.o.rollupVersion})`,
      );
    }
    return index;
  }

  private phase(phase: SnapshotPhase): void {
    const { progress: _, ...rest } = this.#status;
    this.update({ ...rest, phase });
  }

  private progress(done: number, total: number, unit: 'pages' | 'bytes'): void {
    this.#status = { ...this.#status, progress: { done, total, unit } };
    const now = Date.now();
    if (now - this.#lastProgressAt < PROGRESS_EVERY_MS && done < total) return;
    this.#lastProgressAt = now;
    this.o.onStatus(this.#status);
  }

  private update(status: SnapshotStatus): void {
    this.#status = status;
    this.o.onStatus(status);
  }
}

/**
 * Makes the copy a snapshot: the pool's txs are left out (a node restoring it starts with an empty pool, as the
 * 4.1.2 deletes its p2p store), it becomes a single self-contained file, and its schema is read.
 */
function prepareCopy(path: string): SnapshotEntry['schemaVersions'] {
  const db = new Database(path);
  try {
    const pool = new TxPoolRepository(db);
    db.transaction(() => {
      pool.clear();
      pool.bumpToken();
    })();
    db.pragma('journal_mode = DELETE');
    db.exec('VACUUM');
    const migrations = (
      db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]
    ).map((r) => r.version);
    return { database: db.pragma('user_version', { simple: true }) as number, migrations };
  } finally {
    db.close();
  }
}

async function compress(
  from: string,
  to: string,
  signal: AbortSignal,
  onProgress: (bytes: number, total: number) => void,
): Promise<{ sha256: string; size: number }> {
  const total = (await stat(from)).size;
  let read = 0;
  const hash = createHash('sha256');
  await pipeline(
    createReadStream(from),
    new Transform({
      transform(chunk: Buffer, _e, done) {
        read += chunk.length;
        onProgress(read, total);
        done(null, chunk);
      },
    }),
    createGzip(),
    new Transform({
      transform(chunk: Buffer, _e, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    }),
    createWriteStream(to),
    { signal },
  );
  return { sha256: hash.digest('hex'), size: (await stat(to)).size };
}

/** YYYYMMDDhhmmss (UTC), as 4.1.2 names its data files. */
function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
