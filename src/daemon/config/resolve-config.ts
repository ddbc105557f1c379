import damerauLevenshtein from 'damerau-levenshtein';
import { ConfigFileError, configFileValueText, readConfigFile } from './config-file.js';
import { type Setting, SettingParseError, settingJson } from './setting.js';
import { type NodeConfig, REMOVED_SETTINGS, SETTINGS, type SettingKey } from './settings.js';

/** A bad flag or env value: the message is one line naming the setting and what was expected. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type SettingSource = 'flag' | 'env' | 'file' | 'default' | 'unset';

export interface ResolvedConfig {
  readonly config: NodeConfig;
  readonly sources: Readonly<Record<SettingKey, SettingSource>>;
}

/** Raw flag values as oclif hands them over: strings, or true for a given switch. */
export type RawFlags = Readonly<Record<string, string | boolean | undefined>>;

/**
 * Resolves every setting with the precedence flag > env > config file (--config) > default. All values are parsed
 * before anything starts, so a bad value stops start-up with one line and nothing half-started.
 */
export function resolveConfig(flags: RawFlags, env: NodeJS.ProcessEnv): ResolvedConfig {
  for (const removed of REMOVED_SETTINGS) {
    const via =
      flags[removed.flag] !== undefined
        ? `--${removed.flag}`
        : env[removed.env] !== undefined
          ? removed.env
          : undefined;
    if (via) {
      throw new ConfigError(
        `${via} was removed in v4.0.0: use --${removed.replacement.flag} (${removed.replacement.env}) instead`,
      );
    }
  }
  const config: Record<string, unknown> = {};
  const sources: Record<string, SettingSource> = {};
  const file = configFileValues(flags, env);
  for (const [key, s] of Object.entries(SETTINGS) as [SettingKey, Setting<unknown>][]) {
    const flagValue = flags[s.flag];
    const envValue = env[s.env];
    let raw: string | undefined;
    let source: SettingSource;
    if (flagValue !== undefined && flagValue !== false) {
      raw = flagValue === true ? 'true' : flagValue;
      source = 'flag';
    } else if (envValue !== undefined && envValue !== '') {
      raw = envValue;
      source = 'env';
    } else if (file && key in file.values) {
      try {
        raw = configFileValueText(key, file.values[key]);
      } catch (err) {
        throw new ConfigError(`invalid value for ${key} in ${file.path}: ${(err as Error).message}`);
      }
      source = 'file';
    } else {
      config[key] = s.defaultValue;
      sources[key] = s.defaultValue === undefined ? 'unset' : 'default';
      continue;
    }
    try {
      config[key] = s.parse(raw);
    } catch (err) {
      const why = err instanceof SettingParseError ? err.message : String((err as Error).message ?? err);
      const from =
        source === 'flag'
          ? `--${s.flag}`
          : source === 'file'
            ? `${key} in ${file?.path} (--${s.flag})`
            : `${s.env} (--${s.flag})`;
      throw new ConfigError(`invalid value for ${from}: ${why}`);
    }
    sources[key] = source;
  }
  return { config: config as NodeConfig, sources: sources as Record<SettingKey, SettingSource> };
}

/** The config file's settings, checked against the table: an unknown key is refused with the closest one. */
function configFileValues(
  flags: RawFlags,
  env: NodeJS.ProcessEnv,
): { path: string; values: Record<string, unknown> } | undefined {
  const s = SETTINGS.configFile;
  const flagValue = flags[s.flag];
  const path = typeof flagValue === 'string' && flagValue !== '' ? flagValue : env[s.env] || undefined;
  if (!path) return undefined;
  let values: Record<string, unknown>;
  try {
    values = readConfigFile(path);
  } catch (err) {
    if (err instanceof ConfigFileError) throw new ConfigError(err.message);
    throw err;
  }
  const keys = Object.keys(SETTINGS).filter((k) => k !== 'configFile');
  for (const key of Object.keys(values)) {
    if (keys.includes(key)) continue;
    const byFlag = (Object.entries(SETTINGS) as [string, Setting<unknown>][]).find(([, r]) => r.flag === key)?.[0];
    const closest = byFlag ?? keys.find((k) => damerauLevenshtein(k, key).steps <= Math.max(2, key.length / 4));
    throw new ConfigError(
      `${path}: unknown setting "${key}"${closest && closest !== 'configFile' ? `, did you mean "${closest}"?` : ''} ` +
        '(the keys are those of docs/configuration.md)',
    );
  }
  return { path, values };
}

/**
 * The effective settings as printable strings (`value`) and as JSON values (`json`: numbers as numbers, for
 * `l2node config --json`), secrets redacted (for `l2node config` and the banner).
 */
export function describeConfig(resolved: ResolvedConfig): {
  key: string;
  flag: string;
  env: string;
  value: string | null;
  json: unknown;
  source: SettingSource;
  secret: boolean;
  runtime: boolean;
}[] {
  return (Object.entries(SETTINGS) as [SettingKey, Setting<unknown>][]).map(([key, s]) => {
    const v = resolved.config[key];
    let value: string | null;
    let json: unknown;
    if (v === undefined) value = json = null;
    else if (s.secret) value = json = '<redacted>';
    else {
      value = s.format ? s.format(v) : String(v);
      json = settingJson(s, v);
    }
    return {
      key,
      flag: `--${s.flag}`,
      env: s.env,
      value,
      json,
      source: resolved.sources[key],
      secret: s.secret ?? false,
      runtime: s.runtime ?? false,
    };
  });
}
