import { Text } from 'ink';
import type { LogLine } from './event-log.js';
import { Panel } from './panel.js';
import { clockTime } from './text-format.js';

export interface LogPanelProps {
  readonly lines: readonly LogLine[];
  /** Lines that fit; the latest are shown. */
  readonly rows: number;
  readonly flexGrow?: number;
  readonly height?: number;
}

const COLORS = { info: undefined, warn: 'yellow', error: 'red' } as const;

/** The node's events as they came (blocks, pauses, config, snapshots, slots, connection changes), latest last. */
export function LogPanel({ lines, rows, flexGrow, height }: LogPanelProps) {
  const shown = lines.slice(-Math.max(0, rows));
  return (
    <Panel title="Events" note={`${lines.length} logged`} flexGrow={flexGrow} height={height}>
      {shown.length === 0 ? <Text dimColor>nothing yet</Text> : null}
      {shown.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity; the list only grows at its end
        <Text key={`${l.at}-${i}`} wrap="truncate" color={COLORS[l.level]}>
          <Text dimColor>{clockTime(l.at)} </Text>
          {l.text}
        </Text>
      ))}
    </Panel>
  );
}
