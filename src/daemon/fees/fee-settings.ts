import { parseBigInt } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';

/** The fee model (fee-model.ts): the inputs of the rollup's min fee arithmetic. */
export const FEE_SETTINGS = {
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
  simulatedL1BaseFee: setting<bigint>({
    key: 'simulatedL1BaseFee',
    flag: 'simulated-l1-base-fee',
    env: 'NODE_SIMULATED_L1_BASE_FEE',
    defaultValue: 1_000_000_000n,
    parse: parseBigInt(0n),
    format: (v) => `${v} wei`,
    toJson: (v) => v.toString(),
    kind: 'string',
    group: 'Fees',
    description: 'L1 base fee per gas (wei) the fee model assumes in dev mode, where there is no L1 (docs/fees.md).',
  }),
  simulatedL1BlobBaseFee: setting<bigint>({
    key: 'simulatedL1BlobBaseFee',
    flag: 'simulated-l1-blob-base-fee',
    env: 'NODE_SIMULATED_L1_BLOB_BASE_FEE',
    defaultValue: 1n,
    parse: parseBigInt(0n),
    format: (v) => `${v} wei`,
    toJson: (v) => v.toString(),
    kind: 'string',
    group: 'Fees',
    description: 'L1 blob base fee per blob gas (wei) the fee model assumes in dev mode (docs/fees.md).',
  }),
  manaTarget: setting<bigint>({
    key: 'manaTarget',
    flag: 'mana-target',
    env: 'NODE_MANA_TARGET',
    defaultValue: 100_000_000n,
    parse: parseBigInt(1n),
    toJson: (v) => v.toString(),
    kind: 'string',
    group: 'Fees',
    description:
      'Mana (L2 gas) per checkpoint the fee model targets; usage above it raises the min fee (docs/fees.md).',
  }),
  provingCostPerMana: setting<bigint>({
    key: 'provingCostPerMana',
    flag: 'proving-cost-per-mana',
    env: 'NODE_PROVING_COST_PER_MANA',
    defaultValue: 100n,
    parse: parseBigInt(0n),
    format: (v) => `${v} wei`,
    toJson: (v) => v.toString(),
    kind: 'string',
    group: 'Fees',
    description: 'Proving cost per mana (wei) added to the min fee, as the rollup contract configures it.',
  }),
} as const;

export type FeeConfig = SettingValues<typeof FEE_SETTINGS>;
