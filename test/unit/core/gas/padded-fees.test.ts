import { describe, expect, it } from 'vitest';
import { GasFees } from '../../../../src/core/gas/gas-fees.js';
import { paddedFees } from '../../../../src/core/gas/padded-fees.js';

describe('paddedFees', () => {
  it('offers minFee * (1 + padding) for integer and decimal paddings, rounded up', () => {
    expect(paddedFees(new GasFees(10n, 100n), 0)).toEqual(new GasFees(10n, 100n));
    expect(paddedFees(new GasFees(10n, 100n), 3)).toEqual(new GasFees(40n, 400n));
    expect(paddedFees(new GasFees(10n, 100n), 0.5)).toEqual(new GasFees(15n, 150n));
    expect(paddedFees(new GasFees(3n, 1n), 0.5)).toEqual(new GasFees(5n, 2n));
  });
  it('refuses a negative padding', () => {
    expect(() => paddedFees(new GasFees(1n, 1n), -1)).toThrow(RangeError);
  });
});
