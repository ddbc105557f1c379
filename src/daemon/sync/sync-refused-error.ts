/**
 * Something the upstream served that does not verify (a block whose roots, sponge, archive or position are
 * not what its header claims, a checkpoint that does not cover this node's blocks): refused, nothing of it is
 * stored, and the sync waits on that upstream until it serves something that verifies.
 */
export class SyncRefusedError extends Error {
  override name = 'SyncRefusedError';

  constructor(
    /** What was refused: "block 12", "checkpoint 5". */
    readonly subject: string,
    /** The block the chain could not move past (the refused block, or the first block of the checkpoint). */
    readonly blockNumber: number,
    readonly reason: string,
  ) {
    super(`${subject}: ${reason}`);
  }
}
