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
 * A stretch of slots with one length and block count, from `fromSlot` (starting at `startTime`, Unix seconds)
 * on. A clock has one era from genesis, and one more each time the timing is changed at runtime.
 */
export interface SlotEra {
  readonly fromSlot: number;
  readonly startTime: number;
  readonly slotDuration: number;
  readonly blocksPerSlot: number;
}

/** A change of slot timing (nodeAdmin_setConfig slotDuration / blocksPerSlot). */
export interface SlotRetiming {
  readonly slotDuration?: number;
  readonly blocksPerSlot?: number;
}

/**
 * L2 time on top of the node's one clock: slots of `slotDuration` seconds from `genesisTime`, each split into
 * `blocksPerSlot` block intervals, grouped into epochs. Every block of a slot carries the slot's start time
 * as its timestamp (4.1.2: the blocks of a checkpoint share one timestamp).
 *
 * The timing can change while the node runs (`retime`): the new timing applies from the next slot, which
 * starts where the old timing ends the current one, so slot numbers and timestamps keep increasing and the
 * slot being built is never cut short.
 */
export class SlotClock {
  private eras: SlotEra[] = [];
  /** How far L2 time is ahead of the node's clock (ms; negative: behind), moved by the dev chain's time warps. */
  #warpMs = 0;

  /**
   * `era` resumes a timing recorded earlier (see `latestEra`); without it slots run uniformly from genesis.
   * `warpMs` resumes a recorded time warp (see `warpMs`).
   */
  constructor(
    readonly clock: Clock,
    private readonly base: SlotTiming,
    era?: SlotEra,
    warpMs = 0,
  ) {
    const { slotDuration, blocksPerSlot, epochDuration } = base;
    checkPositive({ slotDuration, blocksPerSlot, epochDuration });
    this.resume(era, warpMs);
  }

  /** Takes up a recorded timing and warp again (at start, and when the dev chain reverts to a snapshot). */
  resume(era: SlotEra | undefined, warpMs: number): void {
    const { genesisTime, slotDuration, blocksPerSlot } = this.base;
    this.eras = [{ fromSlot: 0, startTime: genesisTime, slotDuration, blocksPerSlot }];
    if (era && era.fromSlot > 0) {
      checkPositive({ slotDuration: era.slotDuration, blocksPerSlot: era.blocksPerSlot });
      this.eras.push(era);
    }
    this.#warpMs = warpMs;
  }

  /** L2 time now (ms since the Unix epoch): the node's clock moved by the time warps. Slots and L1 read it. */
  now(): number {
    return this.clock.now() + this.#warpMs;
  }

  /** The time warp (ms), to be recorded so a restart keeps L2 time where the warps put it. */
  get warpMs(): number {
    return this.#warpMs;
  }

  /** Moves L2 time by `ms` (nodeDev_increaseTime); slots keep their length, so the current slot moves with it. */
  warpBy(ms: number): void {
    this.#warpMs += ms;
  }

  /**
   * Starts slot `fromSlot` at `seconds` and sets L2 time to that instant (nodeDev_setNextBlockTimestamp): the
   * next checkpoint, in that slot, carries exactly that timestamp, and time runs on from it. Slots after
   * `fromSlot` keep the current length. The caller checks that no block is in or after `fromSlot`.
   */
  warpTo(seconds: number, fromSlot: number): void {
    const { slotDuration, blocksPerSlot } = this.eraOfSlot(fromSlot);
    while (this.eras.length > 1 && this.latestEra.fromSlot >= fromSlot) this.eras.pop();
    this.eras.push({ fromSlot, startTime: seconds, slotDuration, blocksPerSlot });
    this.#warpMs = seconds * 1000 - this.clock.now();
  }

  /** The timing of the current slot. */
  get timing(): SlotTiming {
    const era = this.eraOfSlot(this.currentSlot());
    return {
      genesisTime: this.base.genesisTime,
      slotDuration: era.slotDuration,
      blocksPerSlot: era.blocksPerSlot,
      epochDuration: this.base.epochDuration,
    };
  }

  /** The era the latest slots are in (to be recorded, so a restart keeps slot numbers increasing). */
  get latestEra(): SlotEra {
    return this.eras[this.eras.length - 1] as SlotEra;
  }

  /**
   * Changes the slot duration and/or blocks per slot from the next slot on; returns that slot. A second change
   * before it starts replaces the first.
   */
  retime(change: SlotRetiming): number {
    const current = this.currentSlot();
    const now = this.eraOfSlot(current);
    const slotDuration = change.slotDuration ?? now.slotDuration;
    const blocksPerSlot = change.blocksPerSlot ?? now.blocksPerSlot;
    checkPositive({ slotDuration, blocksPerSlot });
    const fromSlot = current + 1;
    const startTime = this.slotStartMs(fromSlot) / 1000;
    while (this.eras.length > 1 && this.latestEra.fromSlot >= fromSlot) this.eras.pop();
    const last = this.latestEra;
    if (last.slotDuration !== slotDuration || last.blocksPerSlot !== blocksPerSlot) {
      this.eras.push({ fromSlot, startTime, slotDuration, blocksPerSlot });
    }
    return fromSlot;
  }

  /** The slot at a time (ms); negative before genesis. */
  slotAt(ms: number): number {
    const era = this.eraAtTime(ms);
    return era.fromSlot + Math.floor((ms / 1000 - era.startTime) / era.slotDuration);
  }

  currentSlot(): number {
    return this.slotAt(this.now());
  }

  /** Start of a slot, ms. */
  slotStartMs(slot: number): number {
    const era = this.eraOfSlot(slot);
    return (era.startTime + (slot - era.fromSlot) * era.slotDuration) * 1000;
  }

  /** The timestamp (seconds) blocks of a slot carry. */
  slotTimestamp(slot: number): bigint {
    return BigInt(this.slotStartMs(slot) / 1000);
  }

  /** Blocks built in a slot. */
  blocksPerSlotAt(slot: number): number {
    return this.eraOfSlot(slot).blocksPerSlot;
  }

  /** Length of one block interval of the current slot, ms. */
  get blockIntervalMs(): number {
    return this.blockIntervalMsOf(this.currentSlot());
  }

  /** Start of block interval k (0-based) of a slot, ms. */
  blockStartMs(slot: number, k: number): number {
    return this.slotStartMs(slot) + k * this.blockIntervalMsOf(slot);
  }

  /** The block interval (0-based) a time falls in within its slot. */
  blockIndexAt(ms: number): number {
    const slot = this.slotAt(ms);
    return Math.min(
      this.blocksPerSlotAt(slot) - 1,
      Math.floor((ms - this.slotStartMs(slot)) / this.blockIntervalMsOf(slot)),
    );
  }

  epochOf(slot: number): number {
    return Math.floor(slot / this.base.epochDuration);
  }

  /** End of an epoch (the start of the next epoch's first slot), seconds. */
  epochEndTime(epoch: number): number {
    return this.slotStartMs((epoch + 1) * this.base.epochDuration) / 1000;
  }

  private blockIntervalMsOf(slot: number): number {
    const era = this.eraOfSlot(slot);
    return (era.slotDuration * 1000) / era.blocksPerSlot;
  }

  private eraOfSlot(slot: number): SlotEra {
    for (let i = this.eras.length - 1; i > 0; i--) {
      const era = this.eras[i] as SlotEra;
      if (slot >= era.fromSlot) return era;
    }
    return this.eras[0] as SlotEra;
  }

  private eraAtTime(ms: number): SlotEra {
    for (let i = this.eras.length - 1; i > 0; i--) {
      const era = this.eras[i] as SlotEra;
      if (ms >= era.startTime * 1000) return era;
    }
    return this.eras[0] as SlotEra;
  }
}

function checkPositive(values: Record<string, number>): void {
  for (const [k, v] of Object.entries(values)) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be a positive integer, got ${v}`);
  }
}
