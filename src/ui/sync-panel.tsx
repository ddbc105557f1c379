import { Text } from 'ink';
import type { StreamProduction, StreamSyncProgress } from '../rpc/node-stream-event.js';
import { Panel } from './panel.js';
import { formatCount, formatDuration, formatRate, progressBar, UNKNOWN } from './text-format.js';

export interface SyncPanelProps {
  readonly production: StreamProduction | undefined;
  /** A follower's progress towards its upstream; absent on a dev node. */
  readonly sync?: StreamSyncProgress;
  /** Blocks per second seen by this dashboard (the dev node's rate, or a follower's before its own figure). */
  readonly observedRate: number | undefined;
  /** Columns for the bar. */
  readonly barWidth: number;
  readonly flexGrow?: number;
}

/**
 * Sync progress: a bar with the percent, the rate and the ETA. A follower shows its upstream's target; a dev
 * node produces its own blocks, so it is always at its tip. Unknown figures are "--", never "unknown".
 */
export function SyncPanel({ production, sync, observedRate, barWidth, flexGrow }: SyncPanelProps) {
  if (!production) {
    return (
      <Panel title="Sync" flexGrow={flexGrow}>
        <Text dimColor>{UNKNOWN}</Text>
      </Panel>
    );
  }
  const paused = production.state === 'paused';
  const percent = sync ? sync.percent : 100;
  const rate = sync?.blocksPerSecond ?? observedRate;
  const eta = sync?.etaSeconds !== undefined ? formatDuration(sync.etaSeconds) : sync?.behind === 0 ? '0s' : UNKNOWN;
  const color = paused ? 'yellow' : sync?.problem ? 'red' : 'green';
  return (
    <Panel title="Sync" flexGrow={flexGrow}>
      <Text wrap="truncate">
        {sync ? `from ${sync.upstream} · ` : `${production.producer ?? 'no producer'} · `}
        <Text bold color={color}>
          {paused ? `paused by ${production.pausedBy.join(', ') || 'the producer'}` : (sync?.state ?? production.state)}
        </Text>
      </Text>
      <Text wrap="truncate">
        <Text color={color}>{progressBar(percent ?? 0, barWidth)}</Text>
        {` ${percent === undefined ? UNKNOWN : `${percent.toFixed(1)}%`}`}
      </Text>
      <Text wrap="truncate">
        {sync
          ? `block ${formatCount(sync.blockNumber)} of ${sync.targetBlockNumber === undefined ? UNKNOWN : formatCount(sync.targetBlockNumber)}${sync.behind === undefined ? '' : ` · ${formatCount(sync.behind)} behind`}`
          : `block ${formatCount(production.blockNumber)} · at its own tip`}
      </Text>
      <Text wrap="truncate">{`rate ${formatRate(rate)} blocks/s · ETA ${eta}`}</Text>
      {sync?.problem ? (
        <Text color="red" wrap="truncate">{`${sync.problem.subject}: ${sync.problem.message}`}</Text>
      ) : null}
    </Panel>
  );
}
