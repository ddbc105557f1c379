import { describe, expect, it } from 'vitest';
import { provenAfterRead } from '../../../../src/daemon/l1/proven-tip.js';

describe('provenAfterRead', () => {
  const landed = { toCheckpoint: 3, l1Block: 69n };

  it("is the rollup's proven checkpoint while the node has no proof of its own", () => {
    expect(provenAfterRead(70n, 0, undefined)).toBe(0);
    expect(provenAfterRead(70n, 5, undefined)).toBe(5);
  });

  it("keeps the node's landed proof against a read taken at an earlier L1 block", () => {
    expect(provenAfterRead(68n, 0, landed)).toBe(3);
    // A read from before the proof that already shows more (another prover) is not lowered.
    expect(provenAfterRead(68n, 4, landed)).toBe(4);
  });

  it('follows the rollup from the L1 block of the proof on, even down (an L1 reorg dropped the proof)', () => {
    expect(provenAfterRead(69n, 3, landed)).toBe(3);
    expect(provenAfterRead(71n, 0, landed)).toBe(0);
    expect(provenAfterRead(71n, 7, landed)).toBe(7);
  });
});
