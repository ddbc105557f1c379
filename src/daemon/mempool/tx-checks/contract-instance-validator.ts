import { computeContractAddressFromInstance } from '../../../core/contract/contract-address.js';
import { ContractInstancePublishedEvent } from '../../../core/contract/contract-instance-published-event.js';
import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * Every contract instance the tx publishes (a private log of the instance registry) announces the address
 * its own fields derive (4.1.2 ContractInstanceTxValidator): otherwise the node would index an instance
 * under an address nobody can deploy to.
 */
export function validateContractInstances(tx: TxMeta): TxValidationResult {
  for (const log of tx.tx.data.getNonEmptyPrivateLogs()) {
    if (!ContractInstancePublishedEvent.isContractInstancePublishedEvent(log)) continue;
    let event: ContractInstancePublishedEvent;
    try {
      event = ContractInstancePublishedEvent.fromLog(log);
    } catch {
      return invalid(TX_ERROR.MALFORMED_CONTRACT_INSTANCE_LOG);
    }
    try {
      const instance = event.toContractInstance();
      const address = computeContractAddressFromInstance({
        salt: instance.salt,
        initializationHash: instance.initializationHash,
        deployer: instance.deployer,
        originalContractClassId: instance.originalContractClassId,
        publicKeys: instance.publicKeys,
      });
      if (!address.equals(event.address)) return invalid(TX_ERROR.INCORRECT_CONTRACT_ADDRESS);
    } catch {
      return invalid(TX_ERROR.MALFORMED_CONTRACT_INSTANCE_LOG);
    }
  }
  return VALID;
}
