/**
 * Multiplicative inverse in the BN254 scalar field, by Lehmer's extended Euclid (Knuth, TAOCP vol. 2, 4.5.2,
 * Algorithm L). The AVM's ECADD needs one inversion per opcode (its result is affine), and Noir's MSM runs
 * hundreds of ECADDs per call: Fermat (a^(p-2), about 380 modular multiplications) took about 220 us per
 * inversion here, plain extended Euclid about 55 us (one 254-bit division per step, about 150 steps), and this
 * about 20 us. Each outer step runs Euclid on the leading 50 bits of (u, v) in doubles (every intermediate
 * stays below 2^53, so exact) for as long as the quotients provably match the full numbers' (Collins' test),
 * then applies the accumulated 2x2 cofactor matrix to the bigints once: about 25 bits per handful of bigint
 * operations instead of one quotient per bigint division.
 *
 * `frInverse` is the native addon's (Bernstein-Yang safegcd, fr-native.ts, about 2 microseconds) when
 * the addon is present, and this bigint code otherwise.
 */
import { FR_MODULUS } from '../fr.js';
import { NATIVE_FIELD } from './fr-native.js';

const P = FR_MODULUS;
/** Leading bits kept in doubles: sums of a digit and a cofactor stay below 2^52. */
const DIGIT_BITS = 50;

/** floor(n / d) for non-negative integers below 2^53, corrected for the rounding of the double division. */
function floorDiv(n: number, d: number): number {
  const q = Math.floor(n / d);
  if (q * d > n) return q - 1;
  if (n - q * d >= d) return q + 1;
  return q;
}

function checkInvertible(a: bigint): void {
  if (a <= 0n || a >= P) throw new RangeError(`frInverse: ${a} is not a non-zero canonical field element`);
}

/** The bigint inversion (Lehmer), used when the native addon is unavailable; same contract as frInverse. */
export function frInverseBigInt(a: bigint): bigint {
  checkInvertible(a);
  // Invariants: u = xu * a (mod p) and v = xv * a (mod p); gcd(u, v) = gcd(p, a) = 1.
  let u = P;
  let v = a;
  let xu = 0n;
  let xv = 1n;
  while (v !== 0n) {
    const bits = Math.floor(Math.log2(Number(u)));
    let A = 1;
    let B = 0;
    let C = 0;
    let D = 1;
    if (bits > DIGIT_BITS + 2) {
      const shift = BigInt(bits - DIGIT_BITS + 1);
      let uh = Number(u >> shift);
      let vh = Number(v >> shift);
      for (;;) {
        const d1 = vh + C;
        const d2 = vh + D;
        if (d1 === 0 || d2 === 0) break;
        const q = floorDiv(uh + A, d1);
        const r2 = uh + B - q * d2;
        if (r2 < 0 || r2 >= d2) break;
        let t = A - q * C;
        A = C;
        C = t;
        t = B - q * D;
        B = D;
        D = t;
        t = uh - q * vh;
        uh = vh;
        vh = t;
      }
    }
    if (B === 0) {
      // No quotient is certain from the leading digits (or the numbers are small): one full Euclid step.
      const q = u / v;
      let t = u - q * v;
      u = v;
      v = t;
      t = xu - q * xv;
      xu = xv;
      xv = t;
    } else {
      const bA = BigInt(A);
      const bB = BigInt(B);
      const bC = BigInt(C);
      const bD = BigInt(D);
      const nu = bA * u + bB * v;
      v = bC * u + bD * v;
      u = nu;
      const nx = bA * xu + bB * xv;
      xv = bC * xu + bD * xv;
      xu = nx;
    }
  }
  const r = xu % P;
  return r < 0n ? r + P : r;
}

const native = NATIVE_FIELD;

/** a^-1 mod p for 0 < a < p. Throws a RangeError for 0 (no inverse); `a` must be canonical. */
export const frInverse: (a: bigint) => bigint = native
  ? (a) => {
      checkInvertible(a);
      return native.frInverse(a);
    }
  : frInverseBigInt;
