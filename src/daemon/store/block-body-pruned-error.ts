/**
 * A read of a block body that block history pruning removed (--block-body-history-blocks): the header, the
 * archive leaf and the tx hashes are still there, the effects and logs are not. The node answers it as
 * BLOCK_NOT_AVAILABLE with `oldestAvailableBlock`, as 4.1.2's world state answers a pruned block.
 */
export class BlockBodyPrunedError extends Error {
  override name = 'BlockBodyPrunedError';

  constructor(
    /** What was asked for: "block 3", "tx 0x12... (block 3)". */
    readonly subject: string,
    readonly blockNumber: number,
    /** The oldest block whose body the node still keeps. */
    readonly oldestAvailableBlock: number,
  ) {
    super(
      `${capitalize(subject)} is older than the oldest available block ${oldestAvailableBlock}: this node prunes ` +
        `block bodies (--block-body-history-blocks) and no longer holds block ${blockNumber}'s tx effects and logs ` +
        '(its header is still served by node_getBlockHeader); ask a node that keeps the whole history',
    );
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
