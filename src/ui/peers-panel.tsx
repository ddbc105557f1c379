import { Text } from 'ink';
import { Panel } from './panel.js';

/** One row of nodeAdmin_getPeers, as the panel shows it. */
export interface PeerRow {
  readonly id: string;
  /** `inbound` or `outbound`. */
  readonly direction: string;
  readonly score: number;
  readonly gossipScore: number;
  readonly status?: { readonly latestBlockNumber: number };
}

export interface PeersPanelProps {
  readonly peers: readonly PeerRow[];
  /** Peer lines that fit. */
  readonly rows: number;
  readonly flexGrow?: number;
  readonly height?: number;
}

/**
 * The node's P2P peers (nodeAdmin_getPeers, polled): each one's id (its tail), direction, application and
 * gossipsub scores and the block its STATUS reported; the lowest scores first, as those are the ones to watch.
 */
export function PeersPanel({ peers, rows, flexGrow, height }: PeersPanelProps) {
  if (peers.length === 0) {
    return (
      <Panel title="Peers" flexGrow={flexGrow} height={height}>
        <Text wrap="truncate">no peers</Text>
        <Text dimColor wrap="truncate">
          (l2node start --p2p-enabled --bootstrap-nodes …)
        </Text>
      </Panel>
    );
  }
  const sorted = [...peers].sort((a, b) => a.score - b.score);
  const shown = sorted.slice(0, Math.max(0, rows - 1));
  return (
    <Panel title={`Peers (${peers.length})`} flexGrow={flexGrow} height={height}>
      <Text dimColor wrap="truncate">
        {'peer    dir  score gossip block'}
      </Text>
      {shown.map((p) => (
        <Text key={`${p.id}-${p.direction}`} wrap="truncate">
          {`…${p.id.slice(-6)} ${p.direction === 'inbound' ? 'in ' : 'out'} `}
          <Text color={p.score < 0 ? 'yellow' : 'green'}>{String(p.score).padStart(6)}</Text>
          {` ${String(p.gossipScore).padStart(6)} ${p.status ? p.status.latestBlockNumber : '--'}`}
        </Text>
      ))}
      {sorted.length > shown.length ? <Text dimColor>{`+${sorted.length - shown.length} more`}</Text> : null}
    </Panel>
  );
}
