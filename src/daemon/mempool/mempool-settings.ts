import { jsonAllowList, jsonInteger } from '../config/json-parsers.js';
import { parseInteger, parseSetupAllowList } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';
import {
  type AllowedSetupFunction,
  allowedSetupFunctionToJson,
  formatAllowedSetupList,
} from './tx-checks/allowed-setup-function.js';

/** The tx pool: its size, the replacement bump and the public setup allow list. */
export const MEMPOOL_SETTINGS = {
  maxPendingTxCount: setting<number>({
    key: 'maxPendingTxCount',
    flag: 'max-pending-tx-count',
    env: 'NODE_MAX_PENDING_TX_COUNT',
    defaultValue: 1000,
    parse: parseInteger(0, 1_000_000),
    parseJson: jsonInteger(0, 1_000_000),
    runtime: true,
    kind: 'string',
    group: 'Mempool',
    description:
      'Most pending txs the mempool holds (0: no limit); when full, a tx must beat the lowest priority fee by the price bump.',
  }),
  priceBumpPercentage: setting<number>({
    key: 'priceBumpPercentage',
    flag: 'price-bump-percentage',
    env: 'NODE_PRICE_BUMP_PERCENTAGE',
    defaultValue: 10,
    parse: parseInteger(0, 1000),
    kind: 'string',
    group: 'Mempool',
    description:
      'How much (percent, at least +1) a tx must beat a pending one by to replace it (same nullifier) or evict it.',
  }),
  txPublicSetupAllowListExtend: setting<readonly AllowedSetupFunction[]>({
    key: 'txPublicSetupAllowListExtend',
    flag: 'tx-public-setup-allow-list-extend',
    env: 'NODE_TX_PUBLIC_SETUP_ALLOWLIST',
    defaultValue: [],
    parse: parseSetupAllowList,
    format: formatAllowedSetupList,
    toJson: (v) => v.map(allowedSetupFunctionToJson),
    parseJson: jsonAllowList,
    runtime: true,
    kind: 'string',
    group: 'Mempool',
    description:
      'Public functions allowed in the setup phase besides the defaults: I:<address>:<selector>[:<flags>] or ' +
      'C:<classId>:<selector>[:<flags>], comma-separated; flags os, rn, cl=N joined with +.',
  }),
} as const;

export type MempoolConfig = SettingValues<typeof MEMPOOL_SETTINGS>;
