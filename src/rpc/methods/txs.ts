import { DecodeError, joinPath } from '../../core/serialize/decode-error.js';
import { describe, readObject } from '../../core/serialize/json-reader.js';
import { IndexedTxEffect } from '../../core/tx/indexed-tx-effect.js';
import { PublicSimulationOutput } from '../../core/tx/public-simulation-output.js';
import { Tx } from '../../core/tx/tx.js';
import { TxReceipt } from '../../core/tx/tx-receipt.js';
import { arrayResult, classResult, integerResult, nullable, stringResult, voidResult } from '../result-codecs.js';
import { defaulted, defineMethod, optional, type ResultCodec, required } from '../rpc-method.js';
import { arrayOf, boolean, booleanOrNull, integer, objectOf, txHash, tx as txWire } from '../wire-types.js';
import { SAME } from './shared-params.js';

/** Transaction operations: sending, validating, pending txs, receipts and effects. */

const receiptClass = classResult('TxReceipt', (json, path) => TxReceipt.fromJSON(json, path));

/**
 * TxReceipt: in the spec answer style every included status (proposed, checkpointed, proven, finalized) is
 * the spec's `mined`, read back as `proposed` (the least a mined tx is).
 */
export const txReceiptResult: ResultCodec<TxReceipt> = {
  type: receiptClass.type,
  encode: (v, style) => {
    const json = v.toJSON();
    return style === 'spec' && v.isMined() ? { ...json, status: 'mined' } : json;
  },
  decode: (json, path) => {
    const o = json as { status?: unknown } | null;
    return receiptClass.decode(
      typeof o === 'object' && o !== null && o.status === 'mined' ? { ...o, status: 'proposed' } : json,
      path,
    );
  },
};

const tx = required('tx', txWire, 'The transaction (4.1.2 Tx wire JSON).');
const hashOfTx = required('txHash', txHash, 'Hash of the transaction.');
const validationOptions = objectOf(
  'TxValidationOptions',
  {},
  { isSimulation: booleanOrNull, skipFeeEnforcement: booleanOrNull },
  { strict: true },
);

export const txResult = classResult('Tx', (json, path) => Tx.fromJSON(json, path));

/**
 * The outcome of validating a tx (4.1.2 TxValidationResult): valid; invalid with reasons; or skipped (the
 * tx may become valid when fees drop).
 */
export type TxValidationResult =
  | { readonly result: 'valid' }
  | { readonly result: 'invalid' | 'skipped'; readonly reason: readonly string[] };

const reasonsResult = arrayResult(stringResult);

export const txValidationResult: ResultCodec<TxValidationResult> = {
  type: 'TxValidationResult',
  identity: true,
  encode: (v) => v,
  decode: (json, path = '') => {
    const o = readObject(json, path);
    if (o.result === 'valid') return { result: 'valid' };
    if (o.result !== 'invalid' && o.result !== 'skipped') {
      throw new DecodeError(
        joinPath(path, 'result'),
        `expected "valid", "invalid" or "skipped", got ${describe(o.result)}`,
      );
    }
    return { result: o.result, reason: reasonsResult.decode(o.reason, joinPath(path, 'reason')) };
  },
};

export const TX_METHODS = {
  node_sendTx: defineMethod({
    summary: 'Submits a transaction to the mempool; a rejection comes back as TX_REJECTED or TX_INVALID.',
    params: [tx],
    result: voidResult,
    compat: SAME,
  }),
  node_getTxReceipt: defineMethod({
    summary: 'Receipt of a transaction: mined, pending or dropped.',
    params: [hashOfTx],
    result: txReceiptResult,
    compat: SAME,
  }),
  node_getTxEffect: defineMethod({
    summary: 'Effects of a mined transaction with its block, or null.',
    params: [hashOfTx],
    result: nullable(classResult('IndexedTxEffect', (json, path) => IndexedTxEffect.fromJSON(json, path))),
    compat: SAME,
  }),
  node_getTxByHash: defineMethod({
    summary: 'A pending transaction, or null.',
    params: [hashOfTx],
    result: nullable(txResult),
    compat: SAME,
  }),
  node_getTxsByHash: defineMethod({
    summary: 'The pool transactions among the given hashes, in the order asked; unknown ones are left out.',
    params: [required('txHashes', arrayOf(txHash, 50), 'Hashes of the transactions (at most 50, as 4.1.2).')],
    result: arrayResult(txResult),
    compat: SAME,
  }),
  node_getPendingTxs: defineMethod({
    summary: 'Pending transactions, highest priority fee first, paged with `after`.',
    params: [
      defaulted('limit', integer(1, 100), 100, 'How many (1 to 100, default 100).'),
      optional('after', txHash, 'Return the transactions after this one.'),
    ],
    result: arrayResult(txResult),
    compat: SAME,
  }),
  node_getPendingTxCount: defineMethod({
    summary: 'Number of pending transactions.',
    params: [],
    result: integerResult,
    compat: SAME,
  }),
  node_isValidTx: defineMethod({
    summary: 'Validates a transaction against the latest state without submitting it.',
    params: [
      tx,
      optional('options', validationOptions, 'isSimulation skips proof checks; skipFeeEnforcement skips fees.'),
    ],
    result: txValidationResult,
    compat: SAME,
  }),
  node_simulatePublicCalls: defineMethod({
    summary: 'Simulates the public calls of a transaction on the latest state.',
    params: [tx, optional('skipFeeEnforcement', boolean, 'Do not check fees.')],
    result: classResult('PublicSimulationOutput', PublicSimulationOutput.fromJSON),
    compat: SAME,
  }),
};
