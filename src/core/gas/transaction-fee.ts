import { Fr } from '../fr.js';
import type { Gas } from './gas.js';
import { GasFees } from './gas-fees.js';
import type { GasSettings } from './gas-settings.js';

/** A tx's max fees per gas are below the block's fees: it cannot be included in that block. */
export class InsufficientFeePerGasError extends Error {
  override name = 'InsufficientFeePerGasError';
}

/**
 * The fees per gas a tx actually pays in a block (4.1.2 fees/transaction_fee.ts computeEffectiveGasFees): the
 * block's fees plus the tx's priority fee, capped so the sum never exceeds the tx's max fees per gas.
 */
export function computeEffectiveGasFees(blockFees: GasFees, gasSettings: GasSettings): GasFees {
  const { maxFeesPerGas, maxPriorityFeesPerGas } = gasSettings;
  if (maxFeesPerGas.feePerDaGas < blockFees.feePerDaGas || maxFeesPerGas.feePerL2Gas < blockFees.feePerL2Gas) {
    throw new InsufficientFeePerGasError(
      `Max fees per gas (DA ${maxFeesPerGas.feePerDaGas}, L2 ${maxFeesPerGas.feePerL2Gas}) are below the block's ` +
        `fees (DA ${blockFees.feePerDaGas}, L2 ${blockFees.feePerL2Gas})`,
    );
  }
  const min = (a: bigint, b: bigint) => (a < b ? a : b);
  return new GasFees(
    blockFees.feePerDaGas + min(maxPriorityFeesPerGas.feePerDaGas, maxFeesPerGas.feePerDaGas - blockFees.feePerDaGas),
    blockFees.feePerL2Gas + min(maxPriorityFeesPerGas.feePerL2Gas, maxFeesPerGas.feePerL2Gas - blockFees.feePerL2Gas),
  );
}

/** The fee a tx pays: gas used times the effective fees, per dimension, summed (4.1.2 computeTransactionFee). */
export function computeTransactionFee(blockFees: GasFees, gasSettings: GasSettings, gasUsed: Gas): Fr {
  const fees = computeEffectiveGasFees(blockFees, gasSettings);
  return new Fr(fees.feePerDaGas * BigInt(gasUsed.daGas) + fees.feePerL2Gas * BigInt(gasUsed.l2Gas));
}
