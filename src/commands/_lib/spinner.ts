import { ux } from '@oclif/core';

/**
 * A spinner on stderr while waiting, only for a person at a terminal: never under --json and never when
 * stderr is a pipe (scripts and logs get no control characters).
 */
export class Spinner {
  private readonly on: boolean;

  constructor(enabled: boolean) {
    this.on = enabled && process.stderr.isTTY === true;
  }

  start(text: string, status?: string): void {
    if (this.on) ux.action.start(text, status, { stdout: false });
  }

  status(status: string): void {
    if (this.on) ux.action.status = status;
  }

  stop(result: string): void {
    if (this.on) ux.action.stop(result);
  }
}
