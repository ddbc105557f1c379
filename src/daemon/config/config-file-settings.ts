import { parseNonEmpty } from './parsers.js';
import { type SettingValues, setting } from './setting.js';

/** Where more settings come from: a config file below flags and env (docs/configuration.md, Config file). */
export const CONFIG_FILE_SETTINGS = {
  configFile: setting<string | undefined>({
    key: 'configFile',
    flag: 'config',
    env: 'NODE_CONFIG_FILE',
    defaultValue: undefined,
    parse: parseNonEmpty,
    kind: 'string',
    group: 'Config file',
    description:
      'A TOML (.toml) or JSON file of settings, keyed as docs/configuration.md names them (port = 8080, ' +
      'dataDirectory = "./data"). Flags and env vars win over it; it wins over the defaults. `l2node config --dump` ' +
      'writes a complete one.',
  }),
} as const;

export type ConfigFileConfig = SettingValues<typeof CONFIG_FILE_SETTINGS>;
