/**
 * Per-peer token buckets (4.1.2's req/resp rate limits, and a flood limit on gossip): each peer may make
 * `perSecond` requests a second with bursts up to `burst`. A request over the limit is refused, and the
 * caller scores the peer down, so a flood ends in a disconnect and then a ban.
 */
export class PeerRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  allow(peerId: string): boolean {
    const t = this.now();
    const b = this.buckets.get(peerId) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    this.buckets.set(peerId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  forget(peerId: string): void {
    this.buckets.delete(peerId);
  }
}
