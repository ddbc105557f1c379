import type { Tx } from '../../core/tx/tx.js';
import type { TxHash } from '../../core/tx-hash.js';

/** Most indices one `block_txs` request asks for (the most a node here answers at once). */
export const BLOCK_TXS_PER_REQUEST = 16;

/** Where a proposal's missing txs can come from. */
export interface MissingTxSources {
  /** `block_txs` from the peer that sent the proposal (it holds the block): the txs at these indices. */
  readonly blockTxs?: (indices: readonly number[]) => Promise<Tx[]>;
  /** `tx` by hash from any peer. */
  readonly byHash: (hashes: readonly TxHash[]) => Promise<Tx[]>;
}

/**
 * The txs of a proposal this node does not hold, asked of its peers: first of the peer that sent the proposal
 * (`block_txs` by the proposal's archive root and indices, 16 at a time), then the rest of any peer by hash
 * (`tx`). Returns what arrived within `timeoutMs`, keyed by tx hash: a proposal waits no longer for its txs,
 * however slow or silent the peers (a request still running then is left to its own timeout, its answer unused).
 */
export async function fetchMissingTxs(
  hashes: readonly TxHash[],
  missing: readonly number[],
  sources: MissingTxSources,
  timeoutMs: number,
): Promise<Map<string, Tx>> {
  const found = new Map<string, Tx>();
  const keep = (txs: readonly Tx[]) => {
    for (const tx of txs) found.set(tx.txHash.toString(), tx);
  };
  const fetch = async () => {
    const { blockTxs } = sources;
    if (blockTxs) {
      for (let i = 0; i < missing.length; i += BLOCK_TXS_PER_REQUEST) {
        // A failed request was logged by the peer and answers nothing: the next source is asked.
        keep(await blockTxs(missing.slice(i, i + BLOCK_TXS_PER_REQUEST)).catch(() => []));
      }
    }
    const rest = missing.flatMap((i) => {
      const h = hashes[i];
      return h && !found.has(h.toString()) ? [h] : [];
    });
    if (rest.length > 0) keep(await sources.byHash(rest).catch(() => []));
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([fetch(), timeout]);
  } finally {
    clearTimeout(timer);
  }
  return new Map(found);
}
