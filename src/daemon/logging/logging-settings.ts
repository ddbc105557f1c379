import { parseByteSize, parseEnum, parseInteger, parseNonEmpty } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';
import { formatLogLevelSpec, type LogLevelSpec, parseLogLevelSpec } from './log-levels.js';
import type { LogFormat } from './logger.js';

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
  logFormat: setting<LogFormat>({
    key: 'logFormat',
    flag: 'log-format',
    env: 'NODE_LOG_FORMAT',
    defaultValue: 'auto',
    parse: parseEnum(['auto', 'human', 'json', 'logfmt'] as const),
    kind: 'string',
    group: 'Logging',
    description:
      'Log output: human on a terminal and JSON otherwise (auto), or forced: human, json, or logfmt (key=value pairs).',
  }),
  logStatusInterval: setting<number>({
    key: 'logStatusInterval',
    flag: 'log-status-interval',
    env: 'NODE_LOG_STATUS_INTERVAL',
    defaultValue: 60,
    parse: parseInteger(0, 86_400),
    format: (v) => (v === 0 ? 'off' : `${v} s`),
    kind: 'string',
    group: 'Logging',
    description:
      'Seconds between the status lines the node logs at info (its tips, pending txs and sync state); 0: none.',
  }),
  logFile: setting<string | undefined>({
    key: 'logFile',
    flag: 'log-file',
    env: 'NODE_LOG_FILE',
    defaultValue: undefined,
    parse: parseNonEmpty,
    kind: 'string',
    group: 'Logging',
    description:
      'Write the log to this file (mode 0600, JSON unless --log-format says otherwise) instead of stdout, rotated ' +
      'by size: FILE.1 is the newest rotated part. The start banner still goes to stdout.',
  }),
  logFileMaxSize: setting<number>({
    key: 'logFileMaxSize',
    flag: 'log-file-max-size',
    env: 'NODE_LOG_FILE_MAX_SIZE',
    defaultValue: 100 * 1024 * 1024,
    parse: parseByteSize,
    format: (v) => `${v} bytes`,
    kind: 'string',
    group: 'Logging',
    description: 'Rotate --log-file once it holds this much (e.g. 100mb, 512kb, or bytes).',
  }),
  logFileMaxFiles: setting<number>({
    key: 'logFileMaxFiles',
    flag: 'log-file-max-files',
    env: 'NODE_LOG_FILE_MAX_FILES',
    defaultValue: 5,
    parse: parseInteger(0, 1000),
    kind: 'string',
    group: 'Logging',
    description: 'Rotated parts of --log-file kept beside it (0: none, the file starts over).',
  }),
} as const;

export type LoggingConfig = SettingValues<typeof LOGGING_SETTINGS>;
