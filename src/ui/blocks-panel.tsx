import { Text } from 'ink';
import type { StreamBlock } from '../rpc/node-stream-event.js';
import { Panel } from './panel.js';
import { abbreviateHex, clockTime, formatCount } from './text-format.js';

export interface BlocksPanelProps {
  /** Oldest first; the newest are shown on top. */
  readonly blocks: readonly StreamBlock[];
  /** Table rows that fit. */
  readonly rows: number;
  /** The block the blocks view has selected (marked with >), if any. */
  readonly selected?: number;
  readonly flexGrow?: number;
  readonly height?: number;
}

const HEADERS = [' block', 'hash', 'txs', 'mana', 'time', 'apply'] as const;

/** The latest blocks, newest first: number, hash, tx count, mana used, block time and how long applying took. */
export function BlocksPanel({ blocks, rows, selected, flexGrow, height }: BlocksPanelProps) {
  // The selected block stays in view: the window ends at it when it is older than the newest rows.
  const end = selected === undefined ? blocks.length : blocks.findIndex((b) => b.number === selected) + 1;
  const until = end <= 0 ? blocks.length : Math.max(end, Math.min(blocks.length, Math.max(0, rows)));
  const shown = blocks.slice(Math.max(0, until - Math.max(0, rows)), until).reverse();
  const cells = shown.map((b) => [
    `${selected === b.number ? '>' : ' '}${b.number}`,
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
        <Text
          key={shown[i]?.number}
          wrap="truncate"
          bold={i === 0}
          inverse={selected !== undefined && shown[i]?.number === selected}
        >
          {line(c)}
        </Text>
      ))}
    </Panel>
  );
}
