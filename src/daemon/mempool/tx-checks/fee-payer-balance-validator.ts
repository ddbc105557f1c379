import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import type { TxValidationContext } from './tx-validation-context.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/** The fee payer's FeeJuice balance, read from the public data tree at its balance slot. */
export function readFeePayerBalance(tx: TxMeta, ctx: TxValidationContext): bigint {
  return ctx.publicDataAt(tx.feePayerBalanceSlot);
}

/**
 * The fee payer's FeeJuice balance, plus what the tx itself claims in setup, covers the tx's fee limit
 * (gas limits x max fees per gas) (4.1.2 GasTxValidator.validateTxFee).
 */
export function validateFeePayerBalance(tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  return readFeePayerBalance(tx, ctx) + tx.claimAmount < tx.feeLimit
    ? invalid(TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE)
    : VALID;
}
