import { formatLogLevelSpec, type LogLevelSpec, parseLogLevelSpec } from '../logging/log-levels.js';
import {
  parseBigInt,
  parseBoolean,
  parseByteSize,
  parseEnum,
  parseHost,
  parseInteger,
  parseNonEmpty,
  parsePort,
  parseSha256Hex,
} from './parsers.js';
import type { Setting } from './setting.js';

function setting<T>(s: Setting<T>): Setting<T> {
  return s;
}

/**
 * THE settings table. Spec names are used exactly as the spec gives them (part 5 and part 9); the
 * others follow the same pattern with the NODE_ prefix (BOT_ for the transaction bot).
 * Precedence: flag > env > default.
 */
export const SETTINGS = {
  port: setting<number>({
    key: 'port',
    flag: 'port',
    env: 'NODE_PORT',
    defaultValue: 8080,
    parse: parsePort,
    kind: 'string',
    group: 'Network',
    description: 'Port of the public JSON-RPC listener (node_ methods); 0 picks a free port.',
  }),
  host: setting<string>({
    key: 'host',
    flag: 'host',
    env: 'NODE_HOST',
    defaultValue: '127.0.0.1',
    parse: parseHost,
    kind: 'string',
    group: 'Network',
    description: 'Address the public listener binds; use 0.0.0.0 to serve other machines.',
  }),
  adminPort: setting<number>({
    key: 'adminPort',
    flag: 'admin-port',
    env: 'NODE_ADMIN_PORT',
    defaultValue: 8880,
    parse: parsePort,
    kind: 'string',
    group: 'Network',
    description: 'Port of the admin JSON-RPC listener (nodeAdmin_ methods); 0 picks a free port.',
  }),
  adminHost: setting<string>({
    key: 'adminHost',
    flag: 'admin-host',
    env: 'NODE_ADMIN_HOST',
    defaultValue: '127.0.0.1',
    parse: parseHost,
    kind: 'string',
    group: 'Network',
    description: 'Address the admin listener binds. Loopback by default: admin calls come from the host itself.',
  }),
  rpcMaxBodySize: setting<number>({
    key: 'rpcMaxBodySize',
    flag: 'rpc-max-body-size',
    env: 'NODE_RPC_MAX_BODY_SIZE',
    defaultValue: 1024 * 1024,
    parse: parseByteSize,
    format: (v) => `${v} bytes`,
    kind: 'string',
    group: 'Network',
    description: 'Largest JSON-RPC request body accepted (e.g. 1mb, 512kb); larger bodies get HTTP 413.',
  }),
  rpcMaxBatchSize: setting<number>({
    key: 'rpcMaxBatchSize',
    flag: 'rpc-max-batch-size',
    env: 'NODE_RPC_MAX_BATCH_SIZE',
    defaultValue: 100,
    parse: parseInteger(1, 10_000),
    kind: 'string',
    group: 'Network',
    description: 'Most requests accepted in one JSON-RPC batch.',
  }),
  rpcCorsOrigin: setting<string>({
    key: 'rpcCorsOrigin',
    flag: 'rpc-cors-origin',
    env: 'NODE_RPC_CORS_ORIGIN',
    defaultValue: '*',
    parse: parseNonEmpty,
    kind: 'string',
    group: 'Network',
    description:
      'Access-Control-Allow-Origin of the public listener, for browser clients (the admin listener has no CORS).',
  }),
  dataDirectory: setting<string | undefined>({
    key: 'dataDirectory',
    flag: 'data-directory',
    env: 'NODE_DATA_DIRECTORY',
    defaultValue: undefined,
    parse: parseNonEmpty,
    kind: 'string',
    group: 'Storage',
    description: 'Directory of the node database and admin key hash. Unset: everything lives in memory for one run.',
  }),
  adminApiKeyHash: setting<string | undefined>({
    key: 'adminApiKeyHash',
    flag: 'admin-api-key-hash',
    env: 'NODE_ADMIN_API_KEY_HASH',
    defaultValue: undefined,
    parse: parseSha256Hex,
    kind: 'string',
    group: 'Admin API',
    description: 'Use this pre-generated SHA-256 hash (64 lowercase hex) of the admin API key.',
  }),
  disableAdminApiKey: setting<boolean>({
    key: 'disableAdminApiKey',
    flag: 'disable-admin-api-key',
    env: 'NODE_DISABLE_ADMIN_API_KEY',
    defaultValue: false,
    parse: parseBoolean,
    kind: 'boolean',
    group: 'Admin API',
    description: 'Disable admin API authentication entirely (not for production).',
  }),
  resetAdminApiKey: setting<boolean>({
    key: 'resetAdminApiKey',
    flag: 'reset-admin-api-key',
    env: 'NODE_RESET_ADMIN_API_KEY',
    defaultValue: false,
    parse: parseBoolean,
    kind: 'boolean',
    group: 'Admin API',
    description: 'Generate a new admin API key at start-up, replacing the stored hash.',
  }),
  l1ChainId: setting<number>({
    key: 'l1ChainId',
    flag: 'l1-chain-id',
    env: 'NODE_L1_CHAIN_ID',
    defaultValue: 31337,
    parse: parseInteger(1, 2 ** 32 - 1),
    kind: 'string',
    group: 'Chain',
    description: 'L1 chain id this rollup settles on (txs must carry it).',
  }),
  rollupVersion: setting<number>({
    key: 'rollupVersion',
    flag: 'rollup-version',
    env: 'NODE_ROLLUP_VERSION',
    defaultValue: 1,
    parse: parseInteger(0, 2 ** 32 - 1),
    kind: 'string',
    group: 'Chain',
    description: 'Rollup protocol version (txs must carry it; node_getVersion returns it).',
  }),
  initialEthPerFeeAsset: setting<bigint>({
    key: 'initialEthPerFeeAsset',
    flag: 'initialEthPerFeeAsset',
    env: 'NODE_INITIAL_ETH_PER_FEE_ASSET',
    defaultValue: 10_000_000n,
    parse: parseBigInt(1n),
    format: (v) => `${v} (${Number(v) / 1e12} ETH per fee asset unit)`,
    kind: 'string',
    group: 'Fees',
    description:
      'Initial ETH per fee-asset exchange rate at genesis, precision 1e12 (default 10000000 = 0.00001 ETH per unit).',
  }),
  botMinFeePadding: setting<number>({
    key: 'botMinFeePadding',
    flag: 'bot.minFeePadding',
    env: 'BOT_MIN_FEE_PADDING',
    defaultValue: 3,
    parse: parseInteger(0, 1_000_000),
    kind: 'string',
    group: 'Bot',
    description: 'How much the transaction bot overpays vs. the current min fee: it offers minFee * (1 + padding).',
  }),
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

export type SettingsTable = typeof SETTINGS;
export type SettingKey = keyof SettingsTable;
type ValueOf<S> = S extends Setting<infer T> ? T : never;

/** The resolved configuration of a node: one value per row of the table. */
export type NodeConfig = { -readonly [K in SettingKey]: ValueOf<SettingsTable[K]> };

/**
 * Flags and env vars that existed and were removed; using one stops start-up with a message naming
 * its replacement (spec part 9, breaking changes of v4.0.0).
 */
export const REMOVED_SETTINGS = [
  { flag: 'bot.baseFeePadding', env: 'BOT_BASE_FEE_PADDING', replacement: SETTINGS.botMinFeePadding },
] as const;
