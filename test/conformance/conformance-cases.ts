import { Tx as StdTx } from '@aztec/stdlib/tx';
import type { AztecAddress } from '../../src/core/aztec-address.js';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { TxBuilder } from '../../src/core/tx/tx-builder.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../src/daemon/config/published-chain-values.js';
import { resolveConfig } from '../../src/daemon/config/resolve-config.js';
import { genesisPublicData } from '../../src/daemon/sequencer/genesis-funding.js';
import { defaultPrefundedAccounts } from '../../src/daemon/sequencer/prefunded-accounts.js';
import { openNodeDatabase } from '../../src/daemon/store/node-database.js';
import { WorldState } from '../../src/daemon/world-state/world-state.js';

/**
 * What the conformance test asks the official Aztec 4.1.2 client to call on a running node. One entry
 * per method of the method table that 4.1.2 also has with the same params (`compat.aztec === 'same'`)
 * and that the node serves. The test fails when a served method has no case here, so append a case
 * whenever you bind a handler: `method` is the 4.1.2 client's method name (no namespace) and `args`
 * what to pass it (a function when the args need the node, e.g. a block hash it returned).
 * The official client parses every answer with its own zod schemas: that is the check.
 */
export interface ConformanceCase {
  readonly method: string;
  readonly args: readonly unknown[];
  /** The call must fail with an error the official client reads, with a message matching this. */
  readonly rejects?: RegExp;
}

const HASH = '0x1b2e1d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';

/**
 * Builds txs for a node started with the defaults: anchored to its genesis (the default prefunded accounts and
 * the sponsored FPC).
 */
export const DEFAULT_NODE_TX_BUILDER = (() => {
  const worldState = WorldState.open(openNodeDatabase(null), {
    genesisPublicData: genesisPublicData(resolveConfig({}, {}).config),
  });
  return new TxBuilder({
    chainId: 31337n,
    rollupVersion: 1n,
    vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
    protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
    anchorBlockHeader: BlockHeader.empty({ state: worldState.getInitialStateReference() }),
  });
})();

/** Paid by the first default prefunded account, max fees well above the fee model's start. */
export const DEFAULT_NODE_TX_FEES = {
  feePayer: defaultPrefundedAccounts()[0]?.address as AztecAddress,
  maxFeesPerGas: new GasFees(0n, 2n * 10n ** 12n),
};

/** A valid private-only tx for a node started with the defaults. */
const TX = StdTx.fromBuffer(DEFAULT_NODE_TX_BUILDER.build(DEFAULT_NODE_TX_FEES).toBuffer());
const ADDRESS = '0x0000000000000000000000000000000000000000000000000000000000000005';
const ETH_ADDRESS = '0x00000000000000000000000000000000000000aa';
/** The field 1 as the official client sends an Fr (0x + 64 hex digits, the one form the node reads). */
const ONE = `0x${'0'.repeat(63)}1`;

export const PUBLIC_CASES: readonly ConformanceCase[] = [
  { method: 'getBlockNumber', args: [] },
  { method: 'getNodeVersion', args: [] },
  { method: 'getVersion', args: [] },
  { method: 'getChainId', args: [] },
  { method: 'isReady', args: [] },
  // Chain (issue 6): a fresh node is at genesis; test/e2e/chain-official-client.test.ts repeats them on a chain
  // with blocks, txs, logs, contracts and messages.
  { method: 'getProvenBlockNumber', args: [] },
  { method: 'getCheckpointNumber', args: [] },
  { method: 'getCheckpointedBlockNumber', args: [] },
  { method: 'getL2Tips', args: [] },
  { method: 'getBlock', args: [0] },
  { method: 'getBlock', args: ['latest'] },
  { method: 'getBlock', args: [7] },
  { method: 'getBlocks', args: [1, 10] },
  { method: 'getBlockHeader', args: [] },
  { method: 'getBlockHeader', args: [0] },
  { method: 'getBlockByHash', args: [HASH] },
  { method: 'getBlockByArchive', args: [HASH] },
  { method: 'getBlockHeaderByArchive', args: [HASH] },
  { method: 'getCheckpoints', args: [1, 10] },
  { method: 'getCheckpointedBlocks', args: [1, 10] },
  { method: 'getTxEffect', args: [HASH] },
  { method: 'getPublicStorageAt', args: ['latest', ADDRESS, ONE] },
  { method: 'getWorldStateSyncStatus', args: [] },
  { method: 'findLeavesIndexes', args: ['latest', 0, [ONE, HASH]] },
  { method: 'getNullifierMembershipWitness', args: ['latest', ONE] },
  { method: 'getNullifierMembershipWitness', args: ['latest', HASH] },
  { method: 'getLowNullifierMembershipWitness', args: ['latest', HASH] },
  { method: 'getPublicDataWitness', args: ['latest', HASH] },
  { method: 'getBlockHashMembershipWitness', args: ['latest', HASH] },
  { method: 'getNoteHashMembershipWitness', args: ['latest', HASH] },
  { method: 'getL1ToL2MessageMembershipWitness', args: ['latest', HASH] },
  { method: 'getL1ToL2MessageCheckpoint', args: [HASH] },
  { method: 'isL1ToL2MessageSynced', args: [HASH] },
  { method: 'getPublicLogs', args: [{}] },
  { method: 'getPublicLogs', args: [{ fromBlock: 1, toBlock: 5, contractAddress: ADDRESS, tag: ONE }] },
  { method: 'getContractClassLogs', args: [{}] },
  { method: 'getPrivateLogsByTags', args: [[ONE, HASH]] },
  { method: 'getPublicLogsByTagsFromContract', args: [ADDRESS, [ONE], 0] },
  { method: 'getContractClass', args: [HASH] },
  { method: 'getContract', args: [ADDRESS] },
  { method: 'getNodeInfo', args: [] },
  { method: 'getL1ContractAddresses', args: [] },
  { method: 'getProtocolContractAddresses', args: [] },
  { method: 'getEncodedEnr', args: [] },
  { method: 'registerContractFunctionSignatures', args: [['transfer(Field,u128)']] },
  // Mempool (issue 7), as wired into the node with the chain.
  { method: 'isValidTx', args: [TX] },
  { method: 'isValidTx', args: [TX, { isSimulation: true, skipFeeEnforcement: true }] },
  { method: 'sendTx', args: [TX] },
  { method: 'getTxReceipt', args: [HASH] },
  { method: 'getTxByHash', args: [HASH] },
  { method: 'getPendingTxs', args: [] },
  { method: 'getPendingTxCount', args: [] },
  { method: 'getCurrentMinFees', args: [] },
  { method: 'getTxsByHash', args: [[HASH]] },
  { method: 'getMaxPriorityFees', args: [] },
  { method: 'getAllowedPublicSetup', args: [] },
  { method: 'simulatePublicCalls', args: [TX] },
  { method: 'simulatePublicCalls', args: [TX, true] },
  // Validators (issue 9) on a node without a keystore: 4.1.2's answers of a node whose sentinel is off.
  // test/conformance/validators-official-client.test.ts runs them on a committee with history and offenses.
  { method: 'getValidatorsStats', args: [] },
  { method: 'getValidatorStats', args: [ETH_ADDRESS] },
  { method: 'getValidatorStats', args: [ETH_ADDRESS, 1, 5] },
];

export const ADMIN_CASES: readonly ConformanceCase[] = [
  // Validators (issue 9): without a keystore there is no slasher and nothing to reload.
  { method: 'getSlashPayloads', args: [], rejects: /Slasher client not enabled/ },
  { method: 'reloadKeystore', args: [], rejects: /not using a file-based keystore/ },
  // Operations (issue 8). getConfig is not here: 4.1.2's client requires prover and HA-signer keys this node does
  // not have (test/e2e/operations-admin.test.ts checks the shared keys against 4.1.2's schema). Called as one
  // batch, in this order: the node ends resumed and unchanged.
  { method: 'setConfig', args: [{ maxPendingTxCount: 1000 }] },
  { method: 'pauseSync', args: [] },
  { method: 'resumeSync', args: [] },
  { method: 'rollbackTo', args: [1_000_000], rejects: /Cannot roll back to block 1000000: the chain's tip is block/ },
  { method: 'startSnapshotUpload', args: ['ftp://bucket/path'], rejects: /unsupported scheme ftp:\/\//i },
];
