import { closeSync, existsSync, fstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';

export interface RotatingLogFileOptions {
  readonly path: string;
  /** Rotate once the file holds more than this many bytes. */
  readonly maxBytes: number;
  /** Rotated files kept beside the current one (path.1 the newest ... path.N the oldest). */
  readonly maxFiles: number;
}

/**
 * The node's log file (--log-file), rotated by size: past `maxBytes` it becomes `<path>.1` (older ones move up,
 * the oldest past `maxFiles` is deleted) and a new file starts. Writes are synchronous, as the node's stdout log
 * is, so the last lines before an exit are on disk; the file is created 0600 like the rest of the node's data.
 * A write that fails (a full disk) is dropped rather than stopping the node: the log never takes the node down.
 */
export class RotatingLogFile extends Writable {
  #fd: number;
  #size: number;

  constructor(private readonly o: RotatingLogFileOptions) {
    super({ decodeStrings: false });
    this.#fd = openSync(o.path, 'a', 0o600);
    this.#size = fstatSync(this.#fd).size;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.writeLine(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    done();
  }

  /** Appends one log line (pino's streams call `write` with whole lines). */
  writeLine(line: string): void {
    try {
      if (this.#size > 0 && this.#size + Buffer.byteLength(line) > this.o.maxBytes) this.rotate();
      this.#size += writeSync(this.#fd, line);
    } catch {
      // A full or read-only disk: the line is lost, the node goes on (its storage health check says why).
    }
  }

  private rotate(): void {
    closeSync(this.#fd);
    const { path, maxFiles } = this.o;
    rmSync(`${path}.${maxFiles}`, { force: true });
    for (let i = maxFiles - 1; i >= 1; i--) {
      if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
    }
    if (maxFiles > 0) renameSync(path, `${path}.1`);
    else rmSync(path, { force: true });
    this.#fd = openSync(path, 'a', 0o600);
    this.#size = 0;
  }

  override _final(done: (err?: Error | null) => void): void {
    closeSync(this.#fd);
    done();
  }
}
