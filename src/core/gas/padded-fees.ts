import { GasFees } from './gas-fees.js';

/** Millionths: the precision a padding keeps (0.5, 0.125... exactly; finer digits are rounded). */
const SCALE = 1_000_000n;

/**
 * Max fees that offer `minFees * (1 + padding)` (spec part 9, `--bot.minFeePadding`), rounded up so a
 * padded fee never falls below the multiple asked for. `padding` is a non-negative decimal (0.5 offers 1.5x).
 */
export function paddedFees(minFees: GasFees, padding: number): GasFees {
  if (!Number.isFinite(padding) || padding < 0) throw new RangeError(`padding must be >= 0, got ${padding}`);
  const factor = SCALE + BigInt(Math.round(padding * Number(SCALE)));
  const pad = (fee: bigint) => (fee * factor + SCALE - 1n) / SCALE;
  return new GasFees(pad(minFees.feePerDaGas), pad(minFees.feePerL2Gas));
}
