import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/daemon/lifecycle/manual-clock.js';
import { SlotClock } from '../../../../src/daemon/sequencer/slot-clock.js';

const GENESIS = 1_000_000;

function clockAt(seconds: number): ManualClock {
  return new ManualClock(seconds * 1000);
}

describe('SlotClock retiming (nodeAdmin_setConfig slotDuration / blocksPerSlot)', () => {
  it('applies a new slot duration from the next slot: numbers and timestamps keep increasing', () => {
    const clock = clockAt(GENESIS + 4 * 10 + 1); // inside slot 10 of 4 s slots
    const slots = new SlotClock(clock, { genesisTime: GENESIS, slotDuration: 4, blocksPerSlot: 2, epochDuration: 4 });
    expect(slots.currentSlot()).toBe(10);
    expect(slots.retime({ slotDuration: 1 })).toBe(11);
    // The current slot keeps its length.
    expect(slots.timing.slotDuration).toBe(4);
    expect(slots.slotStartMs(11)).toBe((GENESIS + 44) * 1000);
    clock.advanceTo((GENESIS + 44) * 1000);
    expect(slots.currentSlot()).toBe(11);
    expect(slots.timing.slotDuration).toBe(1);
    clock.advance(3_500);
    expect(slots.currentSlot()).toBe(14);
    expect(slots.slotTimestamp(14)).toBe(BigInt(GENESIS + 47));
    // Slots before the change keep their times.
    expect(slots.slotTimestamp(5)).toBe(BigInt(GENESIS + 20));
  });

  it('changes the blocks per slot (and so the block interval) from the next slot', () => {
    const clock = clockAt(GENESIS + 8);
    const slots = new SlotClock(clock, { genesisTime: GENESIS, slotDuration: 4, blocksPerSlot: 2, epochDuration: 4 });
    slots.retime({ blocksPerSlot: 4 });
    expect(slots.blocksPerSlotAt(2)).toBe(2);
    expect(slots.blocksPerSlotAt(3)).toBe(4);
    expect(slots.blockStartMs(3, 1)).toBe((GENESIS + 12) * 1000 + 1000);
    expect(slots.blockIndexAt((GENESIS + 12) * 1000 + 2500)).toBe(2);
  });

  it('a second change before the next slot replaces the first; resuming a recorded era keeps the numbering', () => {
    const clock = clockAt(GENESIS + 8);
    const slots = new SlotClock(clock, { genesisTime: GENESIS, slotDuration: 4, blocksPerSlot: 2, epochDuration: 4 });
    slots.retime({ slotDuration: 1 });
    slots.retime({ slotDuration: 2 });
    expect(slots.latestEra).toEqual({ fromSlot: 3, startTime: GENESIS + 12, slotDuration: 2, blocksPerSlot: 2 });
    clock.advanceTo((GENESIS + 100) * 1000);
    const resumed = new SlotClock(
      clock,
      { genesisTime: GENESIS, slotDuration: 4, blocksPerSlot: 2, epochDuration: 4 },
      slots.latestEra,
    );
    expect(resumed.currentSlot()).toBe(slots.currentSlot());
    expect(() => slots.retime({ slotDuration: 0 })).toThrow(/slotDuration must be a positive integer/);
  });
});
