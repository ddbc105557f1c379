import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import type { TxValidationContext } from './tx-validation-context.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * No nullifier repeats inside the tx, and none is already in the committed nullifier tree (4.1.2
 * DoubleSpendTxValidator; the first finding wins).
 */
export function validateDoubleSpend(tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  if (new Set(tx.nullifiers).size !== tx.nullifiers.length) return invalid(TX_ERROR.DUPLICATE_NULLIFIER_IN_TX);
  return ctx.nullifiersExist(tx.nullifiers).some(Boolean) ? invalid(TX_ERROR.EXISTING_NULLIFIER) : VALID;
}
