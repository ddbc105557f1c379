import { GasFees } from '../../core/gas/gas-fees.js';
import type { Tx } from '../../core/tx/tx.js';
import { TxHash } from '../../core/tx-hash.js';
import { worldStateReader } from '../mempool/committed-state-reader.js';
import type { OffloadedTxValidation, TxValidatorSet } from '../mempool/offloaded-tx-validation.js';
import { formatAllowedSetupList, parseAllowedSetupList } from '../mempool/tx-checks/allowed-setup-function.js';
import { setupRefusalDetails } from '../mempool/tx-checks/phases-validator.js';
import type { TxValidationContext } from '../mempool/tx-checks/tx-validation-context.js';
import {
  RPC_TX_VALIDATORS,
  SEND_TX_VALIDATORS,
  type TxValidationOptions,
  validateTx,
} from '../mempool/tx-checks/tx-validator.js';
import { TxMeta } from '../mempool/tx-meta.js';
import { chainStoreContracts } from '../public-processor/chain-store-contracts.js';
import type { WorkerState } from './public-execution-jobs.js';
import { receivedTx } from './received-tx.js';

/**
 * The public execution pool's tx validation job (node_isValidTx, node_sendTx and gossiped txs with public calls;
 * see TxValidationOffload): the tx's bytes and the plain values of the main thread's validation context; the
 * worker reads the committed state of `atBlock` on its own connection.
 */
export interface ValidateTxJob {
  /** Tx.toBufferForTransfer: the hash slot is zero when `hashKnown` is false. */
  readonly tx: Uint8Array;
  readonly hashKnown: boolean;
  readonly atBlock: number;
  readonly values: {
    readonly l1ChainId: bigint;
    readonly rollupVersion: bigint;
    readonly vkTreeRoot: bigint;
    readonly protocolContractsHash: bigint;
    readonly timestamp: bigint;
    readonly feePerDaGas: bigint;
    readonly feePerL2Gas: bigint;
    readonly maxL2Gas: number;
    /** The allow list in its setting's form (formatAllowedSetupList). */
    readonly setupAllowList: string;
    readonly realProofs: boolean;
  };
  readonly options: TxValidationOptions;
  readonly validators: TxValidatorSet;
}

export interface ValidateTxAnswer {
  /** The hash of the tx (claimed, or computed here). */
  readonly txHash: bigint;
  readonly validation: OffloadedTxValidation;
}

/** The job for `tx` in the main thread's context `ctx` (which reads the latest block, ctx.blockNumber - 1). */
export function validateTxJob(
  tx: Tx,
  ctx: TxValidationContext,
  options: TxValidationOptions,
  validators: TxValidatorSet,
): ValidateTxJob {
  return {
    tx: tx.toBufferForTransfer(),
    hashKnown: tx.hasKnownHash,
    atBlock: ctx.blockNumber - 1,
    values: {
      l1ChainId: ctx.l1ChainId,
      rollupVersion: ctx.rollupVersion,
      vkTreeRoot: ctx.vkTreeRoot,
      protocolContractsHash: ctx.protocolContractsHash,
      timestamp: ctx.timestamp,
      feePerDaGas: ctx.gasFees.feePerDaGas,
      feePerL2Gas: ctx.gasFees.feePerL2Gas,
      maxL2Gas: ctx.maxL2Gas,
      setupAllowList: formatAllowedSetupList(ctx.setupAllowList),
      realProofs: ctx.realProofs,
    },
    options,
    validators,
  };
}

/** Runs in a worker: the validators the main thread would run, on the state of the job's block. */
export function validateTxInWorker(state: WorkerState, job: ValidateTxJob): ValidateTxAnswer {
  const tx = receivedTx(job.tx, job.hashKnown);
  const meta = TxMeta.of(tx);
  const reader = worldStateReader(state.worldState).atBlock(job.atBlock);
  const contracts = chainStoreContracts(state.store);
  const v = job.values;
  const ctx: TxValidationContext = {
    l1ChainId: v.l1ChainId,
    rollupVersion: v.rollupVersion,
    vkTreeRoot: v.vkTreeRoot,
    protocolContractsHash: v.protocolContractsHash,
    blockNumber: job.atBlock + 1,
    timestamp: v.timestamp,
    gasFees: new GasFees(v.feePerDaGas, v.feePerL2Gas),
    maxL2Gas: v.maxL2Gas,
    setupAllowList: parseAllowedSetupList(v.setupAllowList),
    realProofs: v.realProofs,
    nullifiersExist: (n) => reader.nullifiersExist(n),
    archiveHasBlockHash: (h) => reader.archiveHasBlockHash(h),
    publicDataAt: (slot) => reader.publicDataAt(slot),
    contractClassIdOf: (address) =>
      state.store.getContractInstanceAt(address, v.timestamp)?.currentContractClassId.value,
    functionNameOf: (selector) => contracts.getFunctionName(selector),
  };
  const sendTx = job.validators === 'sendTx';
  const result = validateTx(meta, ctx, job.options, sendTx ? SEND_TX_VALIDATORS : RPC_TX_VALIDATORS);
  const details = sendTx && result.result === 'invalid' ? setupRefusalDetails(meta, ctx) : [];
  return { txHash: tx.txHash.value, validation: { result, details } };
}

/** The answer as the main thread uses it: the tx takes the hash the worker computed. */
export function adoptValidateTxAnswer(tx: Tx, answer: ValidateTxAnswer): OffloadedTxValidation {
  tx.adoptComputedHash(new TxHash(answer.txHash));
  return answer.validation;
}
