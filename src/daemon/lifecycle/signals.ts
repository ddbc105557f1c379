import type { Logger } from '../logging/logger.js';

export interface ShutdownOptions {
  /** Runs the graceful stop. */
  readonly stop: () => Promise<void>;
  readonly log: Logger;
  /** Forced exit when the graceful stop takes longer than this (ms). */
  readonly timeoutMs?: number;
}

const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
/**
 * A signal this soon after the first is the same request: a terminal's Ctrl-C reaches the node directly and again
 * through the bin/run.js wrapper (an older system Node), which forwards the stop signals.
 */
const SAME_REQUEST_MS = 1000;

/**
 * First SIGINT/SIGTERM/SIGHUP: graceful stop, then an explicit exit 0 (lingering handles must never keep
 * a stopped node alive). A second signal (more than SAME_REQUEST_MS later), or the timeout, forces the exit with
 * the signal's code.
 */
export function installShutdownHandlers(options: ShutdownOptions): void {
  const { stop, log } = options;
  const timeoutMs = options.timeoutMs ?? 15_000;
  let stoppingSince: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      if (performance.now() - stoppingSince < SAME_REQUEST_MS) return;
      log.warn({ signal }, `received ${signal} again: forcing exit`);
      process.exit(EXIT_CODES[signal] ?? 1);
    }
    stoppingSince = performance.now();
    log.info({ signal }, `received ${signal}: stopping (send it again to force)`);
    const timer = setTimeout(() => {
      log.error({ timeoutMs }, `graceful stop took longer than ${timeoutMs} ms: forcing exit`);
      process.exit(EXIT_CODES[signal] ?? 1);
    }, timeoutMs);
    timer.unref();
    stop().then(
      () => {
        log.info('node stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err: (err as Error).message }, 'stop failed');
        process.exit(1);
      },
    );
  };
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, onSignal);
}
