import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { TxBuilder, TxBuildOptions } from '../../src/core/tx/tx-builder.js';
import { TX_ERROR } from '../../src/daemon/mempool/tx-checks/tx-error-texts.js';
import { call, devTxBuilder, genesisHeader, prefundedFlag } from '../helpers/mempool-e2e.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * The mempool on a running dev chain (on-demand sequencer): a sent tx is mined and its receipt says where;
 * the mined tx stays readable; the chain's state now backs the validators (a spent nullifier, an expired tx
 * once past block 1).
 */
const PAYER = new AztecAddress(0x1001n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
let node: RunningNode;
let builder: TxBuilder;
let maxFee: bigint;

beforeAll(async () => {
  node = await spawnNode({
    args: ['--sequencer-mode', 'on-demand', '--slot-duration', '1', '--prefunded-accounts', prefundedFlag(FUNDED)],
  });
  builder = devTxBuilder(genesisHeader(FUNDED));
  const fees = (await call(node.publicUrl, 'node_getCurrentMinFees')).result as { feePerL2Gas: string };
  maxFee = 2n * BigInt(fees.feePerL2Gas);
});
afterAll(async () => {
  await node?.stop();
});

let nonce = 0n;
const build = (o: Partial<TxBuildOptions> = {}) =>
  builder.build({
    feePayer: PAYER,
    txRequestHash: new Fr(++nonce + 3_000_000n),
    maxFeesPerGas: new GasFees(0n, maxFee),
    ...o,
  });

describe('the mempool on a dev chain', () => {
  it('mines a sent tx: its receipt gives the block, the execution result and the fee', async () => {
    const tx = build({ nullifiers: [new Fr(777_777n)] });
    const hash = tx.txHash.toString();
    expect((await call(node.publicUrl, 'node_sendTx', [tx.toJSON()])).error).toBeUndefined();
    const receipt = await until('the tx to be mined', async () => {
      const r = (await call(node.publicUrl, 'node_getTxReceipt', [hash])).result as Record<string, unknown>;
      return r.status === 'pending' ? undefined : r;
    });
    expect(receipt).toMatchObject({ txHash: hash, executionResult: 'success', blockNumber: expect.any(Number) });
    expect(['proposed', 'checkpointed', 'proven', 'finalized']).toContain(receipt.status);
    expect(BigInt(receipt.transactionFee as string)).toBeGreaterThan(0n);
    expect(receipt.blockHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(receipt.epochNumber).toEqual(expect.any(Number));
    expect((await call(node.publicUrl, 'node_getPendingTxCount')).result).toBe(0);
    expect(((await call(node.publicUrl, 'node_getTxByHash', [hash])).result as { txHash: string }).txHash).toBe(hash);

    // The chain's nullifier tree now has its nullifiers.
    const again = build({ nullifiers: [new Fr(777_777n)] }).toJSON();
    expect((await call(node.publicUrl, 'node_isValidTx', [again])).result).toEqual({
      result: 'invalid',
      reason: [TX_ERROR.EXISTING_NULLIFIER],
    });
  });

  it('refuses an expired tx once the chain is past block 1', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const json = build({ expirationTimestamp: now - 60n }).toJSON();
    const sent = await call(node.publicUrl, 'node_sendTx', [json]);
    expect(sent.error).toEqual({
      code: -32004,
      message: `Invalid tx: ${TX_ERROR.INVALID_EXPIRATION_TIMESTAMP}`,
      data: { code: 'TX_INVALID', reasons: [TX_ERROR.INVALID_EXPIRATION_TIMESTAMP] },
    });
  });
});
