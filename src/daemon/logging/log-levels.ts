import { SettingParseError } from '../config/setting.js';

export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Names other stacks use for the same levels (an operator's shared setting must not stop the node). */
const ALIASES: Record<string, LogLevel> = { warning: 'warn', verbose: 'debug', err: 'error', crit: 'fatal' };

/** A default level plus per-module overrides, e.g. `info; debug: rpc,world-state`. */
export interface LogLevelSpec {
  readonly level: LogLevel;
  readonly modules: Readonly<Record<string, LogLevel>>;
}

function level(raw: string): LogLevel {
  const s = raw.trim().toLowerCase();
  const l = (LOG_LEVELS as readonly string[]).includes(s) ? (s as LogLevel) : ALIASES[s];
  if (!l) {
    const aliases = Object.entries(ALIASES).map(([alias, to]) => `${alias} (= ${to})`);
    throw new SettingParseError(
      `unknown log level "${raw.trim()}" (use ${LOG_LEVELS.join(', ')}; also accepted: ${aliases.join(', ')})`,
    );
  }
  return l;
}

/**
 * Parses `<level>` optionally followed by `; <level>: <module>,<module>` groups (the Aztec LOG_LEVEL
 * form). Example: `info; debug: rpc,sync; warn: sequencer`.
 */
export function parseLogLevelSpec(raw: string): LogLevelSpec {
  const parts = raw
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  let base: LogLevel = 'info';
  const modules: Record<string, LogLevel> = {};
  for (const part of parts) {
    const colon = part.indexOf(':');
    if (colon < 0) {
      base = level(part);
      continue;
    }
    const l = level(part.slice(0, colon));
    const names = part
      .slice(colon + 1)
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n.length > 0);
    if (names.length === 0) throw new SettingParseError(`no module names after "${part.slice(0, colon)}:"`);
    for (const n of names) modules[n] = l;
  }
  return { level: base, modules };
}

export function formatLogLevelSpec(spec: LogLevelSpec): string {
  const byLevel = new Map<LogLevel, string[]>();
  for (const [m, l] of Object.entries(spec.modules)) byLevel.set(l, [...(byLevel.get(l) ?? []), m]);
  return [spec.level, ...[...byLevel].map(([l, ms]) => `${l}: ${ms.join(',')}`)].join('; ');
}
