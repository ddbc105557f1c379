/**
 * How long before its slot ends a checkpoint is handed to the L1: at least `floorMs` (what a quiet machine needs),
 * and more when the recent proposals took longer from hand-over (blobs, simulation, sending) to landing. A busy
 * machine (a loaded CI runner, a laptop compiling) otherwise sends every proposal too late for its slot, the
 * rollup refuses each one and the chain stops checkpointing until the load goes away. The lead never takes the
 * whole slot: the slot's first block is built before its checkpoint can go.
 */
export class PublishingLead {
  /** The hand-over-to-landing times of the latest proposals (ms), oldest first. */
  private readonly recent: number[] = [];

  constructor(
    private readonly floorMs: number,
    /** Proposals remembered: one slow proposal raises the lead for this many, then it decays back. */
    private readonly window = 5,
  ) {}

  /** One proposal's time from hand-over to its outcome on L1 (landed, reverted or timed out). */
  record(ms: number): void {
    this.recent.push(ms);
    if (this.recent.length > this.window) this.recent.shift();
  }

  /** The lead for a slot of `slotMs`: half again the slowest recent proposal, within [floor, 3/4 of the slot]. */
  leadMs(slotMs: number): number {
    const wanted = Math.ceil(Math.max(0, ...this.recent) * 1.5);
    const cap = Math.max(this.floorMs, Math.floor(slotMs * 0.75));
    return Math.min(cap, Math.max(this.floorMs, wanted));
  }
}
