import type { Tx } from '../../core/tx/tx.js';
import type { TxValidationContext } from './tx-checks/tx-validation-context.js';
import type { TxValidationResult } from './tx-checks/tx-validation-result.js';
import type { TxValidationOptions } from './tx-checks/tx-validator.js';

/** Which validator set a validation runs: node_isValidTx's, or node_sendTx's (and gossip's). */
export type TxValidatorSet = 'rpc' | 'sendTx';

export interface OffloadedTxValidation {
  readonly result: TxValidationResult;
  /** node_sendTx's explanations of refused setup calls (only for an invalid tx of the sendTx set). */
  readonly details: readonly string[];
}

/**
 * Validation of a tx with public calls elsewhere than on the event loop (docs/architecture.md section 4.11): its
 * hash and calldata hashes cost tens of milliseconds of Poseidon2 each, which a flood of node_isValidTx would
 * otherwise run on the main thread. The runner reads the committed state of block `ctx.blockNumber - 1`, runs
 * `validateTx` with the context's values, and gives the tx the hash it computed (Tx.adoptComputedHash). It may
 * throw an RpcError when its budgets refuse the work (busy, over time, over memory).
 */
export interface TxValidationOffload {
  validate(
    tx: Tx,
    ctx: TxValidationContext,
    options: TxValidationOptions,
    validators: TxValidatorSet,
  ): Promise<OffloadedTxValidation>;
}
