import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import type { TxValidationContext } from './tx-validation-context.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/** The block header the tx is anchored to is in the committed archive (4.1.2 BlockHeaderTxValidator). */
export function validateBlockHeader(tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  return ctx.archiveHasBlockHash(tx.anchorBlockHash) ? VALID : invalid(TX_ERROR.BLOCK_HEADER);
}
