import { join } from 'node:path';
import type { Service } from '../lifecycle/service.js';
import { NODE_DATABASE_FILE, openNodeDatabase, type SqliteDatabase } from './node-database.js';

/** Owns the node's one SQLite database: opened (and migrated) first, closed last. */
export class DatabaseService implements Service {
  readonly name = 'database';
  private handle: SqliteDatabase | undefined;

  constructor(private readonly dataDirectory: string | undefined) {}

  /** Path of the database file, or null when the node runs in memory. */
  get path(): string | null {
    return this.dataDirectory ? join(this.dataDirectory, NODE_DATABASE_FILE) : null;
  }

  get db(): SqliteDatabase {
    if (!this.handle) throw new Error('The database is not open');
    return this.handle;
  }

  async start(): Promise<void> {
    this.handle = openNodeDatabase(this.path);
  }

  async stop(): Promise<void> {
    this.handle?.close();
    this.handle = undefined;
  }
}
