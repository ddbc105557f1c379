import { PRIVATE_TX_L2_GAS_OVERHEAD, PUBLIC_TX_L2_GAS_OVERHEAD, TX_DA_GAS_OVERHEAD } from '../../../core/constants.js';
import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * The gas limits cover the fixed minimum cost of a tx (DA overhead; L2 overhead of a private-only or a public
 * tx) and ask for no more L2 gas than a block can process (4.1.2 GasLimitsValidator).
 */
export function validateGasLimits(tx: TxMeta, maxL2Gas: number): TxValidationResult {
  const limits = tx.tx.data.constants.txContext.gasSettings.gasLimits;
  const minL2 = tx.tx.data.isForPublic ? PUBLIC_TX_L2_GAS_OVERHEAD : PRIVATE_TX_L2_GAS_OVERHEAD;
  if (limits.daGas < TX_DA_GAS_OVERHEAD || limits.l2Gas < minL2) return invalid(TX_ERROR.INSUFFICIENT_GAS_LIMIT);
  if (limits.l2Gas > maxL2Gas) return invalid(TX_ERROR.GAS_LIMIT_TOO_HIGH);
  return VALID;
}
