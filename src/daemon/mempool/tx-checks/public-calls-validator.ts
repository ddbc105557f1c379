import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * Txs that enqueue public function calls need the public VM (AVM) to be executed, which this node does not
 * have yet: they are invalid, with a reason that says so, instead of being accepted and never mined.
 */
export function validatePublicCallsSupported(tx: TxMeta): TxValidationResult {
  return tx.tx.hasPublicCalls() ? invalid(TX_ERROR.PUBLIC_CALLS_UNSUPPORTED) : VALID;
}
