/** A checkpoint as the prover picks it: its number and slot. */
export interface CheckpointSlot {
  readonly number: number;
  readonly slot: number;
}

/** What the node knows when it looks for the next epoch to prove. */
export interface EpochProofView {
  /** The rollup's proven checkpoint. */
  readonly proven: number;
  /** The rollup's pending (proposed) checkpoint. */
  readonly l1Pending: number;
  /** The node's recorded checkpoint `n`, if it holds it. */
  readonly checkpoint: (n: number) => CheckpointSlot | undefined;
  /** The node's recorded checkpoints of `epoch`, in order. */
  readonly checkpointsOfEpoch: (epoch: number) => readonly CheckpointSlot[];
  readonly epochOf: (slot: number) => number;
  /** The slot of this node's proposal still on its way to L1, if any. */
  readonly proposingSlot: number | undefined;
}

/** The checkpoints one epoch root proof covers. */
export interface EpochProofRange {
  readonly epoch: number;
  readonly start: number;
  readonly end: number;
}

/**
 * Which checkpoints the next proof covers: the epoch of the oldest unproven checkpoint, from its first checkpoint
 * (the rollup takes a proof only from an epoch's first one, so an epoch a proof covered in part is covered again)
 * to the last one L1 holds. Undefined while nothing is to prove, or while the epoch's set may still grow: this
 * node's proposal of that epoch is on its way (it may land before the epoch ends, unrecorded yet), or L1 holds a
 * later checkpoint the node has not recorded (it may be the epoch's). Whether the epoch has ended is the caller's.
 */
export function nextEpochProofRange(v: EpochProofView): EpochProofRange | undefined {
  const first = v.checkpoint(v.proven + 1);
  if (!first || first.number > v.l1Pending) return undefined;
  const epoch = v.epochOf(first.slot);
  if (v.proposingSlot !== undefined && v.epochOf(v.proposingSlot) === epoch) return undefined;
  const rows = v.checkpointsOfEpoch(epoch).filter((r) => r.number <= v.l1Pending);
  const start = rows[0];
  const last = rows.at(-1);
  if (!start || !last || last.number <= v.proven) return undefined;
  if (last.number < v.l1Pending && !v.checkpoint(last.number + 1)) return undefined;
  return { epoch, start: start.number, end: last.number };
}
