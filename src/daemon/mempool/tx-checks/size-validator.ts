import { MAX_TX_SIZE_BYTES } from '../../../core/constants.js';
import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/** The binary form of the tx must fit in 512 KiB (4.1.2 SizeTxValidator). */
export function validateSize(tx: TxMeta): TxValidationResult {
  return tx.size > MAX_TX_SIZE_BYTES ? invalid(TX_ERROR.SIZE_ABOVE_LIMIT) : VALID;
}
