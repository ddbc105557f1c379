/**
 * The application score of each peer (4.1.2 PeerScoring): misbehaviour costs penalty points by how little it
 * can be tolerated; the score decays back towards 0 so a peer that behaves again is forgiven. At -50 the
 * peer is disconnected, at -100 banned (4.1.2's thresholds). Gossipsub's own score (P4 on invalid messages)
 * is kept by gossipsub; this one is also given to it as the application-specific score.
 */
export const PeerPenalty = {
  /** Something a well-behaved peer never does (undecodable data, a forged message). */
  LowTolerance: 50,
  /** A mistake an honest peer might make once or twice (an invalid tx, a failed request). */
  MidTolerance: 10,
  /** Something that happens to honest peers now and then (a slow answer, a rate limit hit). */
  HighTolerance: 2,
} as const;

export type PeerPenaltyName = keyof typeof PeerPenalty;

export const DISCONNECT_SCORE = -50;
export const BAN_SCORE = -100;
/** The score is multiplied by this every decay interval (4.1.2 decays by 0.9 per heartbeat). */
const DECAY_FACTOR = 0.9;
/** Scores closer to 0 than this are forgotten. */
const FORGET_BELOW = 0.1;

export type PeerVerdict = 'healthy' | 'disconnect' | 'ban';

export class PeerScoring {
  private readonly scores = new Map<string, number>();

  constructor(private readonly isTrusted: (peerId: string) => boolean = () => false) {}

  penalize(peerId: string, penalty: PeerPenaltyName): number {
    if (this.isTrusted(peerId)) return 0;
    const score = (this.scores.get(peerId) ?? 0) - PeerPenalty[penalty];
    this.scores.set(peerId, score);
    return score;
  }

  score(peerId: string): number {
    return this.scores.get(peerId) ?? 0;
  }

  verdict(peerId: string): PeerVerdict {
    const s = this.score(peerId);
    if (s <= BAN_SCORE) return 'ban';
    if (s <= DISCONNECT_SCORE) return 'disconnect';
    return 'healthy';
  }

  /** One decay step (called on a timer). */
  decay(): void {
    for (const [peer, score] of this.scores) {
      const next = score * DECAY_FACTOR;
      if (Math.abs(next) < FORGET_BELOW) this.scores.delete(peer);
      else this.scores.set(peer, next);
    }
  }

  forget(peerId: string): void {
    this.scores.delete(peerId);
  }
}
