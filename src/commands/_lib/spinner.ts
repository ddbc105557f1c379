import type { ux as oclifUx } from '@oclif/core';

/**
 * A spinner on stderr while waiting, only for a person at a terminal: never under --json and never when
 * stderr is a pipe (scripts and logs get no control characters). It is oclif's (ux.action), loaded with the full
 * oclif when a spinner first starts (a run without one loads only oclif's lean part, src/commands/_lib/command.ts):
 * each step waits for the ones before it, and `stop` for all of them, so its last line comes before the output.
 */
export class Spinner {
  private readonly on: boolean;
  private steps: Promise<typeof oclifUx> | undefined;

  constructor(enabled: boolean) {
    this.on = enabled && process.stderr.isTTY === true;
  }

  start(text: string, status?: string): void {
    if (!this.on) return;
    this.steps = import('@oclif/core').then(({ ux }) => {
      ux.action.start(text, status, { stdout: false });
      return ux;
    });
  }

  status(status: string): void {
    this.steps = this.steps?.then((ux) => {
      ux.action.status = status;
      return ux;
    });
  }

  async stop(result: string): Promise<void> {
    (await this.steps)?.action.stop(result);
  }
}
