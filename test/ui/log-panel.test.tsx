import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../src/ui/event-log.js';
import { LogPanel } from '../../src/ui/log-panel.js';
import { clockTime } from '../../src/ui/text-format.js';
import { plain } from '../helpers/ink-frames.js';
import { T0 } from '../helpers/stream-fixtures.js';

describe('LogPanel', () => {
  it('shows the latest lines that fit, oldest on top, with their local time', () => {
    const lines: LogLine[] = Array.from({ length: 8 }, (_, i) => ({
      at: T0 + i * 1000,
      level: i === 7 ? 'error' : 'info',
      text: `line ${i}`,
    }));
    const text = plain(render(<LogPanel lines={lines} rows={3} />).lastFrame());
    expect(text).toContain('Events  8 logged');
    expect(text).not.toContain('line 4');
    const shown = text.split('\n').filter((l) => l.includes('line '));
    expect(shown.map((l) => /line (\d)/.exec(l)?.[1])).toEqual(['5', '6', '7']);
    expect(text).toContain(`${clockTime(T0 + 7000)} line 7`);
  });

  it('says when nothing was logged', () => {
    expect(plain(render(<LogPanel lines={[]} rows={3} />).lastFrame())).toContain('nothing yet');
  });
});
