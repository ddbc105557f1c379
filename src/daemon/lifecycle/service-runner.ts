import type { Logger } from '../logging/logger.js';
import type { Service } from './service.js';

/**
 * Starts services in order and stops the started ones in reverse. A failed start stops what already
 * runs, so nothing is left half-started; a failed stop is logged and the next one still runs.
 */
export class ServiceRunner {
  private readonly started: Service[] = [];

  constructor(private readonly log: Logger) {}

  async start(service: Service): Promise<void> {
    const t0 = performance.now();
    try {
      await service.start();
    } catch (err) {
      this.log.error({ service: service.name, err: (err as Error).message }, `failed to start ${service.name}`);
      await this.stopAll();
      throw err;
    }
    this.started.push(service);
    this.log.info({ service: service.name, ms: Math.round(performance.now() - t0) }, `started ${service.name}`);
  }

  async stopAll(): Promise<void> {
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
