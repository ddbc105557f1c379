import type { AztecAddress } from '../core/aztec-address.js';
import { parseAztecAddress, parseBoolean, parseInteger, parseNonNegativeDecimal } from '../daemon/config/parsers.js';
import { type SettingValues, setting } from '../daemon/config/setting.js';

/** The tx bot (`l2node bot`, `l2node start --bot`). */
export const BOT_SETTINGS = {
  botMinFeePadding: setting<number>({
    key: 'botMinFeePadding',
    flag: 'bot.minFeePadding',
    env: 'BOT_MIN_FEE_PADDING',
    defaultValue: 3,
    parse: parseNonNegativeDecimal(1_000_000),
    kind: 'string',
    group: 'Bot',
    description:
      'How much the transaction bot overpays vs. the current min fee: it offers minFee * (1 + padding); a non-negative decimal (0.5 offers 1.5x).',
  }),
  bot: setting<boolean>({
    key: 'bot',
    flag: 'bot',
    env: 'BOT_ENABLED',
    defaultValue: false,
    parse: parseBoolean,
    kind: 'boolean',
    group: 'Bot',
    description:
      'Run the transaction bot beside the node: it sends a valid tx every --bot.txIntervalSeconds, paying from ' +
      '--bot.feePayer, and logs its rate (`l2node bot` runs it against any node).',
  }),
  botTxIntervalSeconds: setting<number>({
    key: 'botTxIntervalSeconds',
    flag: 'bot.txIntervalSeconds',
    env: 'BOT_TX_INTERVAL_SECONDS',
    defaultValue: 2,
    parse: parseInteger(1, 86_400),
    format: (v) => `${v} s`,
    kind: 'string',
    group: 'Bot',
    description: 'Seconds between two txs of the transaction bot.',
  }),
  botFeePayer: setting<AztecAddress | undefined>({
    key: 'botFeePayer',
    flag: 'bot.feePayer',
    env: 'BOT_FEE_PAYER',
    defaultValue: undefined,
    parse: parseAztecAddress,
    format: (v) => (v ? v.toString() : 'the first test account'),
    toJson: (v) => v?.toString(),
    kind: 'string',
    group: 'Bot',
    description: "Address whose FeeJuice pays for the bot's txs. Unset: the first test account (prefunded by default).",
  }),
  botMaxPendingTxs: setting<number>({
    key: 'botMaxPendingTxs',
    flag: 'bot.maxPendingTxs',
    env: 'BOT_MAX_PENDING_TXS',
    defaultValue: 128,
    parse: parseInteger(1, 1_000_000),
    kind: 'string',
    group: 'Bot',
    description:
      'The bot skips its turn while the mempool holds at least this many txs, so it never floods a stalled node.',
  }),
} as const;

export type BotConfig = SettingValues<typeof BOT_SETTINGS>;
