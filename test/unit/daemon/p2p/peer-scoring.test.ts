import { describe, expect, it } from 'vitest';
import { PeerScoring } from '../../../../src/daemon/p2p/peer-scoring.js';
import { PeerRateLimiter } from '../../../../src/daemon/p2p/rate-limiter.js';

describe('peer scoring', () => {
  it("disconnects at -50 and bans at -100, with 4.1.2's penalties", () => {
    const s = new PeerScoring();
    expect(s.penalize('a', 'MidTolerance')).toBe(-10);
    expect(s.verdict('a')).toBe('healthy');
    s.penalize('a', 'MidTolerance');
    s.penalize('a', 'MidTolerance');
    s.penalize('a', 'MidTolerance');
    expect(s.penalize('a', 'MidTolerance')).toBe(-50);
    expect(s.verdict('a')).toBe('disconnect');
    expect(s.penalize('a', 'LowTolerance')).toBe(-100);
    expect(s.verdict('a')).toBe('ban');
  });

  it('forgives by decay, and never scores a trusted peer', () => {
    const s = new PeerScoring((id) => id === 'trusted');
    s.penalize('a', 'HighTolerance');
    for (let i = 0; i < 40; i++) s.decay();
    expect(s.score('a')).toBe(0);
    expect(s.penalize('trusted', 'LowTolerance')).toBe(0);
    expect(s.verdict('trusted')).toBe('healthy');
  });
});

describe('peer rate limiter', () => {
  it('allows the burst, then the rate', () => {
    let now = 0;
    const r = new PeerRateLimiter(2, 3, () => now);
    expect([1, 2, 3, 4].map(() => r.allow('p'))).toEqual([true, true, true, false]);
    now += 500;
    expect(r.allow('p')).toBe(true);
    expect(r.allow('p')).toBe(false);
    expect(r.allow('q')).toBe(true);
  });
});
