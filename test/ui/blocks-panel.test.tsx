import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { BlocksPanel } from '../../src/ui/blocks-panel.js';
import { clockTime } from '../../src/ui/text-format.js';
import { plain } from '../helpers/ink-frames.js';
import { streamBlock } from '../helpers/stream-fixtures.js';

describe('BlocksPanel', () => {
  it('lists the newest blocks first, as many as fit, with txs, mana, time and apply duration', () => {
    const blocks = [1, 2, 3, 4, 5].map((n) =>
      streamBlock(n, { txCount: n, mana: n * 1500, durationMs: n === 5 ? undefined : n + 0.25 }),
    );
    const text = plain(render(<BlocksPanel blocks={blocks} rows={3} />).lastFrame());
    const lines = text.split('\n').filter((l) => /^│\s+\d+\s/.test(l));
    expect(lines.map((l) => Number(l.slice(1).trim().split(/\s+/)[0]))).toEqual([5, 4, 3]);
    expect(text).toMatch(/block\s+hash\s+txs\s+mana\s+time\s+apply/);
    expect(text).toMatch(
      new RegExp(`5\\s+0x0000…0005\\s+5\\s+7,500\\s+${clockTime(streamBlock(5).timestamp * 1000)}\\s+--`),
    );
    expect(text).toMatch(/4\s+0x0000…0004\s+4\s+6,000\s+\S+\s+4\.3 ms/);
  });

  it('says when no block came yet', () => {
    expect(plain(render(<BlocksPanel blocks={[]} rows={5} />).lastFrame())).toContain('no block yet');
  });
});
