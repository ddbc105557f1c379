import { Text } from 'ink';
import { Panel } from './panel.js';
import { averageRate, type RateHistory, type RateKey, rateSeries } from './rate-history.js';
import { formatRate, sparkline } from './text-format.js';

export interface RatesPanelProps {
  readonly rates: RateHistory;
  /** Local time, ms. */
  readonly now: number;
  /** Seconds of history drawn (one cell each). */
  readonly seconds: number;
}

const SERIES: readonly [RateKey, string][] = [
  ['blocks', 'blocks/s'],
  ['txs', 'tx/s'],
  ['adds', 'pool adds/s'],
];

/** Sparklines of the last seconds (one cell per second) with the rolling average beside each. */
export function RatesPanel({ rates, now, seconds }: RatesPanelProps) {
  return (
    <Panel title="Rates" note={`last ${seconds}s, one cell per second`}>
      {SERIES.map(([key, label]) => (
        <Text key={key} wrap="truncate">
          {label.padEnd(12)}
          <Text bold>{formatRate(averageRate(rates, now, key)).padStart(6)}</Text>
          {'  '}
          <Text color="green">{sparkline(rateSeries(rates, now, seconds, key))}</Text>
        </Text>
      ))}
    </Panel>
  );
}
