import { BOT_SETTINGS } from '../../bot/bot-settings.js';
import { CHAIN_SETTINGS } from '../chain/chain-settings.js';
import { DEV_SETTINGS } from '../dev/dev-settings.js';
import { FEE_SETTINGS } from '../fees/fee-settings.js';
import { FORK_SETTINGS } from '../fork/fork-settings.js';
import { L1_SETTINGS } from '../l1/l1-settings.js';
import { LOGGING_SETTINGS } from '../logging/logging-settings.js';
import { MEMPOOL_SETTINGS } from '../mempool/mempool-settings.js';
import { P2P_SETTINGS } from '../p2p/p2p-settings.js';
import { PUBLIC_EXECUTION_SETTINGS } from '../public-execution/public-execution-settings.js';
import { SEQUENCER_SETTINGS } from '../sequencer/sequencer-settings.js';
import { STORAGE_SETTINGS } from '../store/storage-settings.js';
import { FOLLOWER_SETTINGS } from '../sync/follower-settings.js';
import { TRACING_SETTINGS } from '../tracing/tracing-settings.js';
import { SLASHING_SETTINGS, VALIDATOR_SETTINGS } from '../validators/validator-settings.js';
import { CONFIG_FILE_SETTINGS } from './config-file-settings.js';
import { ADMIN_API_SETTINGS, NETWORK_SETTINGS } from './network-settings.js';
import type { SettingValues } from './setting.js';

/**
 * THE settings table, assembled from the groups each service declares beside itself (its `*-settings.ts`),
 * in the order the help and docs/configuration.md show them. Spec names are used exactly as the spec gives
 * them (part 5 and part 9); the others follow the same pattern with the NODE_ prefix (BOT_ for the
 * transaction bot). Precedence: flag > env > config file > default.
 */
export const SETTINGS = {
  ...CONFIG_FILE_SETTINGS,
  ...NETWORK_SETTINGS,
  ...STORAGE_SETTINGS,
  ...ADMIN_API_SETTINGS,
  ...CHAIN_SETTINGS,
  ...L1_SETTINGS,
  ...FEE_SETTINGS,
  ...MEMPOOL_SETTINGS,
  ...SEQUENCER_SETTINGS,
  ...PUBLIC_EXECUTION_SETTINGS,
  ...DEV_SETTINGS,
  ...FORK_SETTINGS,
  ...TRACING_SETTINGS,
  ...FOLLOWER_SETTINGS,
  ...P2P_SETTINGS,
  ...VALIDATOR_SETTINGS,
  ...SLASHING_SETTINGS,
  ...BOT_SETTINGS,
  ...LOGGING_SETTINGS,
} as const;

export type SettingsTable = typeof SETTINGS;
export type SettingKey = keyof SettingsTable;
/** The resolved configuration of a node: one value per row of the table. */
export type NodeConfig = SettingValues<SettingsTable>;

/**
 * Flags and env vars that existed and were removed; using one stops start-up with a message naming
 * its replacement (spec part 9, breaking changes of v4.0.0).
 */
export const REMOVED_SETTINGS = [
  { flag: 'bot.baseFeePadding', env: 'BOT_BASE_FEE_PADDING', replacement: SETTINGS.botMinFeePadding },
] as const;
