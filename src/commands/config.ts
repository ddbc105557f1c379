import { Command, Flags } from '@oclif/core';
import { ConfigError, describeConfig, resolveConfig } from '../daemon/config/resolve-config.js';
import { settingFlags } from './_lib/setting-flags.js';

export default class Config extends Command {
  static override summary = 'Print the effective settings (flags > env > defaults), secrets redacted.';
  static override description =
    'Takes the same flags as `start` and shows what a node started with them would use, and where each value came from.';
  static override examples = ['<%= config.bin %> config', '<%= config.bin %> config --port 9000 --json'];
  static override enableJsonFlag = true;
  static override flags = { ...settingFlags(), json: Flags.boolean({ description: 'Print JSON.' }) };

  async run(): Promise<unknown> {
    const { flags } = await this.parse(Config);
    try {
      const rows = describeConfig(resolveConfig(flags, process.env));
      if (!this.jsonEnabled()) {
        const width = Math.max(...rows.map((r) => r.key.length));
        for (const r of rows) {
          this.log(`${r.key.padEnd(width)}  ${r.value ?? '(unset)'}  [${r.source}; ${r.flag}, ${r.env}]`);
        }
      }
      return { settings: rows };
    } catch (err) {
      if (err instanceof ConfigError) {
        process.stderr.write(`l2node config: ${err.message}\n`);
        this.exit(2);
      }
      throw err;
    }
  }
}
