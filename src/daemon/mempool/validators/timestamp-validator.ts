import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import type { TxValidationContext } from './tx-validation-context.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * The tx has not expired at the validation timestamp (4.1.2 TimestampTxValidator). Not checked for block 1:
 * txs anchored to genesis can only land there, and the rollup circuits skip the check for it too.
 */
export function validateTimestamp(tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  if (ctx.blockNumber === 1) return VALID;
  return tx.expirationTimestamp < ctx.timestamp ? invalid(TX_ERROR.INVALID_EXPIRATION_TIMESTAMP) : VALID;
}
