/** The node's own last epoch proof on L1: the checkpoint it proved up to and the L1 block it landed in. */
export interface LandedProof {
  readonly toCheckpoint: number;
  readonly l1Block: bigint;
}

/**
 * The proven checkpoint after reading the rollup at L1 block `readAt`: what the rollup said there, unless that
 * read predates the L1 block of the node's own proof (a poll that began while the proof was being mined), which
 * cannot undo it. Without this the proven tip would step back for one poll and the node would submit the same
 * epoch's proof again (the rollup refuses it: Rollup__ProverHaveAlreadySubmitted).
 */
export function provenAfterRead(readAt: bigint, provenOnL1: number, landed: LandedProof | undefined): number {
  return landed !== undefined && readAt < landed.l1Block ? Math.max(provenOnL1, landed.toCheckpoint) : provenOnL1;
}
