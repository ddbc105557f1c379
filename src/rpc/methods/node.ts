import { GasFees } from '../../core/gas/gas-fees.js';
import {
  arrayResult,
  booleanResult,
  classResult,
  integerResult,
  nullable,
  objectResult,
  optionalKey,
  stringResult,
  type ValueOf,
  voidResult,
} from '../result-codecs.js';
import { defineMethod, required } from '../rpc-method.js';
import { arrayOf, string } from '../wire-types.js';
import { SAME } from './shared-params.js';

/** Node information, fees and the debug methods. */

/** The rollup's L1 contracts (4.1.2 L1ContractAddresses: 0x + 40 hex each). */
export const l1ContractAddressesResult = objectResult('L1ContractAddresses', {
  rollupAddress: stringResult,
  registryAddress: stringResult,
  inboxAddress: stringResult,
  outboxAddress: stringResult,
  feeJuiceAddress: stringResult,
  stakingAssetAddress: stringResult,
  feeJuicePortalAddress: stringResult,
  coinIssuerAddress: stringResult,
  rewardDistributorAddress: stringResult,
  governanceProposerAddress: stringResult,
  governanceAddress: stringResult,
});
export type L1ContractAddresses = ValueOf<typeof l1ContractAddressesResult>;

/** The protocol contracts' canonical addresses (4.1.2 ProtocolContractAddresses, 0x + 64 hex each). */
export const protocolContractAddressesResult = objectResult('ProtocolContractAddresses', {
  classRegistry: stringResult,
  feeJuice: stringResult,
  instanceRegistry: stringResult,
  multiCallEntrypoint: stringResult,
});
export type ProtocolContractAddresses = ValueOf<typeof protocolContractAddressesResult>;

export const nodeInfoResult = objectResult('NodeInfo', {
  nodeVersion: stringResult,
  l1ChainId: integerResult,
  rollupVersion: integerResult,
  l1ContractAddresses: l1ContractAddressesResult,
  protocolContractAddresses: protocolContractAddressesResult,
  realProofs: booleanResult,
  /** The node's ENR text when P2P is on (4.1.2 NodeInfo.enr). */
  enr: optionalKey(stringResult),
});
export type NodeInfo = ValueOf<typeof nodeInfoResult>;

/** A public function allowed in a tx's setup phase, by contract address or by class (4.1.2 AllowedElement). */
const allowedElementResult = objectResult('AllowedElement', {
  address: optionalKey(stringResult),
  classId: optionalKey(stringResult),
  selector: stringResult,
  onlySelf: optionalKey(booleanResult),
  rejectNullMsgSender: optionalKey(booleanResult),
  calldataLength: optionalKey(integerResult),
});

const gasFeesResult = classResult('GasFees', (json, path) => GasFees.fromJSON(json, path));

export const NODE_METHODS = {
  node_isReady: defineMethod({
    summary: 'Whether the node accepts transactions.',
    params: [],
    result: booleanResult,
    compat: SAME,
  }),
  node_getNodeInfo: defineMethod({
    summary: 'Node version, protocol version, chain id, contract addresses and more.',
    params: [],
    result: nodeInfoResult,
    compat: SAME,
  }),
  node_getNodeVersion: defineMethod({
    summary: 'Package version of the node software.',
    params: [],
    result: stringResult,
    compat: SAME,
  }),
  node_getVersion: defineMethod({
    summary: 'Rollup protocol version.',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_getChainId: defineMethod({
    summary: 'L1 chain id.',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_getL1ContractAddresses: defineMethod({
    summary: 'Addresses of the rollup contracts on L1.',
    params: [],
    result: l1ContractAddressesResult,
    compat: SAME,
  }),
  node_getProtocolContractAddresses: defineMethod({
    summary: 'Addresses of the protocol contracts.',
    params: [],
    result: protocolContractAddressesResult,
    compat: SAME,
  }),
  node_getEncodedEnr: defineMethod({
    summary: "The node's ENR for P2P discovery, or null.",
    params: [],
    result: nullable(stringResult),
    compat: SAME,
  }),
  node_getCurrentMinFees: defineMethod({
    summary: 'Minimum fees per gas the next block charges.',
    params: [],
    result: gasFeesResult,
    compat: SAME,
  }),

  node_getMaxPriorityFees: defineMethod({
    summary: 'The max priority fees per gas of the highest-priority pending transaction, or zero when none is pending.',
    params: [],
    result: gasFeesResult,
    compat: SAME,
  }),

  // Debug operations
  node_registerContractFunctionSignatures: defineMethod({
    summary:
      'Registers function signatures so the node can name selectors in its logs. Each must be a Noir signature ' +
      'such as transfer((Field),u128) of at most 1,024 characters. The node keeps 10,000 at most, dropping the ' +
      'oldest registrations first, and a selector keeps the first signature registered for it.',
    params: [required('functionSignatures', arrayOf(string(10_000), 100), 'Signatures (at most 100).')],
    result: voidResult,
    compat: SAME,
  }),
  node_getAllowedPublicSetup: defineMethod({
    summary: 'Public function calls allowed in the setup phase.',
    params: [],
    result: arrayResult(allowedElementResult),
    compat: SAME,
  }),
};
