import { expect } from 'vitest';
import { HostilePeer, type HostilePeerOptions } from './hostile-peer.js';
import { result } from './mempool-e2e.js';
import type { RunningNode } from './spawn-node.js';
import { until } from './until.js';

/** P2P on, on loopback, on ports the system picks: what every multi-node test passes. */
export const P2P_FLAGS = ['--p2p-enabled', '--p2p-port', '0', '--p2p-listen-address', '127.0.0.1'] as const;

/** A row of nodeAdmin_getPeers. */
export interface PeerEntry {
  id: string;
  direction: 'inbound' | 'outbound';
  addresses: string[];
  score: number;
  gossipScore: number;
  status?: { latestBlockNumber: number; latestBlockHash: string; finalizedBlockNumber: number };
}

export function peersOf(node: RunningNode): Promise<PeerEntry[]> {
  return result<PeerEntry[]>(node.adminUrl, 'nodeAdmin_getPeers');
}

export async function peerView(node: RunningNode, id: string): Promise<PeerEntry | undefined> {
  return (await peersOf(node)).find((p) => p.id === id);
}

/**
 * A hostile peer connected to `node` and kept by it (the STATUS handshake passed); `connected` collects it for
 * the file's afterAll.
 */
export async function connectHostilePeer(
  node: RunningNode,
  connected: HostilePeer[],
  options?: HostilePeerOptions,
): Promise<HostilePeer> {
  const enr = await result<string>(node.publicUrl, 'node_getEncodedEnr');
  // libp2p refuses more than 5 inbound connections a second from one host: a refused dial is tried again.
  const p = await until('a hostile peer to connect', () => HostilePeer.connect(enr, options), {
    retryErrors: true,
    intervalMs: 300,
  });
  connected.push(p);
  await until('the node to list the peer', async () => ((await peerView(node, p.id)) ? true : undefined));
  return p;
}

/** Waits until `node` has dropped the peer, and checks its log says so (disconnecting or banning it). */
export async function expectDropped(node: RunningNode, p: HostilePeer): Promise<void> {
  await until('the node to drop the peer', async () => ((await peerView(node, p.id)) === undefined ? true : undefined));
  expect(node.logs().some((l) => l.msg?.includes(`peer ${p.id}`) && /disconnecting|banning/.test(l.msg))).toBe(true);
}
