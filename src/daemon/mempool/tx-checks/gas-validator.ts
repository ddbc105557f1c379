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
  const limits = validateGasLimits(tx, ctx.maxL2Gas);
  if (limits.result !== 'valid') return limits;
  const fees = validateFeePerGas(tx, ctx.gasFees);
  if (fees.result !== 'valid') return fees;
  return validateFeePayerBalance(tx, ctx);
}
