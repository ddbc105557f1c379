import { EXIT_CODES, type ExitCode } from './exit-codes.js';

export interface CliErrorOptions {
  readonly exitCode: ExitCode;
  /** Stable machine-readable code (`UNREACHABLE`, `NOT_FOUND`, `TX_REJECTED`...), the `error.code` of --json. */
  readonly code: string;
  /** What to do next, one command or step per entry; printed after the message. */
  readonly actions?: readonly string[];
  /** Details for scripts (the node's JSON-RPC error code and data, failed checks...). */
  readonly data?: unknown;
}

/**
 * A failure a command reports on purpose: one message saying what went wrong, an exit code scripts can
 * branch on, and the next steps. Anything else a command throws is reported as an internal error.
 */
export class CliError extends Error {
  override name = 'CliError';
  readonly exitCode: ExitCode;
  readonly code: string;
  readonly actions: readonly string[];
  readonly data: unknown;

  constructor(message: string, options: CliErrorOptions) {
    super(message);
    this.exitCode = options.exitCode;
    this.code = options.code;
    this.actions = options.actions ?? [];
    this.data = options.data;
  }

  static usage(message: string, actions: readonly string[] = []): CliError {
    return new CliError(message, { exitCode: EXIT_CODES.usage, code: 'USAGE', actions });
  }

  static notFound(message: string, actions: readonly string[] = []): CliError {
    return new CliError(message, { exitCode: EXIT_CODES.notFound, code: 'NOT_FOUND', actions });
  }

  static failed(message: string, code = 'ERROR', actions: readonly string[] = [], data?: unknown): CliError {
    return new CliError(message, { exitCode: EXIT_CODES.error, code, actions, data });
  }
}
