import { Box, Text } from 'ink';
import type { EventStreamState } from '../rpc/client/event-stream-client.js';
import { type DashboardState, syncBadge } from './dashboard-state.js';
import { formatDuration, UNKNOWN } from './text-format.js';

export interface HeaderBarProps {
  readonly state: DashboardState;
  /** Local time, ms. */
  readonly now: number;
}

/** Who the node is, how long it has run, what it is doing (the badge), and how this dashboard is connected. */
export function HeaderBar({ state, now }: HeaderBarProps) {
  const n = state.node;
  const badge = syncBadge(state);
  const live = state.connection.status === 'open';
  const uptime = n && live ? formatDuration((now + state.clockOffsetMs - n.startedAt) / 1000) : UNKNOWN;
  const identity = n
    ? `l2node ${n.nodeVersion} · ${n.mode === 'follower' ? `follower of ${n.upstream}` : 'dev chain'} · L1 chain ${n.l1ChainId} · rollup ${n.rollupVersion}`
    : 'l2node';
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Box>
        <Box flexGrow={1}>
          <Text bold wrap="truncate">
            {identity}
          </Text>
        </Box>
        <Box flexShrink={0}>
          <Text>{`  uptime ${uptime}  `}</Text>
          <Text inverse bold color={badge.color}>{` ${badge.label} `}</Text>
        </Box>
      </Box>
      <ConnectionLine connection={state.connection} />
    </Box>
  );
}

function ConnectionLine({ connection: c }: { readonly connection: EventStreamState }) {
  switch (c.status) {
    case 'open':
      return <Text color="green" wrap="truncate">{`● connected to ${c.url}`}</Text>;
    case 'connecting':
      return <Text color="yellow" wrap="truncate">{`○ connecting to ${c.url}`}</Text>;
    case 'reconnecting':
      return (
        <Text color="yellow" wrap="truncate">
          {`○ reconnecting to ${c.url} (attempt ${c.attempt}, in ${formatDelay(c.delayMs)}): ${c.reason}`}
        </Text>
      );
    case 'unauthorized':
      return (
        <Text color="red" wrap="truncate">
          {`✗ ${c.url} refused the API key: run l2node admin login, or pass --api-key`}
        </Text>
      );
    case 'closed':
      return <Text dimColor wrap="truncate">{`○ disconnected from ${c.url}`}</Text>;
  }
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}
