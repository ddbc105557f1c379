import type Database from 'better-sqlite3';
import { MIGRATIONS } from './index.js';
import type { Migration } from './migration.js';

export class SchemaError extends Error {
  override name = 'SchemaError';
}

/** The schema version a fully migrated database has (also written to `user_version` for outside tools). */
export function latestSchemaVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

/**
 * Applies every migration the database has not applied yet, in version order, each in its own
 * transaction. Applied versions are recorded one by one (not as a single high-water mark) because each
 * service owns its own version range: a step added to a lower range after a higher one ran must still
 * run. A database that applied a step this node does not know was written by a newer node: refused.
 */
export function runMigrations(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): void {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.version === sorted[i - 1]?.version) {
      throw new SchemaError(`Two migrations share version ${sorted[i]?.version}`);
    }
  }
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const known = new Set(sorted.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new SchemaError(
      `The database has schema steps ${unknown.join(', ')} that this node does not know: it was written by a newer l2node. Use a newer l2node or another data directory.`,
    );
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of sorted) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      m.up(db);
      record.run(m.version, m.name, Date.now());
    })();
  }
  // Written only when it changes: on a database already at the latest version (every restart, a genesis image) the
  // write would be a transaction of its own, a dev start's first write to its file (bench/startup).
  const latest = latestSchemaVersion(sorted);
  if (db.pragma('user_version', { simple: true }) !== latest) db.pragma(`user_version = ${latest}`);
}
