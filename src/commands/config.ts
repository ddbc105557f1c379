import { Flags } from '@oclif/core';
import { renderConfigFile, settingValueText } from '../daemon/config/config-file.js';
import { ConfigError, describeConfig, type ResolvedConfig, resolveConfig } from '../daemon/config/resolve-config.js';
import type { Setting } from '../daemon/config/setting.js';
import { SETTINGS, type SettingKey } from '../daemon/config/settings.js';
import { BaseCommand } from './_lib/base-command.js';
import { CliError } from './_lib/cli-error.js';
import { settingFlags } from './_lib/setting-flags.js';

export default class Config extends BaseCommand {
  static override summary = 'Print the effective settings (flags > env > config file > defaults), secrets redacted.';
  static override description =
    'Takes the same flags as `start` (--config FILE included) and shows what a node started with them would use, ' +
    'and where each value came from (flag, env, file, default). The --json result is {settings: [{key, flag, env, ' +
    'value, text, source, secret, runtime}]}: value as JSON (numbers as numbers), text as printed. With --dump it ' +
    'prints a complete config file of those settings instead (TOML, or JSON with --dump-format json), to keep as ' +
    "the node's --config. A running node's runtime configuration is shown by `l2node admin config get`.";
  static override examples = [
    '<%= config.bin %> config',
    '<%= config.bin %> config --port 9000 --json',
    '<%= config.bin %> config --data-directory ./data --port 9000 --dump',
  ];
  static override flags = {
    ...settingFlags(),
    dump: Flags.boolean({ description: 'Print a complete config file of the effective settings (for --config).' }),
    'dump-format': Flags.string({
      description: 'The format of --dump: toml or json.',
      options: ['toml', 'json'],
      default: 'toml',
    }),
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(Config);
    let resolved: ResolvedConfig;
    try {
      resolved = resolveConfig(flags, process.env);
    } catch (err) {
      if (err instanceof ConfigError) throw CliError.usage(err.message, ['see the settings: l2node start --help']);
      throw err;
    }
    const rows = describeConfig(resolved);
    if (flags.dump) {
      const format = flags['dump-format'] === 'json' ? 'json' : 'toml';
      const text = renderConfigFile(dumpRows(resolved), format);
      if (!this.jsonEnabled()) process.stdout.write(text);
      return { format, file: text };
    }
    const width = Math.max(...rows.map((r) => r.key.length));
    for (const r of rows) {
      this.log(`${r.key.padEnd(width)}  ${r.value ?? '(unset)'}  [${r.source}; ${r.flag}, ${r.env}]`);
    }
    // JSON values for scripts (numbers as numbers); the human text stays in `text`.
    return { settings: rows.map(({ json, value, ...r }) => ({ ...r, value: json, text: value })) };
  }
}

/** Every setting but the config file's own path, with its value as flag text. */
function dumpRows(resolved: ResolvedConfig) {
  return (Object.entries(SETTINGS) as [SettingKey, Setting<unknown>][])
    .filter(([key]) => key !== 'configFile')
    .map(([key, s]) => {
      const value = resolved.config[key];
      return {
        key,
        flag: s.flag,
        description: s.description,
        text: value === undefined ? undefined : settingValueText(s, value),
        source: resolved.sources[key],
        secret: s.secret ?? false,
      };
    });
}
