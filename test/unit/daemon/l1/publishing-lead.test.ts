import { describe, expect, it } from 'vitest';
import { PublishingLead } from '../../../../src/daemon/l1/publishing-lead.js';

describe('PublishingLead', () => {
  it('stays at its floor while proposals land quickly', () => {
    const lead = new PublishingLead(2_000);
    expect(lead.leadMs(4_000)).toBe(2_000);
    lead.record(800);
    lead.record(1_200);
    expect(lead.leadMs(4_000)).toBe(2_000);
  });

  it('sends earlier after a slow proposal, never later than a quarter into the slot, and decays back', () => {
    const lead = new PublishingLead(2_000, 3);
    lead.record(1_800);
    expect(lead.leadMs(4_000)).toBe(2_700);
    expect(lead.leadMs(36_000)).toBe(2_700);
    lead.record(5_000);
    expect(lead.leadMs(4_000)).toBe(3_000);
    expect(lead.leadMs(36_000)).toBe(7_500);
    for (let i = 0; i < 3; i++) lead.record(500);
    expect(lead.leadMs(4_000)).toBe(2_000);
  });

  it('keeps its floor on a slot shorter than it', () => {
    const lead = new PublishingLead(2_000);
    lead.record(10_000);
    expect(lead.leadMs(2_000)).toBe(2_000);
  });
});
