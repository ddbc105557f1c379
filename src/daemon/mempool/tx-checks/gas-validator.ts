import type { TxMeta } from '../tx-meta.js';
import { validateFeePayerBalance } from './fee-payer-balance-validator.js';
import { validateFeePerGas } from './fee-per-gas-validator.js';
import { validateGasLimits } from './gas-limits-validator.js';
import type { TxValidationContext } from './tx-validation-context.js';
import type { TxValidationResult } from './tx-validation-result.js';

/**
 * Gas and fees, in 4.1.2's order (GasTxValidator): limits out of bounds make the tx invalid; max fees below
 * the current min fees skip it; otherwise the fee payer must be able to pay the fee limit. One reason at most.
 */
export function validateGas(tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  const limitsAndFees = validateGasLimitsAndFees(tx, ctx);
  if (limitsAndFees.result !== 'valid') return limitsAndFees;
  return validateFeePayerBalance(tx, ctx);
}

/**
 * The gas checks without the fee payer's balance: node_sendTx leaves the balance to the pool, which answers
 * a payer that cannot pay with the structured INSUFFICIENT_FEE_PAYER_BALANCE rejection of spec part 7 (with
 * its figures) whether this tx alone or together with the payer's pending ones exceeds the balance.
 */
export function validateGasLimitsAndFees(tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  const limits = validateGasLimits(tx, ctx.maxL2Gas);
  if (limits.result !== 'valid') return limits;
  return validateFeePerGas(tx, ctx.gasFees);
}
