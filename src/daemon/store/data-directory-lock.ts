import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Service } from '../lifecycle/service.js';

/** The lock file of a data directory: a tiny SQLite database whose exclusive lock is the lock. */
export const LOCK_FILE = 'l2node.lock';
/** Who holds the lock (pid, what, since): for the refusal's message only, never for the locking itself. */
export const LOCK_HOLDER_FILE = 'l2node.lock.holder';

/** The data directory is in use by another process; the message names it and what to do. */
export class DataDirectoryLockedError extends Error {
  override name = 'DataDirectoryLockedError';
}

interface Holder {
  readonly pid: number;
  readonly purpose: string;
  readonly since: string;
}

/**
 * One writer per data directory (a node, or an offline `db` command that writes): an exclusive lock taken with
 * SQLite's own file locking on `l2node.lock`, held for the life of the process. The operating system drops it
 * when the process ends, however it ends (a crash, SIGKILL), so a stale lock never needs detecting or cleaning:
 * the next start simply gets it. Read-only commands never take it: they open the database read-only.
 */
export class DataDirectoryLock {
  private constructor(
    private readonly db: Database.Database,
    private readonly dir: string,
  ) {}

  /** Takes the lock of `dir` for `purpose` (e.g. "l2node start"), or throws DataDirectoryLockedError. */
  static acquire(dir: string, purpose: string): DataDirectoryLock {
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, LOCK_FILE), { timeout: 0 });
    try {
      // EXCLUSIVE locking mode keeps the write lock of the first transaction until the connection closes.
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('CREATE TABLE IF NOT EXISTS lock_taken (at INTEGER NOT NULL); DELETE FROM lock_taken;');
      db.prepare('INSERT INTO lock_taken (at) VALUES (?)').run(Date.now());
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
      throw new DataDirectoryLockedError(lockedMessage(dir, readHolder(dir)));
    }
    const holder: Holder = { pid: process.pid, purpose, since: new Date().toISOString() };
    writeFileSync(join(dir, LOCK_HOLDER_FILE), `${JSON.stringify(holder)}\n`);
    return new DataDirectoryLock(db, dir);
  }

  release(): void {
    if (!this.db.open) return;
    rmSync(join(this.dir, LOCK_HOLDER_FILE), { force: true });
    this.db.close();
  }
}

function readHolder(dir: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, LOCK_HOLDER_FILE), 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

function lockedMessage(dir: string, holder: Holder | undefined): string {
  const who = holder ? `process ${holder.pid} (${holder.purpose}, since ${holder.since})` : 'another process';
  return (
    `the data directory ${dir} is in use by ${who}: one node (or one writing db command) per data directory. ` +
    'Stop it first, or give another --data-directory'
  );
}

/** The node's hold on its data directory: taken before anything touches the directory, released last. */
export class DataDirectoryLockService implements Service {
  readonly name = 'data directory lock';
  private lock: DataDirectoryLock | undefined;

  constructor(private readonly dataDirectory: string) {}

  async start(): Promise<void> {
    this.lock = DataDirectoryLock.acquire(this.dataDirectory, 'l2node start');
  }

  async stop(): Promise<void> {
    this.lock?.release();
    this.lock = undefined;
  }
}
