import { Fr } from '../../core/fr.js';
import { BitVector, type BlockTxsRequest, type BlockTxsResponse } from '../../core/p2p/reqresp-payloads.js';
import type { Tx } from '../../core/tx/tx.js';
import type { TxHash } from '../../core/tx-hash.js';

/** Where a `block_txs` answer is read from: the blocks by archive root, and the pool (which keeps mined txs a while). */
export interface BlockTxsSource {
  /** The tx hashes of the block whose archive root is `root`, undefined when the node has no such block. */
  readonly blockTxHashes: (root: Fr) => readonly TxHash[] | undefined;
  readonly txsByHash: (hashes: readonly TxHash[]) => Tx[];
}

/**
 * The answer to a `block_txs` request, as 4.1.2 gives it (reqRespBlockTxsHandler): for a block the node has,
 * which of its txs the pool holds (the bit vector) and those of them asked for; for one it does not have but
 * whose tx hashes the request names, the pool's txs of those hashes under a zero archive root and an empty bit
 * vector; undefined (NOT_FOUND) otherwise.
 */
export function answerBlockTxs(req: BlockTxsRequest, source: BlockTxsSource): BlockTxsResponse | undefined {
  const hashes = source.blockTxHashes(req.archiveRoot);
  if (!hashes) {
    if (req.txHashes.length === 0) return undefined;
    return { archiveRoot: Fr.ZERO, txs: source.txsByHash(req.txHashes), txIndices: BitVector.of(0, []) };
  }
  const held = new Set(source.txsByHash(hashes).map((tx) => tx.txHash.toString()));
  const available = hashes.flatMap((h, i) => (held.has(h.toString()) ? [i] : []));
  const asked = new Set(req.txIndices.setIndices());
  const wanted = hashes.filter((_, i) => asked.has(i));
  return {
    archiveRoot: req.archiveRoot,
    txs: source.txsByHash(wanted),
    txIndices: BitVector.of(hashes.length, available),
  };
}
