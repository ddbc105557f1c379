import { Text } from 'ink';
import type { StreamBlock } from '../rpc/node-stream-event.js';
import { Panel } from './panel.js';
import { abbreviateHex, clockTime, formatCount } from './text-format.js';

export interface BlocksPanelProps {
  /** Oldest first; the newest are shown on top. */
  readonly blocks: readonly StreamBlock[];
  /** Table rows that fit. */
  readonly rows: number;
  readonly flexGrow?: number;
  readonly height?: number;
}

const HEADERS = ['block', 'hash', 'txs', 'mana', 'time', 'apply'] as const;

/** The latest blocks, newest first: number, hash, tx count, mana used, block time and how long applying took. */
export function BlocksPanel({ blocks, rows, flexGrow, height }: BlocksPanelProps) {
  const shown = blocks.slice(-Math.max(0, rows)).reverse();
  const cells = shown.map((b) => [
    String(b.number),
    abbreviateHex(b.hash, 4),
    String(b.txCount),
    formatCount(b.mana),
    clockTime(b.timestamp * 1000),
    b.durationMs === undefined ? '--' : `${b.durationMs.toFixed(1)} ms`,
  ]);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]) =>
    c.map((v, i) => (i === 1 || i === 4 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join('  ');
  return (
    <Panel title="Recent blocks" note="newest first" flexGrow={flexGrow} height={height}>
      <Text dimColor wrap="truncate">
        {line(HEADERS)}
      </Text>
      {cells.length === 0 ? <Text dimColor>no block yet</Text> : null}
      {cells.map((c, i) => (
        <Text key={shown[i]?.number} wrap="truncate" bold={i === 0}>
          {line(c)}
        </Text>
      ))}
    </Panel>
  );
}
