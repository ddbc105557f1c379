import type { BlockHash } from '../block-hash.js';
import { DebugLog, type DebugLogJson } from '../logs/debug-log.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import {
  readArray,
  readBigInt,
  readBlockHash,
  readInteger,
  readObject,
  readString,
  readTxHash,
} from '../serialize/json-reader.js';
import type { TxHash } from '../tx-hash.js';
import { RevertCode } from './revert-code.js';

/** Where a tx stands, in order of progress (4.x; docs/aztec-facts.md section 2.2). */
export const TX_STATUSES = ['dropped', 'pending', 'proposed', 'checkpointed', 'proven', 'finalized'] as const;
export type TxStatus = (typeof TX_STATUSES)[number];

/** How a mined tx's execution ended; only set once it is in a block. */
export const TX_EXECUTION_RESULTS = ['success', 'app_logic_reverted', 'teardown_reverted', 'both_reverted'] as const;
export type TxExecutionResult = (typeof TX_EXECUTION_RESULTS)[number];

/** The text 4.1.2 gives for a hash its node does not know (compatibility: such a tx reads as `dropped`). */
export const TX_DROPPED_ERROR = 'Tx dropped by P2P node';

export interface TxReceiptFields {
  txHash: TxHash;
  status: TxStatus;
  executionResult?: TxExecutionResult;
  error?: string;
  /** Fee paid, in fee juice (a decimal string on the wire, unlike TxEffect's Fr). */
  transactionFee?: bigint;
  blockHash?: BlockHash;
  blockNumber?: number;
  epochNumber?: number;
  debugLogs?: readonly DebugLog[];
  /**
   * Why a `dropped` receipt is dropped (an l2node extension, Aztec issue #25018): `unknown` when the node
   * never saw the hash, else why its pool let go of it; with `dropDetail` when the node dropped it itself.
   * The official client's schema strips unknown keys, so old clients see exactly 4.1.2's receipt.
   */
  dropReason?: string;
  dropDetail?: string;
}

export interface TxReceiptJson {
  txHash: string;
  status: TxStatus;
  executionResult?: TxExecutionResult;
  error?: string;
  transactionFee?: string;
  blockHash?: string;
  blockNumber?: number;
  epochNumber?: number;
  debugLogs?: DebugLogJson[];
  dropReason?: string;
  dropDetail?: string;
}

/**
 * A tx receipt (4.1.2 tx/tx_receipt.ts). Absent fields are left out of the JSON, never `null` (the 4.1.2
 * client rejects null), and keys come in 4.1.2's order, l2node's drop reason last.
 */
export class TxReceipt implements TxReceiptFields {
  readonly txHash: TxHash;
  readonly status: TxStatus;
  readonly executionResult?: TxExecutionResult;
  readonly error?: string;
  readonly transactionFee?: bigint;
  readonly blockHash?: BlockHash;
  readonly blockNumber?: number;
  readonly epochNumber?: number;
  readonly debugLogs?: readonly DebugLog[];
  readonly dropReason?: string;
  readonly dropDetail?: string;

  constructor(f: TxReceiptFields) {
    this.txHash = f.txHash;
    this.status = f.status;
    this.executionResult = f.executionResult;
    this.error = f.error;
    this.transactionFee = f.transactionFee;
    this.blockHash = f.blockHash;
    this.blockNumber = f.blockNumber;
    this.epochNumber = f.epochNumber;
    this.debugLogs = f.debugLogs;
    this.dropReason = f.dropReason;
    this.dropDetail = f.dropDetail;
  }

  /** True for every in-block status (the spec's `mined`). */
  isMined(): boolean {
    return this.status !== 'dropped' && this.status !== 'pending';
  }

  toJSON(): TxReceiptJson {
    const out: TxReceiptJson = { txHash: this.txHash.toString(), status: this.status };
    if (this.executionResult !== undefined) out.executionResult = this.executionResult;
    if (this.error !== undefined) out.error = this.error;
    if (this.transactionFee !== undefined) out.transactionFee = this.transactionFee.toString();
    if (this.blockHash !== undefined) out.blockHash = this.blockHash.toString();
    if (this.blockNumber !== undefined) out.blockNumber = this.blockNumber;
    if (this.epochNumber !== undefined) out.epochNumber = this.epochNumber;
    if (this.debugLogs !== undefined) out.debugLogs = this.debugLogs.map((l) => l.toJSON());
    if (this.dropReason !== undefined) out.dropReason = this.dropReason;
    if (this.dropDetail !== undefined) out.dropDetail = this.dropDetail;
    return out;
  }

  static fromJSON(json: unknown, path = 'receipt'): TxReceipt {
    const o = readObject(json, path);
    const status = readString(o.status, path, 'status');
    if (!(TX_STATUSES as readonly string[]).includes(status)) {
      throw new DecodeError(
        joinPath(path, 'status'),
        `expected one of ${TX_STATUSES.join(', ')}, received "${status}"`,
      );
    }
    const f: TxReceiptFields = { txHash: readTxHash(o.txHash, path, 'txHash'), status: status as TxStatus };
    if (o.executionResult !== undefined) {
      const r = readString(o.executionResult, path, 'executionResult');
      if (!(TX_EXECUTION_RESULTS as readonly string[]).includes(r)) {
        throw new DecodeError(joinPath(path, 'executionResult'), `unknown execution result "${r}"`);
      }
      f.executionResult = r as TxExecutionResult;
    }
    if (o.error !== undefined) f.error = readString(o.error, path, 'error');
    if (o.transactionFee !== undefined) {
      f.transactionFee = readBigInt(o.transactionFee, path, 'transactionFee', (1n << 256n) - 1n);
    }
    if (o.blockHash !== undefined) f.blockHash = readBlockHash(o.blockHash, path, 'blockHash');
    if (o.blockNumber !== undefined) f.blockNumber = readInteger(o.blockNumber, path, 'blockNumber');
    if (o.epochNumber !== undefined) f.epochNumber = readInteger(o.epochNumber, path, 'epochNumber');
    if (o.debugLogs !== undefined) {
      const logsPath = joinPath(path, 'debugLogs');
      f.debugLogs = readArray(o.debugLogs, path, 'debugLogs').map((l, i) =>
        DebugLog.fromJSON(l, joinPath(logsPath, i)),
      );
    }
    if (o.dropReason !== undefined) f.dropReason = readString(o.dropReason, path, 'dropReason');
    if (o.dropDetail !== undefined) f.dropDetail = readString(o.dropDetail, path, 'dropDetail');
    return new TxReceipt(f);
  }
}

/** The execution result a revert code maps to (4.1.2 TxReceipt.executionResultFromRevertCode). */
export function executionResultFromRevertCode(code: RevertCode): TxExecutionResult {
  switch (code) {
    case RevertCode.OK:
      return 'success';
    case RevertCode.APP_LOGIC_REVERTED:
      return 'app_logic_reverted';
    case RevertCode.TEARDOWN_REVERTED:
      return 'teardown_reverted';
    case RevertCode.BOTH_REVERTED:
      return 'both_reverted';
  }
}
