import { Text } from 'ink';
import type { StreamPool } from '../rpc/node-stream-event.js';
import { Panel } from './panel.js';
import { formatCount, formatRate, UNKNOWN } from './text-format.js';

export interface MempoolPanelProps {
  readonly pool: StreamPool | undefined;
  /** Per-second rates over the last seconds, from the pool's running totals. */
  readonly rates: { readonly adds?: number; readonly drops?: number; readonly rejects?: number };
  readonly flexGrow?: number;
}

/** The mempool: pending txs, and txs added, dropped (by reason) and refused (by code) with their rates. */
export function MempoolPanel({ pool, rates, flexGrow }: MempoolPanelProps) {
  if (!pool) {
    return (
      <Panel title="Mempool" flexGrow={flexGrow}>
        <Text dimColor>{UNKNOWN}</Text>
      </Panel>
    );
  }
  const row = (name: string, count: number, rate: number | undefined, detail: Readonly<Record<string, number>>) => (
    <Text key={name} wrap="truncate">
      {`${name.padEnd(9)}`}
      <Text bold>{formatCount(count).padStart(7)}</Text>
      <Text dimColor>{`  ${formatRate(rate)}/s`}</Text>
      {breakdown(detail)}
    </Text>
  );
  return (
    <Panel title="Mempool" flexGrow={flexGrow}>
      <Text wrap="truncate">
        {'pending  '}
        <Text bold color={pool.pending > 0 ? 'yellow' : undefined}>
          {formatCount(pool.pending).padStart(7)}
        </Text>
      </Text>
      {row('added', pool.added, rates.adds, {})}
      {row('dropped', sum(pool.dropped), rates.drops, pool.dropped)}
      {row('rejected', sum(pool.rejected), rates.rejects, pool.rejected)}
    </Panel>
  );
}

function breakdown(counts: Readonly<Record<string, number>>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${formatCount(n)}`);
  return parts.length ? `  ${parts.join(', ')}` : '';
}

function sum(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
