import type { Clock } from '../lifecycle/clock.js';

export interface SlotTiming {
  /** Unix time (seconds) at which slot 0 starts. */
  readonly genesisTime: number;
  /** Seconds per slot. */
  readonly slotDuration: number;
  /** Blocks built per slot (the slot's checkpoint holds at most this many). */
  readonly blocksPerSlot: number;
  /** Slots per epoch (proofs cover whole epochs). */
  readonly epochDuration: number;
}

/**
 * L2 time on top of the node's one clock: slots of `slotDuration` seconds from `genesisTime`, each split into
 * `blocksPerSlot` block intervals, grouped into epochs. Every block of a slot carries the slot's start time
 * as its timestamp (4.1.2: the blocks of a checkpoint share one timestamp).
 */
export class SlotClock {
  constructor(
    readonly clock: Clock,
    readonly timing: SlotTiming,
  ) {
    const { slotDuration, blocksPerSlot, epochDuration } = timing;
    for (const [k, v] of [
      ['slotDuration', slotDuration],
      ['blocksPerSlot', blocksPerSlot],
      ['epochDuration', epochDuration],
    ] as const) {
      if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be a positive integer, got ${v}`);
    }
  }

  /** The slot at a time (ms); negative before genesis. */
  slotAt(ms: number): number {
    return Math.floor((ms / 1000 - this.timing.genesisTime) / this.timing.slotDuration);
  }

  currentSlot(): number {
    return this.slotAt(this.clock.now());
  }

  /** Start of a slot, ms. */
  slotStartMs(slot: number): number {
    return (this.timing.genesisTime + slot * this.timing.slotDuration) * 1000;
  }

  /** The timestamp (seconds) blocks of a slot carry. */
  slotTimestamp(slot: number): bigint {
    return BigInt(this.timing.genesisTime + slot * this.timing.slotDuration);
  }

  /** Length of one block interval, ms. */
  get blockIntervalMs(): number {
    return (this.timing.slotDuration * 1000) / this.timing.blocksPerSlot;
  }

  /** Start of block interval k (0-based) of a slot, ms. */
  blockStartMs(slot: number, k: number): number {
    return this.slotStartMs(slot) + k * this.blockIntervalMs;
  }

  /** The block interval (0-based) a time falls in within its slot. */
  blockIndexAt(ms: number): number {
    const slot = this.slotAt(ms);
    return Math.min(this.timing.blocksPerSlot - 1, Math.floor((ms - this.slotStartMs(slot)) / this.blockIntervalMs));
  }

  epochOf(slot: number): number {
    return Math.floor(slot / this.timing.epochDuration);
  }

  /** End of an epoch (the start of the next epoch's first slot), seconds. */
  epochEndTime(epoch: number): number {
    return this.timing.genesisTime + (epoch + 1) * this.timing.epochDuration * this.timing.slotDuration;
  }
}
