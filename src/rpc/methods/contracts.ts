import { ContractClassPublic } from '../../core/contract/contract-class-public.js';
import { ContractInstanceWithAddress } from '../../core/contract/contract-instance-with-address.js';
import { classResult, nullable } from '../result-codecs.js';
import { defineMethod, required } from '../rpc-method.js';
import { aztecAddress, field } from '../wire-types.js';
import { SAME } from './shared-params.js';

/** Contract queries: published classes and instances. */

export const CONTRACT_METHODS = {
  node_getContractClass: defineMethod({
    summary: "A contract class by id (the protocol contracts' from genesis), or null.",
    params: [required('id', field, 'Contract class id.')],
    result: nullable(classResult('ContractClassPublic', (json, path) => ContractClassPublic.fromJSON(json, path))),
    compat: SAME,
  }),
  node_getContract: defineMethod({
    summary:
      "A contract instance by address, or null: its current class is the one in force at the latest block's " +
      'timestamp (an upgrade counts once its timestamp of change has passed).',
    params: [required('address', aztecAddress, 'Contract address.')],
    result: nullable(
      classResult('ContractInstanceWithAddress', (json, path) => ContractInstanceWithAddress.fromJSON(json, path)),
    ),
    compat: SAME,
  }),
};
