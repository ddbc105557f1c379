import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { TipsPanel } from '../../src/ui/tips-panel.js';
import { plain } from '../helpers/ink-frames.js';
import { tipsAt } from '../helpers/stream-fixtures.js';

describe('TipsPanel', () => {
  it('lists the four tips with the proposed hash shortened and the distance to finality', () => {
    const text = plain(render(<TipsPanel tips={tipsAt(1234, 1200, 1100, 1000)} />).lastFrame());
    expect(text).toMatch(/proposed\s+1,234\s+0x000000…0004d2/);
    expect(text).toMatch(/checkpointed\s+1,200\s+checkpoint 1200/);
    expect(text).toMatch(/proven\s+1,100\s+checkpoint 1100/);
    expect(text).toMatch(/finalized\s+1,000\s+checkpoint 1000/);
    expect(text).toContain('234 blocks not final yet');
  });

  it('shows how far a follower is behind its upstream', () => {
    const sync = {
      state: 'syncing',
      upstream: 'http://leader:8080',
      blockNumber: 50,
      targetBlockNumber: 80,
      behind: 30,
    };
    const text = plain(render(<TipsPanel tips={tipsAt(50, 48, 40, 30)} sync={sync} />).lastFrame());
    expect(text).toContain('30 behind upstream · 20 not final');
  });

  it('shows -- before the first snapshot', () => {
    expect(plain(render(<TipsPanel tips={undefined} />).lastFrame())).toMatch(/L2 tips[\s│]+--/);
  });
});
