import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ValidatorsPanel } from '../../src/ui/validators-panel.js';
import { plain } from '../helpers/ink-frames.js';
import { sampleSnapshot } from '../helpers/stream-fixtures.js';

describe('ValidatorsPanel', () => {
  it('says how to run a committee when there is none', () => {
    const text = plain(render(<ValidatorsPanel validators={sampleSnapshot().validators} rows={3} />).lastFrame());
    expect(text).toContain('no committee: the sequencer builds every slot');
    expect(text).toContain('--keystore-directory');
  });

  it('sums the misses and lists the latest slots newest first', () => {
    const proposer = `0x${'ab'.repeat(20)}`;
    const validators = {
      enabled: true,
      keys: 2,
      tracked: 3,
      lastProcessedSlot: 41,
      missedProposals: { count: 1, total: 8 },
      missedAttestations: { count: 0, total: 16 },
      recentSlots: [
        { slot: 39, proposer, status: 'checkpoint-mined', attestationsSent: 2, attestationsMissed: 0 },
        { slot: 40, proposer, status: 'blocks-missed', attestationsSent: 0, attestationsMissed: 0 },
        { slot: 41, proposer, status: 'checkpoint-mined', attestationsSent: 1, attestationsMissed: 1 },
      ],
    };
    const text = plain(render(<ValidatorsPanel validators={validators} rows={2} />).lastFrame());
    expect(text).toContain('2 keys here · 3 tracked · last slot 41');
    expect(text).toMatch(/missed proposals\s+1 of 8 \(12\.5%\)/);
    expect(text).toMatch(/missed attestations\s+0 of 16 \(0\.0%\)/);
    const slots = text.split('\n').filter((l) => /slot \d+ 0x/.test(l));
    expect(slots.map((l) => /slot (\d+)/.exec(l)?.[1])).toEqual(['41', '40']);
    expect(text).toContain('slot 41 0xabab…abab checkpoint-mined 1✓ 1✗');
    expect(text).toContain('slot 40 0xabab…abab blocks-missed 0✓ 0✗');
  });
});
