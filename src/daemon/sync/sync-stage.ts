/**
 * One stage of following an upstream, as in reth's pipeline: it moves the chain forward, and it knows what to
 * undo when the chain goes back. The chain's own rows go back in chain.unwindTo; a stage's unwind forgets
 * what it keeps in memory about the blocks above the new tip (a batch fetched ahead, a checkpoint's sponge,
 * the rate samples).
 */
export interface SyncStage {
  /** The chain was unwound to `blockNumber`. */
  unwind(blockNumber: number): void;
}
