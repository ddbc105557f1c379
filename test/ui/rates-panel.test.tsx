import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { addCounts, EMPTY_RATES, startRates } from '../../src/ui/rate-history.js';
import { RatesPanel } from '../../src/ui/rates-panel.js';
import { plain } from '../helpers/ink-frames.js';

describe('RatesPanel', () => {
  it('draws one sparkline cell per second with the 10 s average beside it', () => {
    const t0 = 1_000_000_000;
    let rates = startRates(EMPTY_RATES, t0);
    // seconds 1..10 after t0: one block a second, with 0, 2, 4, ... txs
    for (let i = 1; i <= 10; i++) rates = addCounts(rates, t0 + i * 1000 + 100, { blocks: 1, txs: (i - 1) * 2 });
    const text = plain(render(<RatesPanel rates={rates} now={t0 + 11_500} seconds={10} />).lastFrame());
    expect(text).toContain('last 10s, one cell per second');
    expect(text).toMatch(/blocks\/s\s+1\.0\s+█{10}/);
    expect(text).toMatch(/tx\/s\s+9\.0\s+▁▂▃▃▄▅▆▆▇█/);
    expect(text).toMatch(/pool adds\/s\s+0\.0\s+▁{10}/);
  });

  it('shows -- until two whole seconds were seen', () => {
    const rates = startRates(EMPTY_RATES, 5_000);
    const text = plain(render(<RatesPanel rates={rates} now={6_200} seconds={5} />).lastFrame());
    expect(text).toMatch(/blocks\/s\s+--/);
  });
});
