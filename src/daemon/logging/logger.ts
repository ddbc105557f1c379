import { createRequire } from 'node:module';
import { type DestinationStream, type Logger, pino } from 'pino';
import type pinoPretty from 'pino-pretty';
import type { LogLevelSpec } from './log-levels.js';
import { toLogfmt } from './logfmt.js';
import { RotatingLogFile, type RotatingLogFileOptions } from './rotating-log-file.js';

export type { Logger } from 'pino';

export type LogFormat = 'auto' | 'human' | 'json' | 'logfmt';

export interface LoggerOptions {
  readonly spec: LogLevelSpec;
  readonly format: LogFormat;
  /**
   * A stream, or the process's own stdout or stderr by name (the default: stdout). By name, the stream object is
   * made only if printing for humans needs it: JSON and logfmt go straight to the file descriptor (making
   * process.stdout for a pipe cost a few ms of a start, bench/startup).
   */
  readonly destination?: NodeJS.WritableStream | 'stdout' | 'stderr';
  /** Log to this file instead (--log-file), rotated by size. */
  readonly file?: RotatingLogFileOptions;
}

/**
 * The node's logger: structured (pino), human-readable on a terminal and JSON otherwise (or logfmt), to stdout or
 * to a rotated file. Writes are synchronous so that the last lines before an exit (fatal errors, "stopped") are
 * never lost.
 */
export class NodeLogger {
  readonly root: Logger;
  private readonly spec: LogLevelSpec;

  constructor(options: LoggerOptions) {
    this.spec = options.spec;
    const file = options.file ? new RotatingLogFile(options.file) : undefined;
    const target = options.destination ?? 'stdout';
    const fd = typeof target === 'string' ? (target === 'stdout' ? 1 : 2) : ((target as { fd?: number }).fd ?? 1);
    // Whether the output is a terminal: asked of the stream, or of the descriptor when only the format needs it.
    const tty =
      file === undefined &&
      (typeof target === 'string'
        ? options.format !== 'json' && options.format !== 'logfmt' && isTerminal(fd)
        : Boolean((target as { isTTY?: boolean }).isTTY));
    const human = options.format === 'human' || (options.format === 'auto' && tty);
    const raw: DestinationStream = file
      ? { write: (line: string) => file.writeLine(line) }
      : pino.destination({ dest: fd, sync: true });
    const stream: DestinationStream = human
      ? loadPretty()({
          destination: file ?? (typeof target === 'string' ? process[target] : target),
          sync: true,
          colorize: tty,
          // One line per record on a terminal: the message says what happened (the fields are for JSON and
          // logfmt readers); an error's text is added when the message does not carry it.
          hideObject: true,
          ignore: 'pid,hostname,module',
          messageFormat: humanLine,
          translateTime: 'SYS:HH:MM:ss.l',
        })
      : options.format === 'logfmt'
        ? { write: (line: string) => raw.write(toLogfmt(line)) }
        : raw;
    // The root passes everything a module may want; each module logger filters at its own level.
    this.root = pino({ level: lowestLevel(options.spec), base: { pid: process.pid } }, redactingStream(stream));
  }

  /** A child logger for one module, at that module's configured level. */
  module(name: string): Logger {
    return this.root.child({ module: name }, { level: this.spec.modules[name] ?? this.spec.level });
  }
}

/** Whether a descriptor is a terminal (node:tty is loaded only to ask: a piped JSON log never needs it). */
function isTerminal(fd: number): boolean {
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/** A record as one human line: `module: message (error)`. */
function humanLine(log: Record<string, unknown>, messageKey: string): string {
  const msg = String(log[messageKey] ?? '');
  const err = log.err;
  const why = typeof err === 'string' ? err : (err as { message?: unknown } | undefined)?.message;
  const tail = typeof why === 'string' && why.length > 0 && !msg.includes(why) ? ` (${why})` : '';
  return `${typeof log.module === 'string' ? `${log.module}: ` : ''}${msg}${tail}`;
}

/**
 * pino-pretty (about 30 modules) is loaded only when a log is printed for humans: a node logging JSON (a service,
 * a pipe) never loads it. It is CommonJS, so it loads synchronously and the logger stays ready on construction.
 */
function loadPretty(): typeof pinoPretty {
  return createRequire(import.meta.url)('pino-pretty') as typeof pinoPretty;
}

/**
 * A bare run of 64 hex digits: what an admin API key (and its SHA-256 hash) looks like. Hashes the node logs carry
 * 0x, so they never match; a key a client put where it does not belong (a URL query, a param) does.
 */
const KEY_LIKE = /(?<![0-9A-Za-z])[0-9a-fA-F]{64}(?![0-9A-Za-z])/g;
export const REDACTED = '<redacted>';

/** Replaces anything that looks like an admin API key in a log line: no line ever carries one, whoever wrote it. */
export function redactKeys(line: string): string {
  return line.replace(KEY_LIKE, REDACTED);
}

function redactingStream(inner: DestinationStream): DestinationStream {
  return { write: (line: string) => inner.write(redactKeys(line)) };
}

const ORDER = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

function lowestLevel(spec: LogLevelSpec): string {
  const levels = [spec.level, ...Object.values(spec.modules)];
  return ORDER.find((l) => levels.includes(l)) ?? 'info';
}
