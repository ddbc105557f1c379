import { closeSync, mkdtempSync, openSync, readdir, rm, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_DATABASE_FILE } from './node-database.js';

const PREFIX = 'l2node-memory-';

/**
 * The database file of a node without --data-directory. It cannot be SQLite's `:memory:`: the public execution
 * workers (src/daemon/public-execution) read world state on connections of their own, which needs a file. It
 * lives in a private directory of the temp dir (mode 0700, the file 0600, named with the node's pid) and is
 * removed when the node stops, on any exit of the process (the `exit` event covers a normal exit, process.exit
 * after SIGINT/SIGTERM/SIGHUP and an uncaught error); after a SIGKILL the next node started on the machine
 * removes it, as its pid is no longer alive (right after its own start-up).
 */
export class PrivateDatabaseFile {
  readonly directory: string;
  readonly path: string;
  private readonly removeOnExit = () => this.remove();

  constructor() {
    // Reading the whole temp dir (3 ms for 2,000 entries) is no part of getting the node to serve: it is read on
    // libuv's thread pool, beside the start-up (bench/startup).
    removeOrphans();
    this.directory = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
    this.path = join(this.directory, NODE_DATABASE_FILE);
    // Created here with 0600 so that SQLite (which gives its -wal and -shm files the database's mode) never
    // makes it readable to others, whatever the umask.
    closeSync(openSync(this.path, 'wx', 0o600));
    process.once('exit', this.removeOnExit);
  }

  remove(): void {
    process.off('exit', this.removeOnExit);
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/**
 * Removes the directories of in-memory nodes that were killed (their pid is gone), with node:fs's callbacks (its
 * promise API would be one more module to load at start). Never throws.
 */
function removeOrphans(): void {
  readdir(tmpdir(), (err, names) => {
    if (err) return;
    for (const name of names) {
      if (!name.startsWith(PREFIX)) continue;
      const pid = Number(name.slice(PREFIX.length).split('-')[0]);
      if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
      // Another user's directory (a shared temp dir with the sticky bit) is theirs to remove: a failure is ignored.
      rm(join(tmpdir(), name), { recursive: true, force: true }, () => {});
    }
  });
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
