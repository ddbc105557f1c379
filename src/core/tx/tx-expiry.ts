/**
 * When a tx has expired: its expiration timestamp is before the timestamp of the block that would include it.
 * Block 1 is exempt (as in Aztec 4.1.2's TimestampTxValidator and rollup circuits): a wallet on a fresh chain
 * anchors its tx to genesis, whose timestamp is 0, so the tx expires at 86399 and could otherwise never be
 * included; such a tx can only land in block 1. The mempool and the block builder both ask this one rule.
 */
export function txExpiredAt(expirationTimestamp: bigint, blockNumber: number, blockTimestamp: bigint): boolean {
  return blockNumber !== 1 && expirationTimestamp < blockTimestamp;
}
