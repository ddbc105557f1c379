import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { BlockHeader } from '../../core/block/block-header.js';
import { ARCHIVE_TREE_ID } from '../../core/constants.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import { storeKey } from '../world-state/world-state-repository.js';
import type { SqliteDatabase } from './node-database.js';

/**
 * A node database that must not be opened as it is: empty, foreign, damaged, or with stores that disagree. The
 * message says what is wrong and what to do (restore a backup, or the offline repair command).
 */
export class DatabaseRefusedError extends Error {
  override name = 'DatabaseRefusedError';
}

/** What every SQLite 3 database file starts with. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** Blocks whose header is re-hashed at every start: the newest ones, where an interrupted write would show. */
export const HEADERS_CHECKED_AT_START = 64;

/**
 * Before opening: an existing file must be an SQLite database. A zero-byte or foreign file is refused, never
 * re-initialised as a new chain (that would hide the loss of the old one).
 */
export function checkDatabaseFile(path: string): void {
  if (!existsSync(path)) return;
  const size = statSync(path).size;
  if (size === 0) {
    throw new DatabaseRefusedError(
      `${path} is an empty file (0 bytes), not a node database: restore a backup (l2node db backup makes one), or remove the file to start a new chain in this directory`,
    );
  }
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!head.equals(SQLITE_HEADER)) {
    throw new DatabaseRefusedError(
      `${path} is not an SQLite database (a foreign or overwritten file): restore a backup, or move the file away to start a new chain in this directory`,
    );
  }
}

/** True for SQLite's errors of a damaged or foreign file (better-sqlite3 error codes). */
export function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code?.startsWith('SQLITE_CORRUPT_') === true;
}

/** A problem found in the stores, with the block the repair should roll back to (when a rollback repairs it). */
export interface IntegrityProblem {
  readonly what: string;
  readonly repairTo?: number;
}

/**
 * The cheap checks of every start, on a database opened without migrating: SQLite's quick_check, a foreign
 * SQLite file, then the consistency a node relies on to open (chain and world state at the same block, no
 * checkpoint past the chain, the newest block headers hashing to what the chain and the archive tree hold).
 */
export function startupProblems(db: SqliteDatabase): IntegrityProblem[] {
  const quick = (db.pragma('quick_check', { simple: false }) as { quick_check: string }[])
    .map((r) => r.quick_check)
    .filter((r) => r !== 'ok');
  if (quick.length > 0) return [{ what: `SQLite quick_check failed: ${quick.slice(0, 3).join('; ')}` }];
  const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  if (tables.size === 0) return [];
  if (!tables.has('schema_migrations')) {
    return [{ what: `it is an SQLite database of something else (tables ${[...tables].slice(0, 5).join(', ')})` }];
  }
  if (!tables.has('chain_block') || !tables.has('ws_block')) return [];
  const problems = consistencyProblems(db);
  const tip = chainTip(db);
  return [...problems, ...headerProblems(db, Math.max(1, tip - HEADERS_CHECKED_AT_START + 1), tip)];
}

function chainTip(db: SqliteDatabase): number {
  return db.prepare('SELECT COALESCE(MAX(number), 0) FROM chain_block').pluck().get() as number;
}

/** Chain store, world state and checkpoints against each other. */
export function consistencyProblems(db: SqliteDatabase): IntegrityProblem[] {
  const one = (sql: string) => db.prepare(sql).pluck().get() as number;
  const tip = chainTip(db);
  const wsTip = one('SELECT COALESCE(MAX(block), 0) FROM ws_block');
  const problems: IntegrityProblem[] = [];
  if (wsTip !== tip) {
    problems.push({
      what: `the world state is at block ${wsTip} but the chain at block ${tip}`,
      repairTo: Math.min(tip, wsTip),
    });
  }
  const differs = one(
    `SELECT COALESCE(MIN(c.number), 0) FROM chain_block c JOIN ws_block w ON w.block = c.number WHERE w.hash != c.hash AND c.number > ${tip - HEADERS_CHECKED_AT_START}`,
  );
  if (differs > 0) {
    problems.push({
      what: `block ${differs} has another hash in the world state than in the chain`,
      repairTo: differs - 1,
    });
  }
  const count = one('SELECT COUNT(*) FROM chain_block');
  // A lazy fork holds blocks from the first of its fork block's checkpoint on (the upstream's are below it).
  const first = one("SELECT COALESCE(MAX(value), 1) FROM chain_meta WHERE name = 'forkFirstBlock'");
  if (count !== Math.max(0, tip - first + 1)) {
    const gap = one(
      'SELECT COALESCE(MIN(number + 1), 1) FROM chain_block c WHERE NOT EXISTS (SELECT 1 FROM chain_block d WHERE d.number = c.number + 1) AND c.number < (SELECT MAX(number) FROM chain_block)',
    );
    problems.push({
      what: `the chain has ${count} blocks numbered up to ${tip}: block ${gap} is missing`,
      repairTo: gap - 1,
    });
  }
  const beyond = one(`SELECT COUNT(*) FROM chain_checkpoint WHERE last_block > ${tip} OR first_block > last_block`);
  if (beyond > 0) {
    const first = one(`SELECT COALESCE(MIN(first_block), 1) FROM chain_checkpoint WHERE last_block > ${tip}`);
    problems.push({
      what: `${beyond} checkpoints reach past the chain's block ${tip}`,
      repairTo: Math.max(0, Math.min(tip, first - 1)),
    });
  }
  return problems;
}

/**
 * Blocks `from`..`to`: each stored header is decoded and hashed again, and the hash must be the one the chain
 * stores and the archive tree holds as the block's leaf (the world state's per-block hash is compared with the
 * chain's by consistencyProblems and `db check`'s own check).
 */
export function headerProblems(db: SqliteDatabase, from: number, to: number): IntegrityProblem[] {
  if (to < from) return [];
  const rows = db
    .prepare('SELECT number, hash, header FROM chain_block WHERE number BETWEEN ? AND ? ORDER BY number')
    .iterate(from, to) as IterableIterator<{ number: number; hash: Buffer; header: Buffer }>;
  const leaf = db.prepare('SELECT hash FROM ws_node WHERE k = ? ORDER BY block DESC LIMIT 1').pluck();
  const bad: number[] = [];
  const details: string[] = [];
  for (const row of rows) {
    let why: string | undefined;
    try {
      const hash = bigIntToBuffer32(BlockHeader.fromBuffer(row.header).hash().value);
      const archived = leaf.get(storeKey(ARCHIVE_TREE_ID, 0, row.number)) as Buffer | undefined;
      if (!hash.equals(row.hash)) why = 'its header does not hash to its stored hash';
      else if (archived && !hash.equals(archived)) why = 'its header hash is not its archive tree leaf';
    } catch (err) {
      why = `its header cannot be read (${(err as Error).message})`;
    }
    if (why) {
      bad.push(row.number);
      if (details.length < 3) details.push(`block ${row.number}: ${why}`);
    }
  }
  if (bad.length === 0) return [];
  return [
    {
      what: `${bad.length} block headers fail their hash check (${details.join('; ')})`,
      repairTo: Math.max(0, (bad[0] as number) - 1),
    },
  ];
}

/** The block a rollback must go back to so that every problem found is gone, if a rollback repairs them all. */
export function repairTarget(problems: readonly IntegrityProblem[]): number | undefined {
  if (problems.length === 0 || problems.some((p) => p.repairTo === undefined)) return undefined;
  return Math.min(...problems.map((p) => p.repairTo as number));
}

/** The refusal for problems found at start, with the next step. */
export function refusal(
  path: string,
  dataDirectory: string,
  problems: readonly IntegrityProblem[],
): DatabaseRefusedError {
  const target = repairTarget(problems);
  const next =
    target !== undefined
      ? `repair it offline with \`l2node db rollback ${target} --data-directory ${dataDirectory}\` (l2node db check lists every problem)`
      : 'restore a backup (l2node db backup makes one); l2node db check lists every problem';
  return new DatabaseRefusedError(
    `the node database ${path} is damaged and was not opened: ${problems.map((p) => p.what).join('; ')}. Nothing was written to it; ${next}`,
  );
}
