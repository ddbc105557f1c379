import { describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { Fr } from '../../../../src/core/fr.js';
import { BitVector, type BlockTxsResponse } from '../../../../src/core/p2p/reqresp-payloads.js';
import type { Tx } from '../../../../src/core/tx/tx.js';
import { TxBuilder } from '../../../../src/core/tx/tx-builder.js';
import type { TxHash } from '../../../../src/core/tx-hash.js';
import { answerBlockTxs } from '../../../../src/daemon/p2p/block-txs-answer.js';
import { checkBlockTxsResponse } from '../../../../src/daemon/p2p/block-txs-check.js';

/** block_txs as 4.1.2 answers and checks it: the answer from a block and a pool, the checks of an answer. */
const builder = new TxBuilder({
  chainId: 31337n,
  rollupVersion: 1n,
  vkTreeRoot: new Fr(77n),
  protocolContractsHash: new Fr(88n),
  anchorBlockHeader: BlockHeader.empty(),
});
const txs = [1n, 2n, 3n, 4n].map((n) =>
  builder.build({ feePayer: new AztecAddress(0xfeen), txRequestHash: new Fr(n) }),
);
const hashes = txs.map((t) => t.txHash);
const ROOT = new Fr(0xabcn);

/** A block of the four txs, of which the pool holds `held`. */
function source(held: readonly Tx[]) {
  return {
    blockTxHashes: (root: Fr) => (root.equals(ROOT) ? hashes : undefined),
    txsByHash: (wanted: readonly TxHash[]) => held.filter((t) => wanted.some((h) => h.equals(t.txHash))),
  };
}

describe('answerBlockTxs', () => {
  it('answers the held txs of the indices asked for, and which of the block it holds', () => {
    const req = { archiveRoot: ROOT, txHashes: [], txIndices: BitVector.of(4, [0, 1, 3]) };
    const res = answerBlockTxs(req, source([txs[1], txs[2], txs[3]] as Tx[])) as BlockTxsResponse;
    expect(res.archiveRoot.equals(ROOT)).toBe(true);
    expect(res.txs.map((t) => t.txHash.toString())).toEqual([hashes[1], hashes[3]].map(String));
    expect(res.txIndices.setIndices()).toEqual([1, 2, 3]);
    expect(checkBlockTxsResponse(req, res, hashes)).toBeUndefined();
  });

  it('for an unknown block answers the pool by the hashes named, and NOT_FOUND without any', () => {
    const named = { archiveRoot: new Fr(9n), txHashes: [hashes[0] as TxHash], txIndices: BitVector.of(0, []) };
    const res = answerBlockTxs(named, source(txs)) as BlockTxsResponse;
    expect(res.archiveRoot.equals(Fr.ZERO)).toBe(true);
    expect(res.txs).toHaveLength(1);
    expect(res.txIndices.length).toBe(0);
    expect(answerBlockTxs({ ...named, txHashes: [] }, source(txs))).toBeUndefined();
  });
});

describe('checkBlockTxsResponse', () => {
  const req = { archiveRoot: ROOT, txHashes: [], txIndices: BitVector.of(4, [0, 2]) };
  const ok: BlockTxsResponse = {
    archiveRoot: ROOT,
    txs: [txs[0], txs[2]] as Tx[],
    txIndices: BitVector.of(4, [0, 1, 2]),
  };

  it('names what is wrong with an answer', () => {
    expect(checkBlockTxsResponse(req, ok, hashes)).toBeUndefined();
    expect(checkBlockTxsResponse(req, { ...ok, archiveRoot: new Fr(1n) }, hashes)).toMatch(/archive root/);
    expect(checkBlockTxsResponse(req, { ...ok, txIndices: BitVector.of(5, [0, 2]) }, hashes)).toMatch(/5 bits/);
    expect(checkBlockTxsResponse(req, { ...ok, txs: [txs[0], txs[0]] as Tx[] }, hashes)).toMatch(/twice/);
    // Index 1 was not asked for.
    expect(checkBlockTxsResponse(req, { ...ok, txs: [txs[1]] as Tx[] }, hashes)).toMatch(/not one asked for/);
    // Index 2 asked for, but the answer says it does not hold it.
    const notHeld = { ...ok, txs: [txs[2]] as Tx[], txIndices: BitVector.of(4, [0]) };
    expect(checkBlockTxsResponse(req, notHeld, hashes)).toMatch(/not one asked for|more than/);
    expect(checkBlockTxsResponse(req, { ...ok, txs: [txs[2], txs[0]] as Tx[] }, hashes)).toMatch(/order/);
  });
});
