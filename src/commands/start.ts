import { Command } from '@oclif/core';
import { ConfigError, resolveConfig } from '../daemon/config/resolve-config.js';
import { installShutdownHandlers } from '../daemon/lifecycle/signals.js';
import { NodeLogger } from '../daemon/logging/logger.js';
import { L2Node } from '../daemon/node.js';
import { settingFlags } from './_lib/setting-flags.js';

export default class Start extends Command {
  static override summary = 'Start the node (a local dev chain by default).';
  static override description =
    'Runs the daemon: public JSON-RPC (node_ methods) and admin JSON-RPC (nodeAdmin_ methods) over one SQLite database. ' +
    'Every flag has an environment variable twin; flags win over env, env over defaults. Stop it with Ctrl+C or SIGTERM.';
  static override examples = [
    '<%= config.bin %> start',
    '<%= config.bin %> start --data-directory ./data --port 8080 --admin-port 8880',
    'NODE_LOG_LEVEL="info; debug: rpc" <%= config.bin %> start --log-format json',
  ];
  static override flags = settingFlags();

  async run(): Promise<void> {
    const { flags } = await this.parse(Start);
    let resolved: ReturnType<typeof resolveConfig>;
    try {
      resolved = resolveConfig(flags, process.env);
    } catch (err) {
      if (err instanceof ConfigError) {
        process.stderr.write(`l2node start: ${err.message}\n`);
        this.exit(2);
      }
      throw err;
    }
    const { config } = resolved;
    const logger = new NodeLogger({ spec: config.logLevel, format: config.logFormat });
    const node = new L2Node(config, logger);
    installShutdownHandlers({ stop: () => node.stop(), log: node.log });
    try {
      await node.start();
    } catch (err) {
      node.log.fatal({ err: (err as Error).message }, `node failed to start: ${(err as Error).message}`);
      process.exitCode = 1;
      process.exit(1);
    }
  }
}
