import type { Logger } from '../logging/logger.js';
import type { Service } from './service.js';

/** Start-up was cut short: the node was asked to stop (a signal) while its services were starting. */
export class StartupInterrupted extends Error {
  override name = 'StartupInterrupted';
}

/**
 * Starts services in order and stops the started ones in reverse. A failed start stops what already
 * runs, so nothing is left half-started; a failed stop is logged and the next one still runs. A stop asked
 * for during start-up wins: `signal` tells a slow start (the L1 deployment) to give up, and a service whose
 * start ends after the stop is stopped again at once, so nothing outlives the stop.
 */
export class ServiceRunner {
  private readonly started: Service[] = [];
  private readonly stopping = new AbortController();

  constructor(private readonly log: Logger) {}

  /** Aborted once `stopAll` is called: long starts listen to it. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  async start(service: Service): Promise<void> {
    if (this.signal.aborted) throw new StartupInterrupted(`${service.name} not started: the node is stopping`);
    const t0 = performance.now();
    try {
      await service.start();
    } catch (err) {
      // A start that failed because the node is stopping (the deployment killed) is an interruption, not a fault.
      const interrupted = this.signal.aborted;
      if (!interrupted) {
        this.log.error({ service: service.name, err: (err as Error).message }, `failed to start ${service.name}`);
      }
      await this.stopAll();
      throw interrupted && !(err instanceof StartupInterrupted)
        ? new StartupInterrupted(`start-up interrupted while starting ${service.name}: ${(err as Error).message}`)
        : err;
    }
    this.started.push(service);
    if (this.signal.aborted) {
      await this.stopAll();
      throw new StartupInterrupted(`start-up interrupted after starting ${service.name}`);
    }
    this.log.info({ service: service.name, ms: Math.round(performance.now() - t0) }, `started ${service.name}`);
  }

  async stopAll(): Promise<void> {
    this.stopping.abort();
    while (this.started.length > 0) {
      const service = this.started.pop() as Service;
      try {
        await service.stop();
        this.log.info({ service: service.name }, `stopped ${service.name}`);
      } catch (err) {
        this.log.error({ service: service.name, err: (err as Error).message }, `failed to stop ${service.name}`);
      }
    }
  }
}
