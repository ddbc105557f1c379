import { UpstreamStateNeededError } from '../../world-state/world-state-errors.js';
import type { TxMeta } from '../tx-meta.js';
import { validateBlockHeader } from './block-header-validator.js';
import { validateContractInstances } from './contract-instance-validator.js';
import { validateData } from './data-validator.js';
import { validateDoubleSpend } from './double-spend-validator.js';
import { validateGasLimits } from './gas-limits-validator.js';
import { validateGas, validateGasLimitsAndFees } from './gas-validator.js';
import { validateMetadata } from './metadata-validator.js';
import { validatePhases } from './phases-validator.js';
import { validateProof } from './proof-validator.js';
import { validateSize } from './size-validator.js';
import { validateTimestamp } from './timestamp-validator.js';
import { TX_ERROR } from './tx-error-texts.js';
import type { TxValidationContext } from './tx-validation-context.js';
import { combineResults, invalid, type TxValidationResult } from './tx-validation-result.js';

/** node_isValidTx options (4.1.2): both default to false. */
export interface TxValidationOptions {
  /** Skip the proof check (a simulation has no proof yet). */
  readonly isSimulation?: boolean;
  /** Skip gas limits, min fees and the fee payer's balance. */
  readonly skipFeeEnforcement?: boolean;
}

export type TxValidatorName =
  | 'timestamp'
  | 'size'
  | 'metadata'
  | 'phases'
  | 'blockHeader'
  | 'doubleSpend'
  | 'data'
  | 'contractInstance'
  | 'gas'
  | 'proof';

interface NamedValidator {
  readonly name: TxValidatorName;
  readonly run: (tx: TxMeta, ctx: TxValidationContext) => TxValidationResult;
  /** Left out with this option set. */
  readonly skippedBy?: keyof TxValidationOptions;
}

/**
 * The validators of the RPC path (node_sendTx, node_isValidTx), in 4.1.2's order
 * (docs/aztec-facts.md section 5.1).
 */
export const RPC_TX_VALIDATORS: readonly NamedValidator[] = [
  { name: 'timestamp', run: validateTimestamp },
  { name: 'size', run: validateSize },
  { name: 'metadata', run: validateMetadata },
  { name: 'phases', run: validatePhases },
  { name: 'blockHeader', run: validateBlockHeader },
  { name: 'doubleSpend', run: validateDoubleSpend },
  { name: 'data', run: validateData },
  { name: 'contractInstance', run: validateContractInstances },
  { name: 'gas', run: validateGas, skippedBy: 'skipFeeEnforcement' },
  { name: 'proof', run: validateProof, skippedBy: 'isSimulation' },
];

/**
 * node_sendTx's validators: the RPC ones, except that the fee payer's balance is left to the pool, which
 * rejects a payer that cannot pay with INSUFFICIENT_FEE_PAYER_BALANCE and its figures (spec part 7).
 */
export const SEND_TX_VALIDATORS: readonly NamedValidator[] = RPC_TX_VALIDATORS.map((v) =>
  v.name === 'gas' ? { ...v, run: validateGasLimitsAndFees } : v,
);

/**
 * The validators a tx must still pass to (re-)enter the pending pool after a reorg: what can change with
 * the chain while the tx itself does not (4.1.2's pool-entry validator set).
 */
export const POOL_ENTRY_TX_VALIDATORS: readonly NamedValidator[] = [
  { name: 'gas', run: (tx, ctx) => validateGasLimits(tx, ctx.maxL2Gas) },
  { name: 'timestamp', run: validateTimestamp },
  { name: 'doubleSpend', run: validateDoubleSpend },
  { name: 'blockHeader', run: validateBlockHeader },
];

/**
 * Runs validators and combines their results (all run; reasons in order). A validator that throws is a
 * node bug or a state read failure: the tx gets 4.1.2's generic reason instead of an internal error.
 */
export function validateTx(
  tx: TxMeta,
  ctx: TxValidationContext,
  options: TxValidationOptions = {},
  validators: readonly NamedValidator[] = RPC_TX_VALIDATORS,
  onError?: (name: TxValidatorName, err: unknown) => void,
): TxValidationResult {
  const results: TxValidationResult[] = [];
  for (const v of validators) {
    if (v.skippedBy && options[v.skippedBy]) continue;
    try {
      results.push(v.run(tx, ctx));
    } catch (err) {
      // A lazy fork's state not fetched yet is no verdict: the caller fetches it and validates again.
      if (err instanceof UpstreamStateNeededError) throw err;
      onError?.(v.name, err);
      results.push(invalid(TX_ERROR.DURING_VALIDATION));
    }
  }
  return combineResults(results);
}
