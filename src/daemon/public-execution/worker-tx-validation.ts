import type { TxValidationOffload } from '../mempool/offloaded-tx-validation.js';
import type { PublicExecutionPool } from './public-execution-pool.js';
import { adoptValidateTxAnswer, validateTxJob } from './tx-validation-job.js';

/** The mempool's validation of txs with public calls, in the public execution pool's caller workers. */
export function workerTxValidation(pool: PublicExecutionPool): TxValidationOffload {
  return {
    validate: async (tx, ctx, options, validators) =>
      adoptValidateTxAnswer(tx, await pool.validateTx(validateTxJob(tx, ctx, options, validators))),
  };
}
