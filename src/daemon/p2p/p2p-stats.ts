import type { PeerPenaltyName } from './peer-scoring.js';

/** Outcomes a gossip message can have; anything else is counted as `other` (bounded metric labels). */
const GOSSIP_OUTCOMES = new Set([
  'published',
  'accepted',
  'duplicate',
  'rejected',
  'invalid',
  'undecodable',
  'rate_limited',
  'unhandled',
  'ignored',
  'stale',
  'error',
]);
const GOSSIP_TOPICS = new Set(['tx', 'block_proposal', 'checkpoint_proposal', 'checkpoint_attestation']);
const REQRESP_OUTCOMES = new Set([
  'success',
  'rate_limited',
  'bad_request',
  'error',
  'rate_limit_exceeded',
  'badly_formed_request',
  'internal_error',
  'not_found',
  'failure',
  'unknown',
]);

/** Running totals of the P2P service, read by the metrics endpoint (l2node_p2p_*) and `l2node status`. */
export class P2PStats {
  /** `topic|outcome` -> count. */
  readonly gossipMessages = new Map<string, number>();
  /** `protocol|direction|outcome` -> count. */
  readonly reqrespCalls = new Map<string, number>();
  readonly penalties = new Map<PeerPenaltyName, number>();

  gossip(topic: string, outcome: string): void {
    bump(
      this.gossipMessages,
      `${GOSSIP_TOPICS.has(topic) ? topic : 'other'}|${GOSSIP_OUTCOMES.has(outcome) ? outcome : 'other'}`,
    );
  }

  reqresp(protocol: string, direction: 'inbound' | 'outbound', outcome: string): void {
    bump(this.reqrespCalls, `${protocol}|${direction}|${REQRESP_OUTCOMES.has(outcome) ? outcome : 'other'}`);
  }

  penalty(name: PeerPenaltyName): void {
    bump(this.penalties, name);
  }
}

function bump<K>(m: Map<K, number>, key: K): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}
