import type { GasFees } from '../../../core/gas/gas-fees.js';
import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import { skipped, type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * The max fees per gas reach the current min fees in both dimensions. A tx below them is skipped rather than
 * invalid: it may be included once fees drop (4.1.2 GasTxValidator).
 */
export function validateFeePerGas(tx: TxMeta, gasFees: GasFees): TxValidationResult {
  const max = tx.tx.data.constants.txContext.gasSettings.maxFeesPerGas;
  return max.feePerDaGas < gasFees.feePerDaGas || max.feePerL2Gas < gasFees.feePerL2Gas
    ? skipped(TX_ERROR.INSUFFICIENT_FEE_PER_GAS)
    : VALID;
}
