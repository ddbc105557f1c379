import { ConfigError, describeConfig, resolveConfig } from '../daemon/config/resolve-config.js';
import { BaseCommand } from './_lib/base-command.js';
import { CliError } from './_lib/cli-error.js';
import { settingFlags } from './_lib/setting-flags.js';

export default class Config extends BaseCommand {
  static override summary = 'Print the effective settings (flags > env > defaults), secrets redacted.';
  static override description =
    'Takes the same flags as `start` and shows what a node started with them would use, and where each value came ' +
    "from. The --json result is {settings: [{key, flag, env, value, text, source, secret, runtime}]}: value as JSON (numbers as numbers), text as printed. A running node's " +
    'runtime configuration is shown by `l2node admin config get`.';
  static override examples = ['<%= config.bin %> config', '<%= config.bin %> config --port 9000 --json'];
  static override flags = settingFlags();

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(Config);
    let rows: ReturnType<typeof describeConfig>;
    try {
      rows = describeConfig(resolveConfig(flags, process.env));
    } catch (err) {
      if (err instanceof ConfigError) throw CliError.usage(err.message, ['see the settings: l2node start --help']);
      throw err;
    }
    const width = Math.max(...rows.map((r) => r.key.length));
    for (const r of rows) {
      this.log(`${r.key.padEnd(width)}  ${r.value ?? '(unset)'}  [${r.source}; ${r.flag}, ${r.env}]`);
    }
    // JSON values for scripts (numbers as numbers); the human text stays in `text`.
    return { settings: rows.map(({ json, value, ...r }) => ({ ...r, value: json, text: value })) };
  }
}
