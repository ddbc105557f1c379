import { Fr } from '../../core/fr.js';

/**
 * Values Aztec 4.1.2 publishes for its circuits and protocol contracts. Txs carry both in their constant
 * data and the metadata validator compares them with the node's; the node also sends them in its version
 * headers (x-aztec-l2ProtocolContractsHash, x-aztec-l2CircuitsVkTreeRoot), so that a client built for
 * another release is told so.
 *
 * - protocolContractsHash: @aztec/protocol-contracts@4.1.2, src/protocol_contract_data.ts.
 * - vkTreeRoot: the root of @aztec/noir-protocol-circuits-types@4.1.2's vkTree (src/vk_tree.ts, height 7),
 *   what its getVKTreeRoot() returns.
 */
export const AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH = Fr.fromString(
  '0x2672340d9a0107a7b81e6d10d25b854debe613f3272e8738e8df0ca2ff297141',
);
export const AZTEC_4_1_2_VK_TREE_ROOT = Fr.fromString(
  '0x1dd2644a17d1ddd8831287a78c5a1033b7ae35cdf2a3db833608856c062fc2ba',
);
