import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { runMigrations } from './migrations/run-migrations.js';

export type SqliteDatabase = Database.Database;

export interface OpenOptions {
  /** Open without write access (offline `db` commands). */
  readonly readonly?: boolean;
  /** Skip migrations (read-only inspection of a database written by another version). */
  readonly migrate?: boolean;
}

/** File name of the node database inside a data directory. */
export const NODE_DATABASE_FILE = 'l2node.sqlite';

/**
 * Opens the node's single SQLite database (docs/architecture.md section 4.1): a file in the data directory, or an
 * in-memory database when the node runs without one. WAL with synchronous=NORMAL: a commit survives a
 * process crash, and readers never block the writer.
 */
export function openNodeDatabase(path: string | null, options: OpenOptions = {}): SqliteDatabase {
  const file = path ?? ':memory:';
  if (path && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  db.defaultSafeIntegers(false);
  if (!options.readonly && options.migrate !== false) runMigrations(db);
  return db;
}
