import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GasFees } from '../../../../src/core/gas/gas-fees.js';
import type { Tx } from '../../../../src/core/tx/tx.js';
import { TxHash } from '../../../../src/core/tx-hash.js';
import type { Mempool } from '../../../../src/daemon/mempool/mempool.js';
import { DEFAULT_FEE_LIMIT, MempoolHarness, PAYERS, POOR_BALANCE, POOR_PAYER } from './mempool-fixtures.js';

/**
 * THE pool suite (docs/architecture.md section 6: one suite, two implementations): run against a pool used as it is, and
 * against the same pool closed and reopened from its SQLite file before every check, which must give the
 * same answers (pending txs come back, in order, with their drops and mined records).
 */
export function describeTxPoolSuite(variant: 'fresh' | 'reopened'): void {
  describe(`the tx pool (${variant})`, () => {
    let dir: string;
    let h: MempoolHarness;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'l2node-pool-'));
      h = new MempoolHarness({ file: join(dir, 'node.sqlite') });
    });
    afterEach(() => {
      h.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** The mempool to check: the same one, or a reopened one. */
    const check = (): Mempool => {
      if (variant === 'reopened') h.reopen();
      return h.mempool;
    };
    const send = (tx: Tx) => h.mempool.sendTx(tx);
    const hashes = (txs: readonly Tx[]) => txs.map((t) => t.txHash.toString());
    const byPriority = (txs: Tx[]) =>
      [...txs].sort((a, b) => {
        const fa = a.gasSettings.maxPriorityFeesPerGas.feePerL2Gas;
        const fb = b.gasSettings.maxPriorityFeesPerGas.feePerL2Gas;
        if (fa !== fb) return fa > fb ? -1 : 1;
        return a.txHash.value > b.txHash.value ? -1 : 1;
      });

    it('orders pending txs by priority fee, ties by the higher tx hash, and pages after a hash', async () => {
      const txs = [30n, 10n, 20n, 20n, 20n, 5n].map((priority) => h.tx({ priority }));
      for (const tx of txs) expect(await send(tx)).toEqual({ outcome: 'accepted' });
      const expected = hashes(byPriority(txs));
      const m = check();
      expect(m.pendingTxCount()).toBe(6);
      expect(hashes(m.pendingTxs(100))).toEqual(expected);
      expect(hashes(m.pendingTxs(2))).toEqual(expected.slice(0, 2));
      expect(hashes(m.pendingTxs(2, TxHash.fromString(expected[1] as string)))).toEqual(expected.slice(2, 4));
      expect(hashes(m.pendingTxs(100, TxHash.fromString(expected[5] as string)))).toEqual([]);
      expect(m.pendingTxs(100, new TxHash(123n))).toEqual([]);
      expect(hashes([...m.pendingTxsByPriority()])).toEqual(expected);
    });

    it("answers 4.1.2's getTxsByHash (found ones, in the order asked) and getMaxPriorityFees (the top tx's)", async () => {
      expect(h.mempool.maxPriorityFees()).toEqual(GasFees.ZERO);
      const low = h.tx({ priority: 7n });
      const high = h.tx({ priority: 70n });
      await send(low);
      await send(high);
      const m = check();
      expect(hashes(m.txsByHash([low.txHash, new TxHash(5n), high.txHash]))).toEqual(hashes([low, high]));
      expect(m.maxPriorityFees()).toEqual(new GasFees(0n, 70n));
    });

    it('uses min(max fee, max priority fee) as the priority fee', async () => {
      const capped = h.tx({ priority: 5_000n, maxFee: 1_500n });
      const higher = h.tx({ priority: 1_400n, maxFee: 2_000n });
      await send(capped);
      await send(higher);
      expect(hashes(check().pendingTxs(10))).toEqual(hashes([capped, higher]));
    });

    it('accepts a duplicate silently and keeps one copy', async () => {
      const tx = h.tx({ priority: 3n });
      expect(await send(tx)).toEqual({ outcome: 'accepted' });
      expect(await send(tx)).toEqual({ outcome: 'duplicate' });
      const m = check();
      expect(await m.sendTx(tx)).toEqual({ outcome: 'duplicate' });
      expect(m.pendingTxCount()).toBe(1);
      expect(m.txByHash(tx.txHash)?.toBuffer().equals(tx.toBuffer())).toBe(true);
      expect(m.txReceipt(tx.txHash).toJSON()).toEqual({ txHash: tx.txHash.toString(), status: 'pending' });
    });

    it('when full, takes a tx only if it beats the lowest by the price bump: LOW_PRIORITY_FEE otherwise', async () => {
      h.settings.maxPendingTxCount = 2;
      const low = h.tx({ priority: 100n });
      await send(low);
      await send(h.tx({ priority: 200n }));
      expect(await send(h.tx({ priority: 109n }))).toEqual({
        outcome: 'rejected',
        rejection: {
          code: 'LOW_PRIORITY_FEE',
          message: 'Tx does not meet minimum priority fee. Required: 110, got: 109',
          minimumPriorityFee: '110',
          txPriorityFee: '109',
        },
      });
      const winner = h.tx({ priority: 110n });
      expect(await send(winner)).toEqual({ outcome: 'accepted' });
      const m = check();
      expect(m.pendingTxCount()).toBe(2);
      expect(m.txReceipt(low.txHash).toJSON()).toMatchObject({ status: 'dropped', dropReason: 'evicted' });
      expect(m.txByHash(low.txHash)).toBeUndefined();
    });

    it('bumps by at least 1 for small fees, and follows a runtime change of the limit', async () => {
      h.settings.maxPendingTxCount = 1;
      await send(h.tx({ priority: 5n }));
      expect(await send(h.tx({ priority: 5n }))).toMatchObject({
        rejection: { minimumPriorityFee: '6', txPriorityFee: '5' },
      });
      h.settings.maxPendingTxCount = 3;
      for (const p of [1n, 2n]) expect(await send(h.tx({ priority: p }))).toEqual({ outcome: 'accepted' });
      h.settings.maxPendingTxCount = 2;
      // The next add trims to the new limit first (dropping the lowest), then applies the rule.
      expect(await send(h.tx({ priority: 1n }))).toMatchObject({ rejection: { code: 'LOW_PRIORITY_FEE' } });
      expect(check().pendingTxCount()).toBe(2);
    });

    it('replaces a tx sharing a nullifier only when beaten by the price bump: NULLIFIER_CONFLICT otherwise', async () => {
      const first = h.tx({ priority: 100n, nullifiers: [777n] });
      await send(first);
      expect(await send(h.tx({ priority: 109n, nullifiers: [777n] }))).toEqual({
        outcome: 'rejected',
        rejection: {
          code: 'NULLIFIER_CONFLICT',
          message: `Nullifier conflict with existing tx ${first.txHash}. Minimum required fee: 110, got: 109`,
          conflictingTxHash: first.txHash.toString(),
          minimumPriceBumpFee: '110',
          txPriorityFee: '109',
        },
      });
      const replacement = h.tx({ priority: 110n, nullifiers: [777n] });
      expect(await send(replacement)).toEqual({ outcome: 'accepted' });
      const m = check();
      expect(hashes(m.pendingTxs(10))).toEqual(hashes([replacement]));
      expect(m.txReceipt(first.txHash).toJSON()).toMatchObject({ status: 'dropped', dropReason: 'replaced' });
    });

    it("walks a fee payer's pending txs by priority: INSUFFICIENT_FEE_PAYER_BALANCE, or evicts lower ones", async () => {
      const a = h.tx({ payer: POOR_PAYER, priority: 300n });
      const b = h.tx({ payer: POOR_PAYER, priority: 200n });
      expect(await send(a)).toEqual({ outcome: 'accepted' });
      expect(await send(b)).toEqual({ outcome: 'accepted' });
      expect(await send(h.tx({ payer: POOR_PAYER, priority: 100n }))).toEqual({
        outcome: 'rejected',
        rejection: {
          code: 'INSUFFICIENT_FEE_PAYER_BALANCE',
          message: `Fee payer ${POOR_PAYER} has insufficient balance. Balance at transaction: 5, required: ${DEFAULT_FEE_LIMIT}`,
          currentBalance: POOR_BALANCE.toString(),
          availableBalance: '5',
          feeLimit: DEFAULT_FEE_LIMIT.toString(),
        },
      });
      const top = h.tx({ payer: POOR_PAYER, priority: 400n });
      expect(await send(top)).toEqual({ outcome: 'accepted' });
      const m = check();
      expect(hashes(m.pendingTxs(10))).toEqual(hashes([top, a]));
      expect(m.txReceipt(b.txHash).toJSON()).toMatchObject({ status: 'dropped', dropReason: 'insufficient_balance' });
    });

    it('marks mined txs, drops txs whose nullifiers a block spent and txs that expired', async () => {
      const mined = h.tx({ priority: 50n, nullifiers: [901n] });
      const rival = h.tx({ priority: 40n, nullifiers: [902n] });
      const expiring = h.tx({ priority: 30n, expiration: h.time + 10n });
      const survivor = h.tx({ priority: 20n, payer: PAYERS[1] });
      for (const tx of [mined, rival, expiring, survivor]) expect(await send(tx)).toEqual({ outcome: 'accepted' });
      const block = h.mine([mined], { timestamp: h.time + 10n, extraNullifiers: [902n] });
      const m = check();
      expect(hashes(m.pendingTxs(10))).toEqual(hashes([survivor]));
      expect(m.txReceipt(mined.txHash).toJSON()).toEqual({
        txHash: mined.txHash.toString(),
        status: 'proposed',
        executionResult: 'success',
        transactionFee: '1000',
        blockHash: block.hash().toString(),
        blockNumber: 1,
        epochNumber: 0,
      });
      expect(m.txByHash(mined.txHash)?.txHash.toString()).toBe(mined.txHash.toString());
      expect(m.txReceipt(rival.txHash).toJSON()).toMatchObject({ status: 'dropped', dropReason: 'nullifier_spent' });
      expect(m.txReceipt(expiring.txHash).toJSON()).toMatchObject({ status: 'dropped', dropReason: 'expired' });
    });

    it("evicts a fee payer's txs its balance no longer covers after a block", async () => {
      const a = h.tx({ payer: POOR_PAYER, priority: 300n });
      const b = h.tx({ payer: POOR_PAYER, priority: 200n });
      await send(a);
      await send(b);
      const other = h.tx({ payer: POOR_PAYER, priority: 1n, nullifiers: [4242n] });
      // Mined elsewhere (never in this pool): it charges the payer 10, and b no longer fits.
      h.mine([other], { fee: 10n });
      const m = check();
      expect(hashes(m.pendingTxs(10))).toEqual(hashes([a]));
      expect(m.txReceipt(b.txHash).toJSON()).toMatchObject({ status: 'dropped', dropReason: 'insufficient_balance' });
    });

    it("takes an unwound block's txs back to pending, and drops txs anchored to it", async () => {
      const mined = h.tx({ priority: 70n });
      await send(mined);
      const block = h.mine([mined]);
      const anchored = h.tx({ priority: 10n, payer: PAYERS[2] });
      expect(await send(anchored)).toEqual({ outcome: 'accepted' });
      h.db.transaction(() => {
        h.ws.unwindBlocks(0);
        h.mempool.onBlocksUnwound(0, [block]);
      })();
      h.latestHeader = undefined;
      const m = check();
      expect(hashes(m.pendingTxs(10))).toEqual(hashes([mined]));
      expect(m.txReceipt(mined.txHash).toJSON()).toEqual({ txHash: mined.txHash.toString(), status: 'pending' });
      expect(m.txReceipt(anchored.txHash).toJSON()).toMatchObject({ status: 'dropped', dropReason: 'anchor_reorged' });
    });

    it('keeps the pool as it was when the block transaction rolls back', async () => {
      const tx = h.tx({ priority: 9n });
      await send(tx);
      expect(() =>
        h.db.transaction(() => {
          h.mine([tx]);
          throw new Error('the chain store failed after the mempool ran');
        })(),
      ).toThrow(/chain store failed/);
      const m = check();
      expect(m.pendingTxCount()).toBe(1);
      expect(m.txReceipt(tx.txHash).toJSON()).toEqual({ txHash: tx.txHash.toString(), status: 'pending' });
    });

    it('feeds the sequencer in priority order and drops what failed in block building', async () => {
      const txs = [3n, 1n, 2n].map((priority) => h.tx({ priority }));
      for (const tx of txs) await send(tx);
      const m = check();
      expect(hashes([...m.pendingTxsByPriority()])).toEqual(hashes(byPriority(txs)));
      m.dropTx(txs[0]?.txHash as TxHash, 'fee payer could not pay');
      expect(
        check()
          .txReceipt(txs[0]?.txHash as TxHash)
          .toJSON(),
      ).toEqual({
        txHash: txs[0]?.txHash.toString(),
        status: 'dropped',
        error: 'Tx dropped by P2P node: fee payer could not pay',
        dropReason: 'block_building_failed',
        dropDetail: 'fee payer could not pay',
      });
    });

    it('answers dropped with reason unknown for a hash it never saw', async () => {
      expect(check().txReceipt(new TxHash(1n)).toJSON()).toEqual({
        txHash: new TxHash(1n).toString(),
        status: 'dropped',
        error: 'Tx dropped by P2P node',
        dropReason: 'unknown',
      });
    });
  });
}
