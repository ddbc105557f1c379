import type { NodeConfig } from './config/settings.js';
import { ServiceRunner } from './lifecycle/service-runner.js';
import type { Logger, NodeLogger } from './logging/logger.js';
import { DatabaseService } from './store/database-service.js';

export type NodeState = 'starting' | 'running' | 'stopping' | 'stopped';

/**
 * The composition root of the daemon: builds every service from the config, starts them in order and
 * stops them in reverse. Services reach each other only through what this class hands them.
 */
export class L2Node {
  state: NodeState = 'starting';
  readonly startedAt = new Date();
  readonly log: Logger;
  readonly database: DatabaseService;
  private readonly runner: ServiceRunner;

  constructor(
    readonly config: NodeConfig,
    readonly logger: NodeLogger,
  ) {
    this.log = logger.module('node');
    this.runner = new ServiceRunner(this.log);
    this.database = new DatabaseService(config.dataDirectory);
  }

  async start(): Promise<void> {
    this.log.info(
      { dataDirectory: this.config.dataDirectory ?? null },
      this.config.dataDirectory
        ? `starting node with data directory ${this.config.dataDirectory}`
        : 'starting node in memory (no --data-directory): nothing is kept after it stops',
    );
    await this.runner.start(this.database);
    this.state = 'running';
    this.log.info('node running');
  }

  async stop(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') return;
    this.state = 'stopping';
    await this.runner.stopAll();
    this.state = 'stopped';
  }
}
