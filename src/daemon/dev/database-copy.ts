import { existsSync, renameSync, rmSync } from 'node:fs';
import type { SqliteDatabase } from '../store/node-database.js';

/** A state file the node cannot take (not an l2node database, another schema). */
export class StateFileError extends Error {
  override name = 'StateFileError';
}

/**
 * Writes a consistent copy of the whole node database (chain, world state, pool, settings kept in it) to
 * `file`, compacted, as one read transaction (VACUUM INTO): readers and the writer see no pause beyond the
 * copy itself, and the copy is of one instant. Written beside `file` first and renamed, so `file` is never
 * half-written.
 */
export function copyDatabaseTo(db: SqliteDatabase, file: string): void {
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    db.prepare('VACUUM INTO ?').run(partial);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Replaces every table of the node database with the one in `file` (a copy made by copyDatabaseTo), in one
 * transaction on the node's own connection: prepared statements stay valid, readers see the state before or
 * after, never between, and a failure changes nothing. The caller reloads what it keeps in memory (the world
 * state and the pool notice their changed write tokens themselves). `verify` runs on the restored tables before
 * the commit: what it throws undoes the restore.
 */
export function restoreDatabaseFrom(db: SqliteDatabase, file: string, verify?: () => void): void {
  if (!existsSync(file)) throw new StateFileError(`${file} does not exist`);
  db.prepare('ATTACH DATABASE ? AS copy').run(file);
  try {
    const tables = tablesOf(db, 'main');
    let copied: Map<string, string>;
    try {
      copied = tablesOf(db, 'copy');
    } catch (err) {
      throw new StateFileError(`${file} is not an SQLite database: ${(err as Error).message}`);
    }
    const differ = [...tables.keys(), ...copied.keys()].filter((t) => tables.get(t) !== copied.get(t));
    if (differ.length > 0) {
      throw new StateFileError(
        `${file} is not a database of this l2node's schema (tables ${[...new Set(differ)].slice(0, 5).join(', ')} differ)`,
      );
    }
    db.transaction(() => {
      // Rows go in table by table: references are checked once, at commit.
      db.pragma('defer_foreign_keys = ON');
      for (const t of tables.keys()) db.prepare(`DELETE FROM main."${t}"`).run();
      for (const t of tables.keys()) db.prepare(`INSERT INTO main."${t}" SELECT * FROM copy."${t}"`).run();
      verify?.();
    })();
  } finally {
    db.prepare('DETACH DATABASE copy').run();
  }
}

/** The tables of a schema and their definitions. */
function tablesOf(db: SqliteDatabase, schema: 'main' | 'copy'): Map<string, string> {
  const rows = db
    .prepare(`SELECT name, sql FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .all() as { name: string; sql: string }[];
  return new Map(rows.map((r) => [r.name, r.sql]));
}
