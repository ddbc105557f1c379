/**
 * A tx the public processor cannot include in any block (4.1.2 throws out of its simulation): setup reverted, a
 * non-revertible side effect from private collided or overflowed, the fee payer cannot pay, the tx used more gas
 * than a tx may, or the world state is inconsistent with the contract store. The message says which.
 */
export class PublicTxInvalidError extends Error {
  override name = 'PublicTxInvalidError';
}
