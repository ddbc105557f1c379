import { txExpiredAt } from '../../../core/tx/tx-expiry.js';
import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import type { TxValidationContext } from './tx-validation-context.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/** The tx has not expired at the validation timestamp (4.1.2 TimestampTxValidator; block 1 exempt: txExpiredAt). */
export function validateTimestamp(tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  return txExpiredAt(tx.expirationTimestamp, ctx.blockNumber, ctx.timestamp)
    ? invalid(TX_ERROR.INVALID_EXPIRATION_TIMESTAMP)
    : VALID;
}
