import { ANSWER_STYLES, type AnswerStyle } from '../../rpc/rpc-method.js';
import { byteSize } from './byte-size-setting.js';
import {
  parseBoolean,
  parseEnum,
  parseHost,
  parseInteger,
  parseNonEmpty,
  parsePort,
  parseSha256Hex,
} from './parsers.js';
import { type SettingValues, setting } from './setting.js';

/** The public and admin JSON-RPC listeners and the metrics endpoint (src/rpc/server, src/daemon/metrics). */
export const NETWORK_SETTINGS = {
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
  rpcMaxBodySize: byteSize(
    'rpcMaxBodySize',
    'rpc-max-body-size',
    'NODE_RPC_MAX_BODY_SIZE',
    1024 * 1024,
    'Network',
    'Largest JSON-RPC request body accepted (e.g. 1mb, 512kb); larger bodies get HTTP 413.',
  ),
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
  rpcMaxResponseSize: byteSize(
    'rpcMaxResponseSize',
    'rpc-max-response-size',
    'NODE_RPC_MAX_RESPONSE_SIZE',
    25 * 1024 * 1024,
    'Network',
    'Largest JSON-RPC answer to one request or one batch (e.g. 25mb, as geth); a call whose answer would pass it gets a LIMIT_EXCEEDED error instead, and the node keeps serving others.',
  ),
  rpcMaxRequestsPerConnection: setting<number>({
    key: 'rpcMaxRequestsPerConnection',
    flag: 'rpc-max-requests-per-connection',
    env: 'NODE_RPC_MAX_REQUESTS_PER_CONNECTION',
    defaultValue: 8,
    parse: parseInteger(1, 1000),
    kind: 'string',
    group: 'Network',
    description:
      'Most HTTP requests one connection may have in flight at once (pipelined); more get HTTP 429 with a LIMIT_EXCEEDED error.',
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
  rpcAnswerStyle: setting<AnswerStyle>({
    key: 'rpcAnswerStyle',
    flag: 'rpc-answer-style',
    env: 'NODE_RPC_ANSWER_STYLE',
    defaultValue: 'aztec',
    parse: parseEnum(ANSWER_STYLES),
    kind: 'string',
    group: 'Network',
    description:
      "Forms of the answers: aztec (what the official 4.1.2 client reads: receipt statuses proposed, checkpointed, proven, finalized; base64 sibling paths) or spec (the spec's forms: status mined, sibling paths as string[] of hex).",
  }),
  metricsPort: setting<number | undefined>({
    key: 'metricsPort',
    flag: 'metrics-port',
    env: 'NODE_METRICS_PORT',
    defaultValue: undefined,
    parse: parsePort,
    kind: 'string',
    group: 'Network',
    description:
      'Serve Prometheus metrics (GET /metrics) on a listener of their own at this port (9464 is the usual choice; 0 picks a free one); unset: no metrics listener. docs/operations.md lists the series and has a scrape config.',
  }),
  metricsHost: setting<string>({
    key: 'metricsHost',
    flag: 'metrics-host',
    env: 'NODE_METRICS_HOST',
    defaultValue: '127.0.0.1',
    parse: parseHost,
    kind: 'string',
    group: 'Network',
    description: 'Address the metrics listener binds (loopback by default; 0.0.0.0 for a scraper on another machine).',
  }),
} as const;

/** The admin listener's API key (src/rpc/server/admin-api-key.ts). */
export const ADMIN_API_SETTINGS = {
  adminApiKeyHash: setting<string | undefined>({
    key: 'adminApiKeyHash',
    flag: 'admin-api-key-hash',
    env: 'NODE_ADMIN_API_KEY_HASH',
    defaultValue: undefined,
    parse: parseSha256Hex,
    kind: 'string',
    // A hash, but of a key that may be short enough to guess from it: never printed.
    secret: true,
    group: 'Admin API',
    description: 'Use this pre-generated SHA-256 hash (64 hex digits, either case) of the admin API key.',
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
} as const;

export type NetworkConfig = SettingValues<typeof NETWORK_SETTINGS>;

export type AdminApiConfig = SettingValues<typeof ADMIN_API_SETTINGS>;
