import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import Database from 'better-sqlite3';
import { BlockHeader } from '../../core/block/block-header.js';
import { toHex64 } from '../../core/fr.js';
import type { Logger } from '../logging/logger.js';
import { TxPoolRepository } from '../mempool/tx-pool-repository.js';
import { LOCK_FILE, LOCK_HOLDER_FILE } from '../store/data-directory-lock.js';
import { MIGRATIONS } from '../store/migrations/index.js';
import { NODE_DATABASE_FILE } from '../store/node-database.js';
import type { ObjectStoreEndpoints } from './object-store.js';
import { parseSnapshotIndex, type SnapshotEntry, type SnapshotIndex, snapshotFolder } from './snapshot-index.js';
import { downloadToFile, readUrlText } from './snapshot-store.js';

/** Start-up from a snapshot refused or failed; the message says why and what to do. */
export class SnapshotBootstrapError extends Error {
  override name = 'SnapshotBootstrapError';
}

export interface SnapshotBootstrapOptions {
  /** The index.json URL, or the location snapshots were uploaded to (file://, http(s)://, s3:// or gs://). */
  readonly snapshotUrl: string;
  /** Where s3:// and gs:// URLs (the index's or its data files') are reached. */
  readonly objectStores: ObjectStoreEndpoints;
  readonly dataDirectory: string | undefined;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  /** This node's genesis block hash (its prefunded accounts): a snapshot of another genesis is another chain. */
  readonly genesisBlockHash: () => bigint;
  readonly log: Logger;
}

export interface BootstrapResult {
  readonly blockNumber: number;
  readonly blockHash: string;
  readonly dataUrl: string;
}

const DOWNLOAD = '.bootstrap-download.gz';
const RESTORE = '.bootstrap-restore.sqlite';
/** What may already be in a data directory that counts as empty: the admin key folder, leftovers of a failed try. */
// The lock files: the node took the directory's lock before bootstrapping into it.
const IGNORABLE = new Set([
  LOCK_FILE,
  `${LOCK_FILE}-journal`,
  LOCK_HOLDER_FILE,
  'admin',
  DOWNLOAD,
  RESTORE,
  `${RESTORE}-journal`,
  `${RESTORE}-wal`,
  `${RESTORE}-shm`,
]);

/**
 * `--snapshot-url` (docs/aztec-facts.md section 6.2, bootstrap): on an empty data directory, takes the newest
 * snapshot of the index that this node can use (same chain id, rollup version and genesis, a schema it knows),
 * downloads it, checks it (size and SHA-256, SQLite's integrity check, the schema, the tip's block hash against
 * its header and the index) and only then puts it in place as the node database, with an empty pool. A
 * candidate that fails a check is removed and the next one is tried. Nothing is left behind on failure.
 */
export async function bootstrapFromSnapshot(o: SnapshotBootstrapOptions): Promise<BootstrapResult> {
  const dir = o.dataDirectory;
  if (!dir) {
    throw new SnapshotBootstrapError(
      '--snapshot-url needs --data-directory: the snapshot is restored into it (an in-memory node has none)',
    );
  }
  await refuseNonEmpty(dir);
  const indexUrl = o.snapshotUrl.endsWith('.json')
    ? o.snapshotUrl
    : `${o.snapshotUrl}/${snapshotFolder(o.l1ChainId, o.rollupVersion)}/index.json`;
  const text = await readUrlText(indexUrl, o.objectStores).catch((err: Error) => {
    throw new SnapshotBootstrapError(`cannot read the snapshot index ${indexUrl}: ${err.message}`);
  });
  if (text === undefined) throw new SnapshotBootstrapError(`there is no snapshot index at ${indexUrl}`);
  let index: SnapshotIndex;
  try {
    index = parseSnapshotIndex(text, indexUrl);
  } catch (err) {
    throw new SnapshotBootstrapError((err as Error).message);
  }
  const genesis = toHex64(o.genesisBlockHash());
  const { usable, refusals } = compatible(index, o, genesis);
  if (usable.length === 0) {
    throw new SnapshotBootstrapError(
      `no snapshot in ${indexUrl} fits this node: ${refusals.join('; ') || 'the index lists none'}`,
    );
  }
  await mkdir(dir, { recursive: true });
  const failures: string[] = [];
  for (const entry of usable) {
    try {
      await restore(entry, dir, o);
      o.log.info(
        { blockNumber: entry.l2BlockNumber, blockHash: entry.l2BlockHash, dataUrl: entry.dataUrls.database },
        `bootstrapped the data directory from the snapshot of block ${entry.l2BlockNumber}`,
      );
      return { blockNumber: entry.l2BlockNumber, blockHash: entry.l2BlockHash, dataUrl: entry.dataUrls.database };
    } catch (err) {
      const why = `block ${entry.l2BlockNumber} (${entry.dataUrls.database}): ${(err as Error).message}`;
      o.log.warn({ err: (err as Error).message, dataUrl: entry.dataUrls.database }, `snapshot refused: ${why}`);
      failures.push(why);
    } finally {
      await rm(join(dir, DOWNLOAD), { force: true });
      for (const suffix of ['', '-journal', '-wal', '-shm'])
        await rm(join(dir, `${RESTORE}${suffix}`), { force: true });
    }
  }
  throw new SnapshotBootstrapError(`every usable snapshot of ${indexUrl} failed its checks: ${failures.join('; ')}`);
}

async function refuseNonEmpty(dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  const entries = (await readdir(dir)).filter((e) => !IGNORABLE.has(e));
  if (entries.length === 0) return;
  const what = entries.includes(NODE_DATABASE_FILE)
    ? `it already holds a node database (${NODE_DATABASE_FILE})`
    : `it is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', ...' : ''})`;
  throw new SnapshotBootstrapError(
    `refusing to bootstrap ${dir} from a snapshot: ${what}. Start without --snapshot-url to keep it, or use an ` +
      'empty --data-directory',
  );
}

/** The snapshots this node can start from, newest first, and why each other one cannot be used. */
function compatible(
  index: SnapshotIndex,
  o: SnapshotBootstrapOptions,
  genesis: string,
): { usable: SnapshotEntry[]; refusals: string[] } {
  if (index.l1ChainId !== o.l1ChainId || index.rollupVersion !== o.rollupVersion) {
    return {
      usable: [],
      refusals: [
        `the index is of chain ${index.l1ChainId} version ${index.rollupVersion}, this node runs chain ` +
          `${o.l1ChainId} version ${o.rollupVersion} (--l1-chain-id, --rollup-version)`,
      ],
    };
  }
  const known = new Set(MIGRATIONS.map((m) => m.version));
  const refusals: string[] = [];
  const usable = index.snapshots.filter((s) => {
    const unknown = s.schemaVersions.migrations.filter((v) => !known.has(v));
    if (unknown.length > 0) {
      refusals.push(`block ${s.l2BlockNumber}: schema steps ${unknown.join(', ')} are unknown to this l2node (newer)`);
      return false;
    }
    if (s.genesisBlockHash !== genesis) {
      refusals.push(
        `block ${s.l2BlockNumber}: genesis ${s.genesisBlockHash} is not this node's ${genesis} (--prefunded-accounts, --sponsored-fpc)`,
      );
      return false;
    }
    return true;
  });
  usable.sort((a, b) => b.l2BlockNumber - a.l2BlockNumber || b.timestamp - a.timestamp);
  return { usable, refusals };
}

async function restore(entry: SnapshotEntry, dir: string, o: SnapshotBootstrapOptions): Promise<void> {
  const download = join(dir, DOWNLOAD);
  const restored = join(dir, RESTORE);
  o.log.info({ dataUrl: entry.dataUrls.database, bytes: entry.sizes.database }, 'downloading snapshot');
  await downloadToFile(entry.dataUrls.database, download, o.objectStores);
  const { sha256, size } = await digest(download);
  if (size !== entry.sizes.database || sha256 !== entry.sha256.database) {
    throw new Error(
      `the download does not match the index (${size} bytes, sha256 ${sha256}; expected ${entry.sizes.database} bytes, ${entry.sha256.database})`,
    );
  }
  // Gzip by its magic bytes, as 4.1.2 does; a plain database file is taken as it is.
  if (await isGzip(download)) await pipeline(createReadStream(download), createGunzip(), createWriteStream(restored));
  else await rename(download, restored);
  verify(restored, entry);
  await rename(restored, join(dir, NODE_DATABASE_FILE));
}

/** The checks of a downloaded database; it leaves the file as the node opens it (single file, empty pool). */
function verify(path: string, entry: SnapshotEntry): void {
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true });
  } catch (err) {
    throw new Error(`not an SQLite database: ${(err as Error).message}`);
  }
  try {
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') {
      throw new Error(
        `the database fails SQLite's integrity check: ${integrity
          .slice(0, 3)
          .map((r) => r.integrity_check)
          .join('; ')}`,
      );
    }
    const migrations = (
      db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]
    ).map((r) => r.version);
    if (migrations.join(',') !== [...entry.schemaVersions.migrations].sort((a, b) => a - b).join(',')) {
      throw new Error(
        `its schema steps (${migrations.join(', ')}) are not the index's (${entry.schemaVersions.migrations.join(', ')})`,
      );
    }
    const tip = db.prepare('SELECT MAX(number) AS n FROM chain_block').get() as { n: number | null };
    if (tip.n !== entry.l2BlockNumber) {
      throw new Error(`its latest block is ${tip.n ?? 0}, the index says ${entry.l2BlockNumber}`);
    }
    const row = db.prepare('SELECT hash, header FROM chain_block WHERE number = ?').get(entry.l2BlockNumber) as {
      hash: Buffer;
      header: Buffer;
    };
    const computed = BlockHeader.fromBuffer(row.header).hash().toString();
    const stored = `0x${row.hash.toString('hex')}`;
    if (computed !== stored || computed !== entry.l2BlockHash) {
      throw new Error(
        `block ${entry.l2BlockNumber}: its header hashes to ${computed}, stored as ${stored}, indexed as ${entry.l2BlockHash}`,
      );
    }
    const genesis = db.prepare("SELECT value FROM ws_meta WHERE name = 'genesis'").pluck().get() as Buffer | undefined;
    if (!genesis || `0x${genesis.toString('hex')}` !== entry.genesisBlockHash) {
      throw new Error(`its world state's genesis is not the indexed one (${entry.genesisBlockHash})`);
    }
    const pool = new TxPoolRepository(db);
    db.transaction(() => {
      pool.clear();
      pool.bumpToken();
    })();
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

async function digest(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    return head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}
