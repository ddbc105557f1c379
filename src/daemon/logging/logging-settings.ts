import { parseEnum } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';
import { formatLogLevelSpec, type LogLevelSpec, parseLogLevelSpec } from './log-levels.js';

/** Log levels and format. */
export const LOGGING_SETTINGS = {
  logLevel: setting<LogLevelSpec>({
    key: 'logLevel',
    flag: 'log-level',
    env: 'NODE_LOG_LEVEL',
    defaultValue: { level: 'info', modules: {} },
    parse: parseLogLevelSpec,
    format: formatLogLevelSpec,
    kind: 'string',
    group: 'Logging',
    description: 'Log level, with per-module overrides: "info; debug: rpc,world-state". Levels: fatal..trace, silent.',
  }),
  logFormat: setting<'auto' | 'human' | 'json'>({
    key: 'logFormat',
    flag: 'log-format',
    env: 'NODE_LOG_FORMAT',
    defaultValue: 'auto',
    parse: parseEnum(['auto', 'human', 'json'] as const),
    kind: 'string',
    group: 'Logging',
    description: 'Log output: human on a terminal and JSON otherwise (auto), or forced.',
  }),
} as const;

export type LoggingConfig = SettingValues<typeof LOGGING_SETTINGS>;
