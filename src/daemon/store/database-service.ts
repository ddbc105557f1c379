import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tipDamage } from '../integrity/tip-damage.js';
import type { Service } from '../lifecycle/service.js';
import { checkDatabaseFile, isCorruptionError, refusal, startupProblems } from './database-integrity.js';
import type { GenesisImage } from './genesis-image.js';
import { runMigrations } from './migrations/run-migrations.js';
import { NODE_DATABASE_FILE, openNodeDatabase, type SqliteDatabase } from './node-database.js';
import { PrivateDatabaseFile } from './private-database-file.js';

/**
 * Owns the node's one SQLite database: opened (and migrated) first, closed last. A database file is checked
 * before anything else touches it (docs/operations.md, corruption): an empty or foreign file, a failed quick_check
 * or stores that disagree stop the start with what is wrong and how to repair it.
 */
export class DatabaseService implements Service {
  readonly name = 'database';
  private handle: SqliteDatabase | undefined;
  /** Without a data directory: the private temp file the database lives in for one run. */
  private privateFile: PrivateDatabaseFile | undefined;

  constructor(
    private readonly dataDirectory: string | undefined,
    /** Newest blocks whose commitments are recomputed at start (--startup-check-blocks). */
    private readonly checkBlocks = 0,
    /**
     * Without a data directory, the genesis image of the node's settings (src/daemon/store/genesis-image.ts): the
     * private file starts as a copy of it when it is cached.
     */
    readonly genesisImage?: GenesisImage,
  ) {}

  /** Path of the database file in the data directory, or null when the node runs without one. */
  get path(): string | null {
    return this.dataDirectory ? join(this.dataDirectory, NODE_DATABASE_FILE) : null;
  }

  /** The file other connections (the public execution workers) open: the data directory's, or the private one. */
  get file(): string {
    const file = this.path ?? this.privateFile?.path;
    if (!file) throw new Error('The database is not open');
    return file;
  }

  get db(): SqliteDatabase {
    if (!this.handle) throw new Error('The database is not open');
    return this.handle;
  }

  async start(): Promise<void> {
    const path = this.path;
    const dir = this.dataDirectory;
    if (!path || !dir) {
      this.privateFile = new PrivateDatabaseFile();
      try {
        this.handle = this.openPrivate(this.privateFile.path);
        // Nothing of it outlives the process: no fsync.
        this.handle.pragma('synchronous = OFF');
      } catch (err) {
        this.privateFile.remove();
        this.privateFile = undefined;
        throw err;
      }
      return;
    }
    checkDatabaseFile(path);
    let db: SqliteDatabase | undefined;
    try {
      db = openNodeDatabase(path, { migrate: false });
      const problems = startupProblems(db);
      if (problems.length > 0) throw refusal(path, dir, problems);
      runMigrations(db);
      const damaged = tipDamage(db, this.checkBlocks);
      if (damaged.length > 0) throw refusal(path, dir, damaged);
    } catch (err) {
      db?.close();
      if (isCorruptionError(err)) throw refusal(path, dir, [{ what: `SQLite reports: ${(err as Error).message}` }]);
      throw err;
    }
    this.handle = db;
  }

  /** Opens the private file, from the genesis image when cached; an image that does not open is computed again. */
  private openPrivate(path: string): SqliteDatabase {
    if (this.genesisImage?.copyTo(path)) {
      try {
        return openNodeDatabase(path);
      } catch {
        this.genesisImage.discard();
        writeFileSync(path, '');
      }
    }
    return openNodeDatabase(path);
  }

  async stop(): Promise<void> {
    this.handle?.close();
    this.handle = undefined;
    this.privateFile?.remove();
    this.privateFile = undefined;
  }
}
