/**
 * Which checkpoints the node's next epoch root proof covers, against the rollup's rules (EpochProofLib 4.1.2: the
 * start is the epoch's first checkpoint and builds on the proven one; start and end share an epoch).
 */
import { describe, expect, it } from 'vitest';
import { type CheckpointSlot, nextEpochProofRange } from '../../../../src/daemon/l1/epoch-proof-range.js';

const EPOCH_SLOTS = 4;

/** A view of `checkpoints` (number -> slot) with the rollup at `proven`/`l1Pending`. */
function view(checkpoints: Record<number, number>, proven: number, l1Pending: number, proposingSlot?: number) {
  const rows: CheckpointSlot[] = Object.entries(checkpoints).map(([n, slot]) => ({ number: Number(n), slot }));
  const epochOf = (slot: number) => Math.floor(slot / EPOCH_SLOTS);
  return {
    proven,
    l1Pending,
    checkpoint: (n: number) => rows.find((r) => r.number === n),
    checkpointsOfEpoch: (epoch: number) => rows.filter((r) => epochOf(r.slot) === epoch),
    epochOf,
    proposingSlot,
  };
}

describe('nextEpochProofRange', () => {
  it("covers the oldest unproven epoch's checkpoints that L1 holds", () => {
    // Epoch 1 (slots 4-7) holds checkpoints 1 and 2, epoch 2 checkpoint 3.
    expect(nextEpochProofRange(view({ 1: 5, 2: 7, 3: 9 }, 0, 3))).toEqual({ epoch: 1, start: 1, end: 2 });
    expect(nextEpochProofRange(view({ 1: 5, 2: 7, 3: 9 }, 2, 3))).toEqual({ epoch: 2, start: 3, end: 3 });
  });

  it('covers an epoch a proof covered in part again, from its first checkpoint', () => {
    // Checkpoint 2 was proven alone; checkpoint 3 is of the same epoch (slots 20-23).
    expect(nextEpochProofRange(view({ 1: 17, 2: 20, 3: 23 }, 2, 3))).toEqual({ epoch: 5, start: 2, end: 3 });
  });

  it("waits while this node's proposal of the epoch is on its way", () => {
    expect(nextEpochProofRange(view({ 1: 20 }, 0, 1, 23))).toBeUndefined();
    // A proposal of a later epoch does not hold it.
    expect(nextEpochProofRange(view({ 1: 20 }, 0, 1, 24))).toEqual({ epoch: 5, start: 1, end: 1 });
  });

  it('waits while L1 holds a later checkpoint the node has not recorded', () => {
    expect(nextEpochProofRange(view({ 1: 20 }, 0, 2))).toBeUndefined();
    expect(nextEpochProofRange(view({ 1: 20, 2: 25 }, 0, 2))).toEqual({ epoch: 5, start: 1, end: 1 });
  });

  it('has nothing to prove when all is proven or the next checkpoint is not on L1', () => {
    expect(nextEpochProofRange(view({ 1: 20, 2: 21 }, 2, 2))).toBeUndefined();
    expect(nextEpochProofRange(view({ 1: 20, 2: 21 }, 0, 0))).toBeUndefined();
    // Only checkpoints L1 holds are covered.
    expect(nextEpochProofRange(view({ 1: 20, 2: 21 }, 0, 1))).toEqual({ epoch: 5, start: 1, end: 1 });
  });
});
