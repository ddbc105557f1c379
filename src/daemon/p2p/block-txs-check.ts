import type { BlockTxsRequest, BlockTxsResponse } from '../../core/p2p/reqresp-payloads.js';
import type { TxHash } from '../../core/tx-hash.js';

/**
 * Checks a `block_txs` answer as 4.1.2 checks one (validateRequestedBlockTxs): the same archive root and bit
 * vector length as asked, no tx twice, no more txs than were both asked for and said available, and every tx
 * at one of those indices of the proposal, in increasing order. Returns what is wrong, undefined when nothing.
 */
export function checkBlockTxsResponse(
  request: BlockTxsRequest,
  response: BlockTxsResponse,
  proposalTxHashes: readonly TxHash[],
): string | undefined {
  if (!response.archiveRoot.equals(request.archiveRoot)) {
    return `is for archive root ${response.archiveRoot}, not ${request.archiveRoot}`;
  }
  if (response.txIndices.length !== request.txIndices.length) {
    return `has a bit vector of ${response.txIndices.length} bits, not ${request.txIndices.length}`;
  }
  const allowed = new Set(request.txIndices.setIndices().filter((i) => response.txIndices.isSet(i)));
  const hashes = response.txs.map((tx) => tx.txHash.toString());
  if (new Set(hashes).size !== hashes.length) return 'holds a tx twice';
  if (hashes.length > allowed.size) {
    return `holds ${hashes.length} txs, more than the ${allowed.size} asked for and available`;
  }
  const indexOf = new Map(proposalTxHashes.map((h, i) => [h.toString(), i]));
  let last = -1;
  for (const h of hashes) {
    const i = indexOf.get(h);
    if (i === undefined || !allowed.has(i)) return `holds tx ${h}, which is not one asked for`;
    if (i <= last) return 'holds its txs out of the proposal order';
    last = i;
  }
  return undefined;
}
