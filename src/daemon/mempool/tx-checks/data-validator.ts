import { MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS } from '../../../core/constants.js';
import { computeCalldataHash } from '../../../core/tx/hashed-values.js';
import type { TxMeta } from '../tx-meta.js';
import { TX_ERROR } from './tx-error-texts.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * The data sent beside the kernel output matches what the kernel output commits to (4.1.2 DataTxValidator;
 * the first finding wins): the claimed tx hash, the calldata of each public call (count, total size, hash),
 * and the contract class logs (count, order, content, length).
 */
export function validateData(tx: TxMeta): TxValidationResult {
  const reason = checkHash(tx) ?? checkCalldata(tx) ?? checkContractClassLogs(tx);
  return reason ? invalid(reason) : VALID;
}

function checkHash(tx: TxMeta): string | undefined {
  // A hash computed from the data is right by construction; only a claimed one needs checking.
  if (!tx.hashIsClaimed) return undefined;
  return tx.tx.computeTxHash().equals(tx.txHash) ? undefined : TX_ERROR.INCORRECT_HASH;
}

function checkCalldata(tx: TxMeta): string | undefined {
  const calldata = tx.tx.publicFunctionCalldata;
  if (calldata.length !== tx.tx.data.numberOfPublicCallRequests()) return TX_ERROR.CALLDATA_COUNT_MISMATCH;
  let total = 0;
  for (const c of calldata) total += c.values.length;
  if (total > MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS) return TX_ERROR.CALLDATA_COUNT_TOO_LARGE;
  for (const { request, calldata: values } of tx.publicCalls) {
    if (computeCalldataHash(values) !== request.calldataHash.value) return TX_ERROR.INCORRECT_CALLDATA;
  }
  return undefined;
}

function checkContractClassLogs(tx: TxMeta): string | undefined {
  const committed = tx.tx.data.getNonEmptyContractClassLogsHashes();
  const sent = tx.tx.contractClassLogFields;
  if (committed.length !== sent.length) return TX_ERROR.CONTRACT_CLASS_LOG_COUNT;
  const sentHashes = sent.map((f) => f.hash());
  for (let i = 0; i < committed.length; i++) {
    const logHash = committed[i] as (typeof committed)[number];
    if (logHash.value.value !== sentHashes[i]) {
      return sentHashes.includes(logHash.value.value)
        ? TX_ERROR.CONTRACT_CLASS_LOG_SORTING
        : TX_ERROR.CONTRACT_CLASS_LOGS;
    }
    const fields = (sent[i] as (typeof sent)[number]).fields;
    let lastNonZero = -1;
    for (let j = fields.length - 1; j >= 0; j--) {
      if (!fields[j]?.isZero()) {
        lastNonZero = j;
        break;
      }
    }
    if (logHash.length < lastNonZero + 1) return TX_ERROR.CONTRACT_CLASS_LOG_LENGTH;
  }
  return undefined;
}
