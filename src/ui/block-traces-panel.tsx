import { Text } from 'ink';
import { Panel } from './panel.js';
import { abbreviateHex, formatCount } from './text-format.js';
import type { BlockTraces } from './tx-trace-summary.js';

export interface BlockTracesPanelProps {
  readonly traces: BlockTraces | undefined;
  readonly flexGrow?: number;
  readonly height?: number;
}

/** The selected block's txs with their trace summaries: calls, gas used, and the revert when one reverted. */
export function BlockTracesPanel({ traces, flexGrow, height }: BlockTracesPanelProps) {
  const title = traces ? `Traces of block ${traces.blockNumber}` : 'Traces';
  return (
    <Panel title={title} note="Enter: trace the selected block" flexGrow={flexGrow} height={height}>
      {!traces ? <Text dimColor>select a block with the arrow keys, then Enter</Text> : null}
      {traces?.status === 'loading' ? <Text dimColor>tracing...</Text> : null}
      {traces?.status === 'failed' ? <Text color="red">{traces.error}</Text> : null}
      {traces?.status === 'done' && traces.txs.length === 0 ? <Text dimColor>no txs in this block</Text> : null}
      {traces?.status === 'done'
        ? traces.txs.flatMap((t) => [
            <Text key={t.txHash} wrap="truncate" color={t.revert ? 'red' : undefined}>
              {`${abbreviateHex(t.txHash, 4)}  ${t.calls} call${t.calls === 1 ? '' : 's'}  L2 ${formatCount(t.l2Gas)}  DA ${formatCount(t.daGas)}  ${t.executionResult}`}
            </Text>,
            ...(t.revert
              ? [
                  <Text key={`${t.txHash} revert`} wrap="truncate" color="red">
                    {`    reverted: ${t.revert}`}
                  </Text>,
                ]
              : []),
          ])
        : null}
    </Panel>
  );
}
