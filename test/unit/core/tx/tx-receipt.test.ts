import { BlockNumber, EpochNumber } from '@aztec/foundation/branded-types';
import { jsonStringify } from '@aztec/foundation/json-rpc';
import { BlockHash as StdBlockHash } from '@aztec/stdlib/block';
import { TxHash as StdTxHash, TxReceipt as StdTxReceipt, TxExecutionResult, TxStatus } from '@aztec/stdlib/tx';
import { describe, expect, it } from 'vitest';
import { RevertCode } from '../../../../src/core/tx/revert-code.js';
import { executionResultFromRevertCode, TxReceipt } from '../../../../src/core/tx/tx-receipt.js';

describe('TxReceipt', () => {
  it("writes stdlib's JSON for a mined receipt, keys in 4.1.2 order", () => {
    const std = new StdTxReceipt(
      StdTxHash.random(),
      TxStatus.CHECKPOINTED,
      TxExecutionResult.SUCCESS,
      undefined,
      98765n,
      StdBlockHash.random(),
      BlockNumber(5),
      EpochNumber(1),
    );
    const json = jsonStringify(std);
    const ours = TxReceipt.fromJSON(JSON.parse(json));
    expect(JSON.stringify(ours)).toBe(json);
    expect(Object.keys(JSON.parse(json))).toEqual([
      'txHash',
      'status',
      'executionResult',
      'transactionFee',
      'blockHash',
      'blockNumber',
      'epochNumber',
    ]);
    expect(ours.isMined()).toBe(true);
    expect(StdTxReceipt.schema.parse(JSON.parse(JSON.stringify(ours))).transactionFee).toBe(98765n);
  });

  it('writes a dropped receipt without absent fields', () => {
    const std = new StdTxReceipt(StdTxHash.random(), TxStatus.DROPPED, undefined, 'Tx dropped by P2P node');
    const json = jsonStringify(std);
    expect(JSON.stringify(TxReceipt.fromJSON(JSON.parse(json)))).toBe(json);
    expect(() => TxReceipt.fromJSON({ ...JSON.parse(json), status: 'mined' })).toThrow(/receipt\.status/);
  });

  it('maps revert codes to execution results', () => {
    expect(executionResultFromRevertCode(RevertCode.OK)).toBe('success');
    expect(executionResultFromRevertCode(RevertCode.BOTH_REVERTED)).toBe('both_reverted');
  });
});
