import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { MempoolPanel } from '../../src/ui/mempool-panel.js';
import { plain } from '../helpers/ink-frames.js';

describe('MempoolPanel', () => {
  it('shows pending, and added, dropped and rejected totals with rates and the reasons, most first', () => {
    const pool = {
      pending: 1500,
      added: 12_345,
      dropped: { evicted: 2, replaced: 9, expired: 0 },
      rejected: { LOW_PRIORITY_FEE: 4, NULLIFIER_CONFLICT: 1 },
    };
    const text = plain(render(<MempoolPanel pool={pool} rates={{ adds: 12.5, drops: 0.5 }} />).lastFrame());
    expect(text).toMatch(/pending\s+1,500/);
    expect(text).toMatch(/added\s+12,345\s+12\.5\/s/);
    expect(text).toMatch(/dropped\s+11\s+0\.5\/s\s+replaced 9, evicted 2/);
    expect(text).not.toContain('expired');
    expect(text).toMatch(/rejected\s+5\s+--\/s\s+LOW_PRIORITY_FEE 4, NULLIFIER_CONFLICT 1/);
  });

  it('shows -- before the first snapshot', () => {
    expect(plain(render(<MempoolPanel pool={undefined} rates={{}} />).lastFrame())).toMatch(/Mempool[\s│]+--/);
  });
});
