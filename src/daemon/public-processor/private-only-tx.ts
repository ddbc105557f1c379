import type { GlobalVariables } from '../../core/block/global-variables.js';
import { Fr } from '../../core/fr.js';
import { Gas } from '../../core/gas/gas.js';
import { computeTransactionFee } from '../../core/gas/transaction-fee.js';
import { computeFeePayerBalanceLeafSlot } from '../../core/hash/siloing.js';
import { PublicDataWrite } from '../../core/tx/public-data-write.js';
import type { GasUsed } from '../../core/tx/public-simulation-output.js';
import type { Tx } from '../../core/tx/tx.js';
import type { TxEffect } from '../../core/tx/tx-effect.js';
import { buildPrivateTxEffect } from '../sequencer/private-tx-effect.js';
import type { WorldStateView } from '../world-state/world-state-view.js';
import { PublicTxInvalidError } from './public-tx-invalid-error.js';

/**
 * A tx without public calls, as 4.1.2's public processor takes it (processPrivateOnlyTx): the fee on the gas
 * private used, paid from the fee payer's FeeJuice balance (no fee enforcement to skip here, as in 4.1.2), and the
 * effect straight from the private kernel. Throws InsufficientFeePerGasError when the tx's max fees are below the
 * block's, PublicTxInvalidError when the fee payer cannot pay.
 */
export function processPrivateOnlyTx(
  state: WorldStateView,
  globals: GlobalVariables,
  tx: Tx,
): { readonly txEffect: TxEffect; readonly gasUsed: GasUsed } {
  const gas = tx.data.gasUsed;
  const fee = computeTransactionFee(globals.gasFees, tx.gasSettings, gas);
  const leafSlot = computeFeePayerBalanceLeafSlot(tx.data.feePayer.value);
  const balance = state.getPublicStorageAt(leafSlot);
  if (balance < fee.value) {
    throw new PublicTxInvalidError(
      `Not enough balance for fee payer ${tx.data.feePayer} to pay for transaction (got ${balance} needs ${fee.value})`,
    );
  }
  const feePayment = new PublicDataWrite(new Fr(leafSlot), new Fr(balance - fee.value));
  return {
    txEffect: buildPrivateTxEffect(tx, fee, feePayment, globals),
    gasUsed: { totalGas: gas, billedGas: gas, teardownGas: Gas.ZERO, publicGas: Gas.ZERO },
  };
}
