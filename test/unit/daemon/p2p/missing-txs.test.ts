import { describe, expect, it } from 'vitest';
import type { Tx } from '../../../../src/core/tx/tx.js';
import type { TxHash } from '../../../../src/core/tx-hash.js';
import { BLOCK_TXS_PER_REQUEST, fetchMissingTxs } from '../../../../src/daemon/p2p/missing-txs.js';

/** Stand-ins: fetchMissingTxs reads a tx's hash only. */
const hash = (i: number) => ({ toString: () => `0x${i.toString(16).padStart(64, '0')}` }) as unknown as TxHash;
const tx = (i: number) => ({ txHash: hash(i) }) as unknown as Tx;
const HASHES = Array.from({ length: 40 }, (_, i) => hash(i));
const never = () => new Promise<Tx[]>(() => undefined);

describe('fetching a proposal’s missing txs from peers', () => {
  it('asks the sending peer by index, 16 at a time, then any peer by hash for the rest', async () => {
    const asked: number[][] = [];
    const byHash: string[][] = [];
    const missing = Array.from({ length: 36 }, (_, i) => i + 4);
    const found = await fetchMissingTxs(
      HASHES,
      missing,
      {
        // The sender holds all but tx 39.
        blockTxs: async (indices) => {
          asked.push([...indices]);
          return indices.filter((i) => i !== 39).map(tx);
        },
        byHash: async (hashes) => {
          byHash.push(hashes.map(String));
          return hashes.map((h) => tx(HASHES.findIndex((x) => String(x) === String(h))));
        },
      },
      5_000,
    );
    expect(asked.map((a) => a.length)).toEqual([BLOCK_TXS_PER_REQUEST, BLOCK_TXS_PER_REQUEST, 4]);
    expect(byHash).toEqual([[String(hash(39))]]);
    expect([...found.keys()].sort()).toEqual(missing.map((i) => String(hash(i))).sort());
  });

  it('gives up after its time with what arrived when peers do not answer', async () => {
    const started = Date.now();
    const found = await fetchMissingTxs(HASHES, [1, 2, 3], { blockTxs: async () => [tx(1)], byHash: never }, 200);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect([...found.keys()]).toEqual([String(hash(1))]);
  });

  it('asks by hash alone when no peer sent the proposal, and a failing request passes to the next source', async () => {
    const found = await fetchMissingTxs(HASHES, [5], { byHash: async () => [tx(5)] }, 1_000);
    expect([...found.keys()]).toEqual([String(hash(5))]);
    const failed = await fetchMissingTxs(
      HASHES,
      [5],
      { blockTxs: () => Promise.reject(new Error('stream reset')), byHash: async () => [tx(5)] },
      1_000,
    );
    expect([...failed.keys()]).toEqual([String(hash(5))]);
  });
});
