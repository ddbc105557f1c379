/** What the peers view reads of one libp2p connection. */
export interface ConnectionFacts {
  readonly peer: string;
  readonly direction: 'inbound' | 'outbound';
  readonly address: string;
  /** When it opened (ms). */
  readonly openedAt: number;
}

/** One peer's connections as one entry. */
export interface PeerConnections {
  readonly peer: string;
  /** The direction of its oldest connection: who dialled first. */
  readonly direction: 'inbound' | 'outbound';
  readonly addresses: readonly string[];
}

/**
 * The connections grouped by peer, in the order each peer first appears. Two nodes that dial each other at the
 * same moment hold two connections (one each way) until libp2p closes one, and a peer may hold more for a while:
 * the peers view lists each peer once, with every remote address it is connected from.
 */
export function connectionsByPeer(connections: readonly ConnectionFacts[]): PeerConnections[] {
  const byPeer = new Map<string, ConnectionFacts[]>();
  for (const c of connections) byPeer.set(c.peer, [...(byPeer.get(c.peer) ?? []), c]);
  return [...byPeer].map(([peer, conns]) => {
    const oldest = conns.reduce((a, b) => (b.openedAt < a.openedAt ? b : a));
    return { peer, direction: oldest.direction, addresses: [...new Set(conns.map((c) => c.address))] };
  });
}
