import { AztecAddress } from '../../core/aztec-address.js';
import { EthAddress } from '../../core/eth-address.js';
import { jsonInteger, jsonString } from '../config/json-parsers.js';
import { parseAztecAddress, parseBoolean, parseEnum, parseEthAddress, parseInteger } from '../config/parsers.js';
import { type SettingValues, setting } from '../config/setting.js';
import { formatPrefundedAccounts, type PrefundedAccount, parsePrefundedAccounts } from './prefunded-accounts.js';

/**
 * When blocks are built: `instant` as soon as a tx is pending, each block its own checkpoint published at once
 * (anvil's auto-mine); `interval` at the start of each block interval of every slot; `on-demand` as soon as a
 * tx is pending (up to the slot's block count); `off` never (the chain only moves by sync).
 */
export type SequencerMode = 'instant' | 'interval' | 'on-demand' | 'off';

/** The dev chain: the sequencer's slots and blocks, the dev L1 stand-in's delays, the genesis accounts. */
export const SEQUENCER_SETTINGS = {
  sequencerMode: setting<SequencerMode>({
    key: 'sequencerMode',
    flag: 'sequencer-mode',
    env: 'NODE_SEQUENCER_MODE',
    defaultValue: 'instant',
    parse: parseEnum(['instant', 'interval', 'on-demand', 'off'] as const),
    kind: 'string',
    group: 'Dev chain',
    description:
      'When the dev sequencer builds blocks: as soon as a tx is pending, each block its own checkpoint, ' +
      'published and proven at once (instant, like anvil; a block whose slot is taken goes to the next one), ' +
      'at every block interval of a slot (interval), as soon as a tx is ' +
      'pending (on-demand), or never (off).',
  }),
  slotDuration: setting<number>({
    key: 'slotDuration',
    flag: 'slot-duration',
    env: 'NODE_SLOT_DURATION',
    defaultValue: 4,
    parse: parseInteger(1, 3600),
    parseJson: jsonInteger(1, 3600),
    format: (v) => `${v} s`,
    runtime: true,
    kind: 'string',
    group: 'Dev chain',
    description:
      'Seconds per L2 slot; the blocks of one slot form a checkpoint (docs/dev-chain.md). At runtime: from the next slot.',
  }),
  genesisTime: setting<number | undefined>({
    key: 'genesisTime',
    flag: 'genesis-time',
    env: 'NODE_GENESIS_TIME',
    defaultValue: undefined,
    parse: parseInteger(1, 2 ** 40),
    parseJson: jsonInteger(1, 2 ** 40),
    kind: 'string',
    group: 'Dev chain',
    description:
      'Unix time (seconds) at which slot 0 starts, for a chain without an L1; default: one slot before its first ' +
      'start. The nodes of one P2P network without an L1 must all be given the same value, so they agree on ' +
      "each slot and its proposer (docs/network.md). Recorded at the chain's first start; with an L1 the rollup's.",
  }),
  blocksPerSlot: setting<number>({
    key: 'blocksPerSlot',
    flag: 'blocks-per-slot',
    env: 'NODE_BLOCKS_PER_SLOT',
    defaultValue: 2,
    parse: parseInteger(1, 64),
    parseJson: jsonInteger(1, 64),
    runtime: true,
    kind: 'string',
    group: 'Dev chain',
    description:
      'Blocks per slot (per checkpoint); a block interval is the slot duration divided by this. At runtime: from the next slot.',
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
    description:
      'Seconds after an epoch ends (in instant mode: after a checkpoint is published) before the dev L1 ' +
      'stand-in marks it proven.',
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
    parseJson: jsonInteger(0, 4096),
    runtime: true,
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
    parseJson: jsonInteger(1, 4096),
    runtime: true,
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
    parseJson: jsonInteger(1, 2 ** 32 - 1),
    runtime: true,
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
    parseJson: jsonString((raw) => EthAddress.fromString(parseEthAddress(raw))),
    format: (v) => v.toString(),
    toJson: (v) => v.toString(),
    runtime: true,
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
    parseJson: jsonString(parseAztecAddress),
    format: (v) => v.toString(),
    toJson: (v) => v.toString(),
    runtime: true,
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
    format: (v) => (v ? formatPrefundedAccounts(v) : "Aztec's three test accounts, printed at start"),
    kind: 'string',
    group: 'Dev chain',
    description:
      'Accounts given FeeJuice at genesis: address[:amount],... (amount default 10^22), or none. Unset: Aztec ' +
      "4.1.2's three test accounts (getInitialTestAccountsData), printed at start with their keys. " +
      'Changing the set changes the genesis block.',
  }),
  sponsoredFPC: setting<boolean>({
    key: 'sponsoredFPC',
    flag: 'sponsored-fpc',
    env: 'NODE_SPONSORED_FPC',
    defaultValue: true,
    parse: parseBoolean,
    format: (v) => (v ? 'on' : 'off'),
    kind: 'string',
    group: 'Dev chain',
    description:
      "Whether the canonical SponsoredFPC (aztec.js's SponsoredFeePaymentMethod pays fees through it) is at genesis " +
      "with 10^22 FeeJuice, as on 4.1.2's local network (its sponsoredFPC setting): true or false. Changing it " +
      'changes the genesis block.',
  }),
} as const;

export type SequencerConfig = SettingValues<typeof SEQUENCER_SETTINGS>;
