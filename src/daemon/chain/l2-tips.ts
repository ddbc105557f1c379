/** A block by number and hash (hash as 0x + 64 hex). */
export interface BlockId {
  readonly number: number;
  readonly hash: string;
}

/** A checkpoint by number and header hash. */
export interface CheckpointId {
  readonly number: number;
  readonly hash: string;
}

/** A tip that lies on a checkpoint: its last block and the checkpoint. */
export interface CheckpointedTip {
  readonly block: BlockId;
  readonly checkpoint: CheckpointId;
}

/**
 * The chain tips in the v4 shape of spec part 2 (4.1.2 L2Tips): proposed blocks (built, not yet on L1), the
 * last checkpoint on L1, the last proven one, and the last proven one as of L1's finalized block.
 */
export interface L2Tips {
  readonly proposed: BlockId;
  readonly checkpointed: CheckpointedTip;
  readonly proven: CheckpointedTip;
  readonly finalized: CheckpointedTip;
}
