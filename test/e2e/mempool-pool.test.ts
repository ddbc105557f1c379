import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { Tx } from '../../src/core/tx/tx.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { TX_ERROR } from '../../src/daemon/mempool/tx-checks/tx-error-texts.js';
import { call, devTxBuilder, genesisHeader, simpleFeePoolFlags } from '../helpers/mempool-e2e.js';
import { withPublicCalls } from '../helpers/mempool-txs.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';

/**
 * The pool over RPC (spec part 7, docs/aztec-facts.md section 1.7): every rejection code with its figures, pending
 * queries, duplicates, and a restart on the same data directory that brings the pending txs back in order.
 * Fees are simplified (no L1 costs, proving cost 1 wei per mana: min fee 100,000 per L2 gas) so the figures
 * are easy to check; capacity 6.
 */
const PAYER = new AztecAddress(0x1001n);
const POOR = new AztecAddress(0x2002n);
const MAX_FEE = 100_000n;
/** 6,540,000 L2 gas x 100,000 (DA gas is free). */
const FEE_LIMIT = 6_540_000n * MAX_FEE;
const POOR_BALANCE = 2n * FEE_LIMIT + 5n;
const CLASS_ID = `0x${'0b'.repeat(32)}`;
const FUNDED = [
  { address: PAYER, amount: 10n ** 24n },
  { address: POOR, amount: POOR_BALANCE },
];

let dir: string;
let node: RunningNode;
let builder: TxBuilder;
const args = () => [
  ...simpleFeePoolFlags(FUNDED),
  '--max-pending-tx-count',
  '6',
  '--data-directory',
  dir,
  '--tx-public-setup-allow-list-extend',
  `C:${CLASS_ID}:0x11223344`,
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'l2node-pool-e2e-'));
  node = await spawnNode({ args: args() });
  builder = devTxBuilder(genesisHeader(FUNDED));
});
afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let nonce = 0n;
const tx = (priority: bigint, o: { payer?: AztecAddress; nullifier?: bigint } = {}): Tx =>
  builder.build({
    feePayer: o.payer ?? PAYER,
    txRequestHash: new Fr(++nonce + 2_000_000n),
    nullifiers: o.nullifier ? [new Fr(o.nullifier)] : [],
    maxFeesPerGas: new GasFees(0n, MAX_FEE),
    maxPriorityFeesPerGas: new GasFees(0n, priority),
  });
const send = (t: Tx) => call(node.publicUrl, 'node_sendTx', [t.toJSON()]);
const pendingHashes = async (limit?: number, after?: string) =>
  (
    (await call(node.publicUrl, 'node_getPendingTxs', [limit ?? null, after ?? null])).result as { txHash: string }[]
  ).map((t) => t.txHash);
const receipt = async (t: Tx) => (await call(node.publicUrl, 'node_getTxReceipt', [t.txHash.toString()])).result;

// The scenario runs in order on one node; each step states what the pool holds.
const txs: Record<string, Tx> = {};

describe('the pool over RPC', () => {
  it('keeps pending txs in priority order, pages them, finds them by hash; a duplicate is accepted silently', async () => {
    expect((await call(node.publicUrl, 'node_getCurrentMinFees')).result).toEqual({
      feePerDaGas: '0',
      feePerL2Gas: MAX_FEE.toString(),
    });
    txs.p30 = tx(30n);
    txs.p10 = tx(10n);
    txs.p20 = tx(20n);
    for (const t of [txs.p30, txs.p10, txs.p20]) expect(await send(t)).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    expect(await send(txs.p30)).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    expect((await call(node.publicUrl, 'node_getPendingTxCount')).result).toBe(3);
    const order = [txs.p30, txs.p20, txs.p10].map((t) => t.txHash.toString());
    expect(await pendingHashes()).toEqual(order);
    expect(await pendingHashes(1)).toEqual(order.slice(0, 1));
    expect(await pendingHashes(5, order[0])).toEqual(order.slice(1));
    expect(await pendingHashes(5, `0x${'00'.repeat(32)}`)).toEqual([]);
    const limitTooHigh = await call(node.publicUrl, 'node_getPendingTxs', [101]);
    expect(limitTooHigh.error?.code).toBe(-32602);
    const byHash = (await call(node.publicUrl, 'node_getTxByHash', [order[1]])).result;
    expect(byHash).toEqual(txs.p20.toJSON());
    expect(await receipt(txs.p20)).toEqual({ txHash: order[1], status: 'pending' });
  });

  it('NULLIFIER_CONFLICT: a tx sharing a nullifier must beat the pending one by 10 %, and then replaces it', async () => {
    txs.a = tx(100n, { nullifier: 555_555n });
    expect((await send(txs.a)).error).toBeUndefined();
    const conflict = await send(tx(109n, { nullifier: 555_555n }));
    const hash = txs.a.txHash.toString();
    expect(conflict.error).toEqual({
      code: -32003,
      message: `Nullifier conflict with existing tx ${hash}. Minimum required fee: 110, got: 109`,
      data: {
        code: 'NULLIFIER_CONFLICT',
        message: `Nullifier conflict with existing tx ${hash}. Minimum required fee: 110, got: 109`,
        conflictingTxHash: hash,
        minimumPriceBumpFee: '110',
        txPriorityFee: '109',
      },
    });
    txs.c = tx(110n, { nullifier: 555_555n });
    expect((await send(txs.c)).error).toBeUndefined();
    expect(await receipt(txs.a)).toMatchObject({ status: 'dropped', dropReason: 'replaced' });
  });

  it("INSUFFICIENT_FEE_PAYER_BALANCE: the payer's balance must cover this tx after its higher-priority ones", async () => {
    txs.poor1 = tx(300n, { payer: POOR });
    txs.poor2 = tx(200n, { payer: POOR });
    expect((await send(txs.poor1)).error).toBeUndefined();
    expect((await send(txs.poor2)).error).toBeUndefined();
    const message = `Fee payer ${POOR} has insufficient balance. Balance at transaction: 5, required: ${FEE_LIMIT}`;
    expect((await send(tx(100n, { payer: POOR }))).error).toEqual({
      code: -32003,
      message,
      data: {
        code: 'INSUFFICIENT_FEE_PAYER_BALANCE',
        message,
        currentBalance: POOR_BALANCE.toString(),
        availableBalance: '5',
        feeLimit: FEE_LIMIT.toString(),
      },
    });
  });

  it('LOW_PRIORITY_FEE: in a full pool a tx must beat the lowest by the bump (at least +1), and evicts it', async () => {
    expect((await call(node.publicUrl, 'node_getPendingTxCount')).result).toBe(6);
    const message = 'Tx does not meet minimum priority fee. Required: 11, got: 10';
    expect((await send(tx(10n))).error).toEqual({
      code: -32003,
      message,
      data: { code: 'LOW_PRIORITY_FEE', message, minimumPriorityFee: '11', txPriorityFee: '10' },
    });
    txs.p11 = tx(11n);
    expect((await send(txs.p11)).error).toBeUndefined();
    expect(await receipt(txs.p10)).toMatchObject({ status: 'dropped', dropReason: 'evicted' });
  });

  it('takes class-based setup entries from the settings; a contract the node does not know fails them', async () => {
    const list = (await call(node.publicUrl, 'node_getAllowedPublicSetup')).result as unknown[];
    expect(list.at(-1)).toEqual({ classId: CLASS_ID, selector: '0x11223344' });
    const t = withPublicCalls(tx(1n), { setup: [{ contract: 77n, sender: 1n, calldata: [new Fr(0x11223344n)] }] });
    const reasons = [TX_ERROR.SETUP_FUNCTION_UNKNOWN_CONTRACT];
    expect((await call(node.publicUrl, 'node_isValidTx', [t.toJSON()])).result).toEqual({
      result: 'invalid',
      reason: reasons,
    });
    expect((await send(t)).error).toMatchObject({ code: -32004, data: { code: 'TX_INVALID', reasons } });
  });

  it('brings the pending txs back in order after a restart on the same data directory', async () => {
    const before = await pendingHashes();
    expect(before).toEqual([txs.poor1, txs.poor2, txs.c, txs.p30, txs.p20, txs.p11].map((t) => t?.txHash.toString()));
    await node.stop();
    node = await spawnNode({ args: args() });
    expect(await pendingHashes()).toEqual(before);
    expect((await call(node.publicUrl, 'node_getPendingTxCount')).result).toBe(6);
    expect(await receipt(txs.a as Tx)).toMatchObject({ status: 'dropped', dropReason: 'replaced' });
    expect((await send(txs.p30 as Tx)).error).toBeUndefined();
  });
});
