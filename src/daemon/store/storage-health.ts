import { statfsSync } from 'node:fs';
import type { Logger } from '../logging/logger.js';
import { StoredDataDamagedError } from './record-checksum.js';

/** SQLite's and the file system's ways of saying a write found no room or could not reach the disk. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** True for an error of a write that failed for want of space or on an I/O error of the data directory's disk. */
export function isStorageError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (FULL_CODES.has(code) || code.startsWith('SQLITE_IOERR'));
}

/** What the node says about a storage failure of code `code` (SQLITE_FULL, ENOSPC, SQLITE_IOERR_...) in `dir`. */
function storageReason(dir: string, code: string, then: string): string {
  const why =
    code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT'
      ? 'its disk is full'
      : 'the disk reports an I/O error';
  return `the node cannot write to its data directory ${dir}: ${why} (${code}). Free space there; ${then}`;
}

/**
 * The message of a start-up that failed on a storage error (a restart while the disk is still full): STORAGE_FULL
 * and the running node's wording, naming the data directory, instead of the file system's bare error.
 * Undefined for any other error.
 */
export function storageStartFailure(err: unknown, dataDirectory: string | undefined): string | undefined {
  if (!dataDirectory || !isStorageError(err)) return undefined;
  return `STORAGE_FULL: ${storageReason(dataDirectory, (err as { code: string }).code, 'then start the node again')}`;
}

/** Free space the data directory needs before writes are tried again after a full disk. */
export const RECOVERY_FREE_BYTES = 4 * 1024 * 1024;
const PROBE_EVERY_MS = 1000;

export interface StorageHealthOptions {
  readonly dataDirectory: string;
  /** A small committed write to the node database; throws while the disk is still full. */
  readonly probe: () => void;
  readonly log: Logger;
}

export interface StorageProblem {
  /**
   * STORAGE_FULL: a write found no room (or an I/O error), over once the disk takes writes again; DATA_DAMAGED: a
   * stored record failed its checksum, for good (the node is stopped and the directory checked and repaired).
   */
  readonly code: 'STORAGE_FULL' | 'DATA_DAMAGED';
  /** What the node says about it (status, RPC errors): names the data directory and what to do. */
  readonly reason: string;
  readonly since: string;
}

/**
 * Whether the node can write to its data directory. A write that fails for want of space (or on an I/O error)
 * starts an episode: it is logged once, the node says it is not ready (GET /status, node_isReady, l2node status)
 * and writes are refused with STORAGE_FULL. Every second it then checks the free space and tries a small write;
 * once both succeed the episode ends, logged once, and the node is ready again by itself.
 */
export class StorageHealth {
  #problem: StorageProblem | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: StorageHealthOptions) {}

  get problem(): StorageProblem | undefined {
    return this.#problem;
  }

  /** Why blocks must not be built or applied: damaged stored data was read. */
  get productionHalted(): string | undefined {
    return this.#problem?.code === 'DATA_DAMAGED' ? this.#problem.reason : undefined;
  }

  /**
   * Tells whether `err` is a storage failure, starting an episode if none runs. Damaged stored data ends any
   * full-disk episode and stays: the node no longer produces and is not ready until it is repaired offline.
   */
  observe(err: unknown): boolean {
    if (err instanceof StoredDataDamagedError) {
      if (this.#problem?.code === 'DATA_DAMAGED') return true;
      this.stop();
      this.#problem = { code: 'DATA_DAMAGED', reason: err.message, since: new Date().toISOString() };
      this.o.log.error({ dataDirectory: this.o.dataDirectory, code: 'DATA_DAMAGED' }, err.message);
      return true;
    }
    if (!isStorageError(err)) return false;
    if (this.#problem) return true;
    const code = (err as { code: string }).code;
    this.#problem = {
      code: 'STORAGE_FULL',
      reason: storageReason(this.o.dataDirectory, code, 'the node resumes by itself'),
      since: new Date().toISOString(),
    };
    this.o.log.error({ dataDirectory: this.o.dataDirectory, code, err: (err as Error).message }, this.#problem.reason);
    this.timer = setInterval(() => this.tryRecover(), PROBE_EVERY_MS);
    this.timer.unref();
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tryRecover(): void {
    try {
      const fs = statfsSync(this.o.dataDirectory);
      if (fs.bavail * fs.bsize < RECOVERY_FREE_BYTES) return;
      this.o.probe();
    } catch {
      return;
    }
    const since = this.#problem?.since;
    this.#problem = undefined;
    this.stop();
    this.o.log.info(
      { dataDirectory: this.o.dataDirectory, since },
      `the data directory ${this.o.dataDirectory} is writable again`,
    );
  }
}
