// The follower's L1 check fails with these; the sync tells them apart without loading the check itself (and the
// L1 stack it brings), which a follower without an L1 never loads.

/** The upstream served a checkpoint the rollup does not hold (yet): it is not recorded, the sync waits for L1. */
export class CheckpointNotOnL1Error extends Error {
  override name = 'CheckpointNotOnL1Error';
}

/** The follower's L1 did not answer a read of the rollup: the sync waits for it (the upstream is not at fault). */
export class L1ReadError extends Error {
  override name = 'L1ReadError';
}
