import type Database from 'better-sqlite3';
import { MIGRATIONS } from './index.js';
import type { Migration } from './migration.js';

export class SchemaError extends Error {
  override name = 'SchemaError';
}

/** The schema version a fully migrated database has. */
export function latestSchemaVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

/**
 * Applies every migration above the database's `user_version`, each in its own transaction, and
 * refuses a database written by a newer node (its schema cannot be read safely).
 */
export function runMigrations(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): void {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.version === sorted[i - 1]?.version) {
      throw new SchemaError(`Two migrations share version ${sorted[i]?.version}`);
    }
  }
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = latestSchemaVersion(sorted);
  if (current > latest) {
    throw new SchemaError(
      `The database has schema version ${current}, newer than this node understands (${latest}). Use a newer l2node or another data directory.`,
    );
  }
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
