import { Text } from 'ink';
import type { StreamSyncProgress, StreamTips } from '../rpc/node-stream-event.js';
import { Panel } from './panel.js';
import { abbreviateHex, formatCount, UNKNOWN } from './text-format.js';

export interface TipsPanelProps {
  readonly tips: StreamTips | undefined;
  /** A follower's progress: how far behind its upstream it is. */
  readonly sync?: StreamSyncProgress;
  readonly flexGrow?: number;
}

/** The L2 tips (spec part 2): proposed, checkpointed, proven, finalized, and the distances between them. */
export function TipsPanel({ tips, sync, flexGrow }: TipsPanelProps) {
  if (!tips) {
    return (
      <Panel title="L2 tips" flexGrow={flexGrow}>
        <Text dimColor>{UNKNOWN}</Text>
      </Panel>
    );
  }
  const rows: [string, number, string][] = [
    ['proposed', tips.proposed.number, abbreviateHex(tips.proposed.hash)],
    ['checkpointed', tips.checkpointed.block.number, `checkpoint ${tips.checkpointed.checkpoint.number}`],
    ['proven', tips.proven.block.number, `checkpoint ${tips.proven.checkpoint.number}`],
    ['finalized', tips.finalized.block.number, `checkpoint ${tips.finalized.checkpoint.number}`],
  ];
  const width = Math.max(...rows.map(([, n]) => formatCount(n).length));
  const unfinalized = tips.proposed.number - tips.finalized.block.number;
  return (
    <Panel title="L2 tips" flexGrow={flexGrow}>
      {rows.map(([name, n, detail]) => (
        <Text key={name} wrap="truncate">
          {`${name.padEnd(12)} `}
          <Text bold>{formatCount(n).padStart(width)}</Text>
          <Text dimColor>{`  ${detail}`}</Text>
        </Text>
      ))}
      <Text wrap="truncate" dimColor>
        {sync?.behind !== undefined
          ? `${formatCount(sync.behind)} behind upstream · ${formatCount(unfinalized)} not final`
          : `${formatCount(unfinalized)} blocks not final yet`}
      </Text>
    </Panel>
  );
}
