import type { Fr } from '../../core/fr.js';
import { parseFieldHex, parseInteger } from '../config/parsers.js';
import { AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH, AZTEC_4_1_2_VK_TREE_ROOT } from '../config/published-chain-values.js';
import { type SettingValues, setting } from '../config/setting.js';

/** The chain's identity: what txs must carry and what a follower checks against its upstream. */
export const CHAIN_SETTINGS = {
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
  protocolContractsHash: setting<Fr>({
    key: 'protocolContractsHash',
    flag: 'protocol-contracts-hash',
    env: 'NODE_PROTOCOL_CONTRACTS_HASH',
    defaultValue: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
    parse: parseFieldHex,
    toJson: (v) => v.toString(),
    kind: 'string',
    group: 'Chain',
    description:
      "Hash of the protocol contracts txs must be built against (x-aztec-l2ProtocolContractsHash); default: Aztec 4.1.2's.",
  }),
  vkTreeRoot: setting<Fr>({
    key: 'vkTreeRoot',
    flag: 'vk-tree-root',
    env: 'NODE_VK_TREE_ROOT',
    defaultValue: AZTEC_4_1_2_VK_TREE_ROOT,
    parse: parseFieldHex,
    toJson: (v) => v.toString(),
    kind: 'string',
    group: 'Chain',
    description:
      "Root of the circuits' verification key tree txs must carry (x-aztec-l2CircuitsVkTreeRoot); default: Aztec 4.1.2's.",
  }),
} as const;

export type ChainConfig = SettingValues<typeof CHAIN_SETTINGS>;
