/**
 * One row of the settings table (docs/architecture.md section 4.3): every setting is declared once, and the oclif
 * flags, env twins, `l2node config`, nodeAdmin_getConfig/setConfig and the docs are derived from it.
 */
export interface Setting<T> {
  /** Key in the resolved config object and in NodeAdminConfig (4.1.2's key names where they exist). */
  readonly key: string;
  /** Flag name without the leading dashes, spelled as the spec gives it. */
  readonly flag: string;
  /** Environment variable twin. */
  readonly env: string;
  /** Value used when neither flag nor env is given; undefined means "unset". */
  readonly defaultValue: T | undefined;
  /** Parses a raw flag or env string; throws SettingParseError with a message saying what was expected. */
  parse(raw: string): T;
  /** Renders a value for `l2node config` and the docs (before redaction). */
  format?(value: T): string;
  readonly description: string;
  /** Boolean settings are switches: `--flag` turns them on, env accepts true/false/1/0. */
  readonly kind: 'string' | 'boolean';
  /** Never printed or returned over RPC. */
  readonly secret?: boolean;
  /** May be changed on a running node through nodeAdmin_setConfig. */
  readonly runtime?: boolean;
  /** Help section. */
  readonly group: string;
  /** Parses a JSON value given to nodeAdmin_setConfig (runtime settings only); defaults to parse(String(v)). */
  parseJson?(value: unknown): T;
  /** Renders the value as JSON for nodeAdmin_getConfig (bigints as decimal strings). */
  toJson?(value: T): unknown;
}

export class SettingParseError extends Error {
  override name = 'SettingParseError';
}

/** Declares a row (types its parser, formatter and default together). */
export function setting<T>(s: Setting<T>): Setting<T> {
  return s;
}

/** The values of a group of settings, as the service that declares the group takes them. */
export type SettingValues<G> = { -readonly [K in keyof G]: G[K] extends Setting<infer T> ? T : never };

/**
 * A value's JSON form (nodeAdmin_getConfig, `l2node config --json`): the row's toJson, bigints as decimal
 * strings (reference aztec-wire 6.26), numbers and booleans as themselves, anything else as its text.
 */
export function settingJson<T>(s: Setting<T>, value: T): unknown {
  if (s.toJson) return s.toJson(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' && v !== null ? String(v) : v));
  return String(value);
}
