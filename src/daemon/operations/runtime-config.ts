import { type Setting, SettingParseError, settingJson } from '../config/setting.js';
import { type NodeConfig, SETTINGS, type SettingKey } from '../config/settings.js';

/** A nodeAdmin_setConfig refused as a whole; `problems` names each bad key and why. */
export class ConfigUpdateError extends Error {
  override name = 'ConfigUpdateError';

  constructor(readonly problems: readonly string[]) {
    super(`setConfig changed nothing: ${problems.join('; ')}`);
  }
}

/** The keys nodeAdmin_setConfig changed, with their new values in JSON form. */
export type ConfigChange = Readonly<Partial<Record<SettingKey, unknown>>>;

/**
 * NodeAdminConfig (docs/aztec-facts.md section 2.10): the rows of THE settings table marked `runtime`, under their
 * table keys (4.1.2's names where 4.1.2 has the setting). Reads and writes go to the one config object the
 * services hold, in place, so a service that reads its setting when it uses it sees a change at once; services
 * that must act on a change (evict, retime) get it through `apply`.
 */
export class RuntimeConfig {
  constructor(
    private readonly config: NodeConfig,
    /** Runs the effects of a change (already written to the config); must not throw for valid values. */
    private readonly apply: (changed: readonly SettingKey[]) => void = () => {},
  ) {}

  /** The runtime settings that have a value, as JSON; secrets never appear. */
  get(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, s] of runtimeSettings()) {
      const value = this.config[key];
      if (value === undefined) continue;
      out[key] = settingJson(s, value);
    }
    return out;
  }

  /**
   * Validates every key of `partial` first and applies all of them or none: unknown keys, keys that cannot
   * change at runtime and bad values are each named in one ConfigUpdateError. Returns what changed.
   */
  set(partial: Readonly<Record<string, unknown>>): ConfigChange {
    const problems: string[] = [];
    const parsed: [SettingKey, unknown][] = [];
    const table = SETTINGS as Readonly<Record<string, Setting<unknown>>>;
    for (const [key, value] of Object.entries(partial)) {
      const s = Object.hasOwn(table, key) ? table[key] : undefined;
      if (!s) {
        problems.push(`unknown key ${key}`);
        continue;
      }
      if (!s.runtime || s.secret) {
        problems.push(`${key} cannot be changed at runtime (restart with --${s.flag})`);
        continue;
      }
      if (value === null || value === undefined) {
        problems.push(`${key}: expected a value, got ${value === null ? 'null' : 'nothing'}`);
        continue;
      }
      try {
        parsed.push([key as SettingKey, s.parseJson ? s.parseJson(value) : parseScalar(s, value)]);
      } catch (err) {
        const why = err instanceof SettingParseError ? err.message : String((err as Error).message ?? err);
        problems.push(`${key}: ${why}`);
      }
    }
    if (problems.length > 0) throw new ConfigUpdateError(problems);
    const config = this.config as Record<SettingKey, unknown>;
    const changed: Partial<Record<SettingKey, unknown>> = {};
    for (const [key, value] of parsed) {
      config[key] = value;
      changed[key] = settingJson(table[key] as Setting<unknown>, value);
    }
    if (parsed.length > 0) this.apply(parsed.map(([key]) => key));
    return changed;
  }
}

/** The rows nodeAdmin_getConfig / setConfig cover. */
export function runtimeSettings(): [SettingKey, Setting<unknown>][] {
  return (Object.entries(SETTINGS) as [SettingKey, Setting<unknown>][]).filter(([, s]) => s.runtime && !s.secret);
}

/**
 * A row without parseJson: a JSON value of the row's own type, read as the flag would be. A number setting
 * takes a JSON number and a switch a JSON boolean (a string there is a caller's mistake, not a value to
 * coerce); other rows take a string (or a number, for bigints and addresses sent as decimals).
 */
function parseScalar(s: Setting<unknown>, value: unknown): unknown {
  if (s.kind === 'boolean') {
    if (typeof value !== 'boolean') throw new SettingParseError(`expected a boolean, got ${JSON.stringify(value)}`);
    return s.parse(String(value));
  }
  if (typeof s.defaultValue === 'number') {
    if (typeof value !== 'number') throw new SettingParseError(`expected a number, got ${JSON.stringify(value)}`);
    return s.parse(String(value));
  }
  if (typeof value === 'string' || typeof value === 'number') {
    return s.parse(String(value));
  }
  throw new SettingParseError(`expected a string or number, got ${JSON.stringify(value)}`);
}
