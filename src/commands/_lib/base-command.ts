import { Errors } from '@oclif/core';
import { RpcClientError } from '../../rpc/client/rpc-client-error.js';
import { CliError } from './cli-error.js';
import { Command } from './command.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { rpcFailure } from './rpc-failure.js';
import { unknownFlagMessage } from './unknown-flag.js';

/** What `--json` prints when a command succeeds. `status` is the exit code, so always 0 here. */
export interface JsonSuccess {
  readonly status: 0;
  readonly result: unknown;
  readonly warnings: readonly string[];
}

/** What `--json` prints (on stdout, like a success) when a command fails. */
export interface JsonFailure {
  readonly status: ExitCode;
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly actions: readonly string[];
    readonly data?: unknown;
  };
  readonly warnings: readonly string[];
}

/**
 * The base of every l2node command (docs/aztec-facts.md section 8.1, after salesforce's SfCommand): human output by
 * default, `--json` on every command with one stable envelope, exit codes scripts can branch on
 * (src/commands/_lib/exit-codes.ts), and errors that say what to do next.
 *
 * A command implements `execute()`: it parses its flags, prints its human output with `this.log` (silent
 * under --json) and returns the `result` of the JSON envelope. Failures are thrown as CliError; RPC and
 * usage errors are converted here, so every command reports them the same way.
 */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true;
  readonly #warnings: string[] = [];

  protected abstract execute(): Promise<unknown>;

  override async run(): Promise<void> {
    try {
      const result = await this.execute();
      if (this.jsonEnabled()) this.printJson({ status: 0, result: result ?? null, warnings: this.#warnings });
    } catch (err) {
      if (err instanceof Errors.ExitError) throw err;
      const unknownFlag = unknownFlagMessage(err, Object.keys({ ...this.ctor.baseFlags, ...this.ctor.flags }));
      this.report(
        unknownFlag
          ? new CliError(unknownFlag, {
              exitCode: EXIT_CODES.usage,
              code: 'USAGE',
              actions: [`see the usage: ${this.commandLine()} --help`],
            })
          : toCliError(err, this.commandLine()),
      );
    }
  }

  /** A warning: on stderr for people, in the envelope's `warnings` for scripts. */
  protected warning(message: string): void {
    this.#warnings.push(message);
    if (!this.jsonEnabled()) process.stderr.write(`warning: ${message}\n`);
  }

  /** Progress and notes for people (stderr, so stdout stays the command's output); silent under --json. */
  protected note(message: string): void {
    if (!this.jsonEnabled()) process.stderr.write(`${message}\n`);
  }

  /** `l2node query block`: how the command is typed, for messages. */
  protected commandLine(): string {
    return `${this.config.bin} ${(this.id ?? '').replaceAll(':', ' ')}`.trim();
  }

  private report(e: CliError): void {
    process.exitCode = e.exitCode;
    if (this.jsonEnabled()) {
      const error = {
        code: e.code,
        message: e.message,
        actions: e.actions,
        ...(e.data === undefined ? {} : { data: e.data }),
      };
      this.printJson({ status: e.exitCode, error, warnings: this.#warnings } satisfies JsonFailure);
      return;
    }
    const lines = [`${this.commandLine()}: ${e.message}`, ...e.actions.map((a) => `  - ${a}`)];
    process.stderr.write(`${lines.join('\n')}\n`);
  }

  private printJson(envelope: JsonSuccess | JsonFailure): void {
    process.stdout.write(`${toJsonText(envelope)}\n`);
  }
}

/** JSON with bigints as decimal strings (the wire convention, docs/architecture.md section 4.6). */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
}

/** Any failure as a CliError: RPC client errors by kind, oclif parse errors as usage, the rest as internal. */
export function toCliError(err: unknown, commandLine: string): CliError {
  if (err instanceof CliError) {
    // A flag's own parse function threw it, and oclif rewrote its message (see unwrapFlagParsing).
    err.message = unwrapFlagParsing(err.message);
    return err;
  }
  if (err instanceof RpcClientError) return rpcFailure(err, 'public');
  if (err instanceof Errors.CLIError) {
    const exit = (err as Errors.CLIError & { oclif?: { exit?: number } }).oclif?.exit;
    const message = unwrapFlagParsing(
      err.message.replace(/^Error: /, '').replace(/\n\s*See more help with --help\s*$/, ''),
    );
    return new CliError(message, {
      exitCode: exit === EXIT_CODES.usage || 'parse' in err ? EXIT_CODES.usage : EXIT_CODES.error,
      code: 'USAGE',
      actions: [`see the usage: ${commandLine} --help`],
    });
  }
  if (isStoredDataDamaged(err)) {
    // An offline command read a record that fails its checksum: not a bug to report, but damage to name.
    return new CliError(err.message, {
      exitCode: EXIT_CODES.error,
      code: 'DATA_DAMAGED',
      actions: [
        `see what is damaged: l2node db check --full --data-directory ${err.dataDirectory}`,
        'then `l2node db repair`, or `l2node db rollback <block>` below a damaged block (docs/reliability.md)',
      ],
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  if (process.env.DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  return new CliError(`internal error: ${message}`, {
    exitCode: EXIT_CODES.error,
    code: 'INTERNAL',
    actions: ['run it again with DEBUG=* for the stack, and report it'],
  });
}

/**
 * The daemon's StoredDataDamagedError, known by its name: client commands must not import the daemon
 * (dependency rule), and only the offline `db` commands can meet it.
 */
function isStoredDataDamaged(err: unknown): err is Error & { dataDirectory: string } {
  return err instanceof Error && err.name === 'StoredDataDamagedError' && 'dataDirectory' in err;
}

/** oclif words a flag's parse failure "Parsing --flag \n\t<why>\nSee more help with --help": "--flag: <why>". */
function unwrapFlagParsing(message: string): string {
  const parts = /^Parsing (--[\w.-]+) \n\t([\s\S]*?)(?:\nSee more help with --help)?$/.exec(message);
  return parts ? `${parts[1]}: ${parts[2]}` : message;
}
