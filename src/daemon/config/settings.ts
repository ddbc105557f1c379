import { AztecAddress } from '../../core/aztec-address.js';
import { EthAddress } from '../../core/eth-address.js';
import { formatLogLevelSpec, type LogLevelSpec, parseLogLevelSpec } from '../logging/log-levels.js';
import {
  formatPrefundedAccounts,
  type PrefundedAccount,
  parsePrefundedAccounts,
} from '../sequencer/prefunded-accounts.js';
import type { SequencerMode } from '../sequencer/sequencer.js';
import {
  parseAztecAddress,
  parseBigInt,
  parseBoolean,
  parseByteSize,
  parseEnum,
  parseEthAddress,
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
  sequencerMode: setting<SequencerMode>({
    key: 'sequencerMode',
    flag: 'sequencer-mode',
    env: 'NODE_SEQUENCER_MODE',
    defaultValue: 'interval',
    parse: parseEnum(['interval', 'on-demand', 'off'] as const),
    kind: 'string',
    group: 'Dev chain',
    description:
      'When the dev sequencer builds blocks: at every block interval of a slot (interval), as soon as a tx is ' +
      'pending (on-demand), or never (off).',
  }),
  slotDuration: setting<number>({
    key: 'slotDuration',
    flag: 'slot-duration',
    env: 'NODE_SLOT_DURATION',
    defaultValue: 4,
    parse: parseInteger(1, 3600),
    format: (v) => `${v} s`,
    kind: 'string',
    group: 'Dev chain',
    description: 'Seconds per L2 slot; the blocks of one slot form a checkpoint (docs/dev-chain.md).',
  }),
  blocksPerSlot: setting<number>({
    key: 'blocksPerSlot',
    flag: 'blocks-per-slot',
    env: 'NODE_BLOCKS_PER_SLOT',
    defaultValue: 2,
    parse: parseInteger(1, 64),
    kind: 'string',
    group: 'Dev chain',
    description: 'Blocks per slot (per checkpoint); a block interval is the slot duration divided by this.',
  }),
  epochDuration: setting<number>({
    key: 'epochDuration',
    flag: 'epoch-duration',
    env: 'NODE_EPOCH_DURATION',
    defaultValue: 4,
    parse: parseInteger(1, 32),
    format: (v) => `${v} slots`,
    kind: 'string',
    group: 'Dev chain',
    description: 'Slots per epoch; proofs, and so the proven and finalized tips, cover whole epochs (at most 32).',
  }),
  proofDelay: setting<number>({
    key: 'proofDelay',
    flag: 'proof-delay',
    env: 'NODE_PROOF_DELAY',
    defaultValue: 4,
    parse: parseInteger(0, 86_400),
    format: (v) => `${v} s`,
    kind: 'string',
    group: 'Dev chain',
    description: 'Seconds after an epoch ends before the dev L1 stand-in marks it proven.',
  }),
  finalityDelay: setting<number>({
    key: 'finalityDelay',
    flag: 'finality-delay',
    env: 'NODE_FINALITY_DELAY',
    defaultValue: 4,
    parse: parseInteger(0, 86_400),
    format: (v) => `${v} s`,
    kind: 'string',
    group: 'Dev chain',
    description: 'Seconds after a proof before the dev L1 stand-in marks it finalized.',
  }),
  minTxsPerBlock: setting<number>({
    key: 'minTxsPerBlock',
    flag: 'min-txs-per-block',
    env: 'NODE_MIN_TXS_PER_BLOCK',
    defaultValue: 1,
    parse: parseInteger(0, 4096),
    kind: 'string',
    group: 'Dev chain',
    description:
      'Fewest txs a block is built with; 0 builds an empty block every slot. A checkpoint bringing L1-to-L2 ' +
      'messages is built even without txs.',
  }),
  maxTxsPerBlock: setting<number>({
    key: 'maxTxsPerBlock',
    flag: 'max-txs-per-block',
    env: 'NODE_MAX_TXS_PER_BLOCK',
    defaultValue: 64,
    parse: parseInteger(1, 4096),
    kind: 'string',
    group: 'Dev chain',
    description: 'Most txs in one block (blocks are also bounded by mana and by the checkpoint blob space).',
  }),
  maxL2BlockGas: setting<number>({
    key: 'maxL2BlockGas',
    flag: 'max-l2-block-gas',
    env: 'NODE_MAX_L2_BLOCK_GAS',
    defaultValue: 100_000_000,
    parse: parseInteger(1, 2 ** 32 - 1),
    kind: 'string',
    group: 'Dev chain',
    description: 'Most L2 gas (mana) the txs of one block may use together.',
  }),
  coinbase: setting<EthAddress>({
    key: 'coinbase',
    flag: 'coinbase',
    env: 'NODE_COINBASE',
    defaultValue: EthAddress.ZERO,
    parse: (raw) => EthAddress.fromString(parseEthAddress(raw)),
    format: (v) => v.toString(),
    toJson: (v) => v.toString(),
    kind: 'string',
    group: 'Dev chain',
    description: 'L1 address the dev sequencer puts in block headers as coinbase (block rewards go there on L1).',
  }),
  feeRecipient: setting<AztecAddress>({
    key: 'feeRecipient',
    flag: 'fee-recipient',
    env: 'NODE_FEE_RECIPIENT',
    defaultValue: AztecAddress.ZERO,
    parse: parseAztecAddress,
    format: (v) => v.toString(),
    toJson: (v) => v.toString(),
    kind: 'string',
    group: 'Dev chain',
    description: 'L2 address the dev sequencer puts in block headers as fee recipient.',
  }),
  prefundedAccounts: setting<PrefundedAccount[] | undefined>({
    key: 'prefundedAccounts',
    flag: 'prefunded-accounts',
    env: 'NODE_PREFUNDED_ACCOUNTS',
    defaultValue: undefined,
    parse: parsePrefundedAccounts,
    format: (v) => (v ? formatPrefundedAccounts(v) : 'ten dev accounts, printed at start'),
    kind: 'string',
    group: 'Dev chain',
    description:
      'Accounts given FeeJuice at genesis: address[:amount],... (amount default 10^22), or none. Unset: ten ' +
      'fixed dev accounts, printed at start. Changing the set changes the genesis block.',
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
