import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import type { TxValidationContext } from './tx-validation-context.js';
import { type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * The tx was built for this chain: L1 chain id, rollup version, verification key tree root and protocol
 * contracts hash all match the node's; every mismatch is reported (4.1.2 MetadataTxValidator).
 */
export function validateMetadata(tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  const constants = tx.tx.data.constants;
  const reasons: string[] = [];
  if (constants.txContext.chainId.value !== ctx.l1ChainId) reasons.push(TX_ERROR.INCORRECT_L1_CHAIN_ID);
  if (constants.txContext.version.value !== ctx.rollupVersion) reasons.push(TX_ERROR.INCORRECT_ROLLUP_VERSION);
  if (constants.vkTreeRoot.value !== ctx.vkTreeRoot) reasons.push(TX_ERROR.INCORRECT_VK_TREE_ROOT);
  if (constants.protocolContractsHash.value !== ctx.protocolContractsHash) {
    reasons.push(TX_ERROR.INCORRECT_PROTOCOL_CONTRACTS_HASH);
  }
  return reasons.length ? { result: 'invalid', reason: reasons } : VALID;
}
