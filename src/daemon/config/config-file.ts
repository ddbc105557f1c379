import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { type Setting, SettingParseError } from './setting.js';

/**
 * A config file (`--config FILE`, `NODE_CONFIG_FILE`): the settings table's keys with their values, as geth, reth
 * and lodestar read one. TOML (`.toml`) or JSON (any other name). A value is the text its flag takes (`port =
 * "8080"`), or a number, a boolean or a list of such, which read as that text (`port = 8080`, `l1RpcUrls = ["a",
 * "b"]` for `a,b`). Precedence: flag > env > file > default.
 */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

export type ConfigFileFormat = 'toml' | 'json';

export function configFileFormat(path: string): ConfigFileFormat {
  return extname(path).toLowerCase() === '.toml' ? 'toml' : 'json';
}

/** The file's top-level table, keys unchecked (resolveConfig checks them against the settings table). */
export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigFileError(
      `cannot read the config file ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = configFileFormat(path) === 'toml' ? parseToml(text) : JSON.parse(text);
  } catch (err) {
    const what = configFileFormat(path) === 'toml' ? 'TOML' : 'JSON';
    throw new ConfigFileError(`the config file ${path} is not valid ${what}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigFileError(`the config file ${path} must hold one table (an object) of settings`);
  }
  return parsed as Record<string, unknown>;
}

/** A file value as the text the setting's flag takes. */
export function configFileValueText(key: string, value: unknown): string {
  const scalar = (v: unknown): string => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
    throw new SettingParseError(`expected text, a number, a boolean or a list of them, got ${JSON.stringify(v)}`);
  };
  try {
    return Array.isArray(value) ? value.map(scalar).join(',') : scalar(value);
  } catch (err) {
    throw new SettingParseError(`${key}: ${(err as Error).message}`);
  }
}

/**
 * A value as the text its flag takes, the inverse of the setting's parse: what `l2node config --dump` writes.
 * Formats are written for people ("(none)", "4 s"), so the candidates (the plain text, the list comma-separated,
 * the format) are each parsed back, and the first that gives the same value is the one.
 */
export function settingValueText<T>(s: Setting<T>, value: T): string {
  const candidates: string[] = [];
  if (typeof value === 'boolean') candidates.push(value ? 'true' : 'false');
  if (Array.isArray(value)) candidates.push(value.map(String).join(','));
  candidates.push(String(value));
  if (s.format) candidates.push(s.format(value));
  if (Array.isArray(value) && value.length === 0) candidates.push('', 'none');
  for (const text of candidates) {
    try {
      if (sameValue(s.parse(text), value)) return text;
    } catch {
      // Not this form: the next candidate.
    }
  }
  throw new SettingParseError(`${s.key}: no text form of its value reads back as the same value`);
}

function sameValue(a: unknown, b: unknown): boolean {
  const text = (v: unknown) =>
    JSON.stringify(v, (_k, x: unknown) =>
      typeof x === 'bigint'
        ? `${x}n`
        : x !== null && typeof x === 'object' && !Array.isArray(x) && x.toString !== Object.prototype.toString
          ? String(x)
          : x,
    );
  return text(a) === text(b);
}

export interface DumpRow {
  readonly key: string;
  readonly flag: string;
  readonly description: string;
  /** The value's flag text; undefined when unset. */
  readonly text: string | undefined;
  readonly source: string;
  readonly secret: boolean;
}

/**
 * A complete config file of the effective settings: every key of the table, each with its value as text (so it
 * reads back as the same value) and, in TOML, its description and where the value came from. Unset settings and
 * secrets are left out of JSON and written commented out in TOML: a secret belongs in the environment.
 */
export function renderConfigFile(rows: readonly DumpRow[], format: ConfigFileFormat): string {
  if (format === 'json') {
    const table: Record<string, string> = {};
    for (const r of rows) if (r.text !== undefined && !r.secret) table[r.key] = r.text;
    return `${JSON.stringify(table, null, 2)}\n`;
  }
  const lines = [
    '# l2node config file (l2node start --config FILE). Precedence: flag > env > this file > default.',
    '# Written by `l2node config --dump`; every setting of docs/configuration.md, with the value in force.',
    '',
  ];
  for (const r of rows) {
    lines.push(`# --${r.flag}: ${r.description.replace(/\s+/g, ' ')}`);
    const assignment = stringifyToml({ [r.key]: r.text ?? '' }).trim();
    if (r.secret) lines.push(`# ${r.key} = "..." (a secret: give it in the environment, not in a file)`);
    else if (r.text === undefined) lines.push(`# ${assignment} (unset)`);
    else lines.push(r.source === 'default' ? `${assignment} # default` : assignment);
    lines.push('');
  }
  return lines.join('\n');
}
