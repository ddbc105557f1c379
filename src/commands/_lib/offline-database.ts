import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Flags } from '@oclif/core';
import type { SqliteDatabase } from '../../daemon/store/node-database.js';
import { CliError } from './cli-error.js';

/** The data directory of the offline `db` commands: the same setting (and env variable) as `start`'s. */
export const dataDirectoryFlag = Flags.string({
  description: 'Data directory of the node (the one given to `l2node start --data-directory`).',
  env: 'NODE_DATA_DIRECTORY',
  required: true,
});

/**
 * Opens the node database of a data directory read-only (docs/aztec-facts.md section 8.1: offline commands say their access).
 * A running node may keep writing: SQLite's WAL lets this reader see one consistent snapshot per transaction.
 * better-sqlite3 and the store are imported here, inside the command run, so other commands start fast.
 */
export async function openDatabaseReadOnly(dataDirectory: string): Promise<{ db: SqliteDatabase; path: string }> {
  const { NODE_DATABASE_FILE, openNodeDatabase } = await import('../../daemon/store/node-database.js');
  const path = join(dataDirectory, NODE_DATABASE_FILE);
  if (!existsSync(path)) {
    throw CliError.notFound(`no node database at ${path}`, [
      'name the directory given to `l2node start --data-directory` (a node started without one keeps nothing)',
    ]);
  }
  try {
    return { db: openNodeDatabase(path, { readonly: true }), path };
  } catch (err) {
    throw CliError.failed(`cannot open ${path} read-only: ${(err as Error).message}`, 'DB_UNREADABLE');
  }
}

/**
 * Opens the node database of a data directory to write (offline `db` commands that change it): first the data
 * directory lock, as a node takes it, so that no node runs meanwhile; then the file is checked (an empty or foreign
 * file is refused) and opened. `release` closes it and gives the lock back.
 */
export async function openDatabaseForWriting(
  dataDirectory: string,
  purpose: string,
): Promise<{ db: SqliteDatabase; path: string; release: () => void }> {
  const { NODE_DATABASE_FILE, openNodeDatabase } = await import('../../daemon/store/node-database.js');
  const { DataDirectoryLock, DataDirectoryLockedError } = await import('../../daemon/store/data-directory-lock.js');
  const { checkDatabaseFile, DatabaseRefusedError, isCorruptionError } = await import(
    '../../daemon/store/database-integrity.js'
  );
  const path = join(dataDirectory, NODE_DATABASE_FILE);
  if (!existsSync(path)) {
    throw CliError.notFound(`no node database at ${path}`, [
      'name the directory given to `l2node start --data-directory` (a node started without one keeps nothing)',
    ]);
  }
  let lock: ReturnType<typeof DataDirectoryLock.acquire>;
  try {
    lock = DataDirectoryLock.acquire(dataDirectory, purpose);
  } catch (err) {
    if (err instanceof DataDirectoryLockedError) throw CliError.failed(err.message, 'DATA_DIRECTORY_LOCKED');
    throw err;
  }
  try {
    checkDatabaseFile(path);
    const db = openNodeDatabase(path);
    return {
      db,
      path,
      release: () => {
        db.close();
        lock.release();
      },
    };
  } catch (err) {
    lock.release();
    if (err instanceof DatabaseRefusedError) throw CliError.failed(err.message, 'DB_DAMAGED');
    if (isCorruptionError(err)) {
      throw CliError.failed(`${path} is damaged: ${(err as Error).message}`, 'DB_DAMAGED', [
        'restore a backup (l2node db backup makes one)',
      ]);
    }
    throw err;
  }
}

/** Size of a file in bytes, 0 when absent (the WAL file exists only while a node has the database open). */
export function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}
