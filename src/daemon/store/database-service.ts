import { join } from 'node:path';
import { tipDamage } from '../integrity/tip-damage.js';
import type { Service } from '../lifecycle/service.js';
import { checkDatabaseFile, isCorruptionError, refusal, startupProblems } from './database-integrity.js';
import { runMigrations } from './migrations/run-migrations.js';
import { NODE_DATABASE_FILE, openNodeDatabase, type SqliteDatabase } from './node-database.js';

/**
 * Owns the node's one SQLite database: opened (and migrated) first, closed last. A database file is checked
 * before anything else touches it (docs/operations.md, corruption): an empty or foreign file, a failed quick_check
 * or stores that disagree stop the start with what is wrong and how to repair it.
 */
export class DatabaseService implements Service {
  readonly name = 'database';
  private handle: SqliteDatabase | undefined;

  constructor(
    private readonly dataDirectory: string | undefined,
    /** Newest blocks whose commitments are recomputed at start (--startup-check-blocks). */
    private readonly checkBlocks = 0,
  ) {}

  /** Path of the database file, or null when the node runs in memory. */
  get path(): string | null {
    return this.dataDirectory ? join(this.dataDirectory, NODE_DATABASE_FILE) : null;
  }

  get db(): SqliteDatabase {
    if (!this.handle) throw new Error('The database is not open');
    return this.handle;
  }

  async start(): Promise<void> {
    const path = this.path;
    const dir = this.dataDirectory;
    if (!path || !dir) {
      this.handle = openNodeDatabase(null);
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

  async stop(): Promise<void> {
    this.handle?.close();
    this.handle = undefined;
  }
}
