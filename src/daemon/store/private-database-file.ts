import { closeSync, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_DATABASE_FILE } from './node-database.js';

const PREFIX = 'l2node-memory-';
/** How long after its start a node removes the directories of killed ones (a node stopped sooner leaves them). */
const ORPHAN_SWEEP_DELAY_MS = 2000;

/**
 * The database file of a node without --data-directory. It cannot be SQLite's `:memory:`: the public execution
 * workers (src/daemon/public-execution) read world state on connections of their own, which needs a file. It
 * lives in a private directory of the temp dir (mode 0700, the file 0600, named with the node's pid) and is
 * removed when the node stops, on any exit of the process (the `exit` event covers a normal exit, process.exit
 * after SIGINT/SIGTERM/SIGHUP and an uncaught error); after a SIGKILL the next node started on the machine
 * removes it, as its pid is no longer alive (once it has run for 2 s).
 */
export class PrivateDatabaseFile {
  readonly directory: string;
  readonly path: string;
  private readonly removeOnExit = () => this.remove();
  private readonly sweep: NodeJS.Timeout;

  constructor() {
    // Reading the whole temp dir (3 ms for 2,000 entries; on libuv's pool, the pool's start as much) is no part of
    // getting the node to serve: it waits until the node has served a while (bench/startup).
    this.sweep = setTimeout(removeOrphans, ORPHAN_SWEEP_DELAY_MS);
    this.sweep.unref();
    this.directory = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
    this.path = join(this.directory, NODE_DATABASE_FILE);
    // Created here with 0600 so that SQLite (which gives its -wal and -shm files the database's mode) never
    // makes it readable to others, whatever the umask.
    closeSync(openSync(this.path, 'wx', 0o600));
    process.once('exit', this.removeOnExit);
  }

  remove(): void {
    clearTimeout(this.sweep);
    process.off('exit', this.removeOnExit);
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/** Removes the directories of in-memory nodes that were killed (their pid is gone). Never throws. */
function removeOrphans(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    try {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // Another user's directory (a shared temp dir with the sticky bit): theirs to remove.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
