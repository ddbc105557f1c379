import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import type { TxValidationContext } from './tx-validation-context.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * The client proof. The node runs with realProofs = false, like Aztec's local network: no verifier is
 * loaded and any proof passes (the codec has already checked its shape: 1,935 field elements). A node
 * asked for real proofs cannot verify them, so it refuses every tx rather than accept unverified ones.
 */
export function validateProof(_tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  return ctx.realProofs ? invalid(TX_ERROR.INVALID_PROOF) : VALID;
}
