/**
 * The native addon's BN254 Fr inversion and Grumpkin addition (native/poseidon2/fr_grumpkin.c; the addon is the
 * Poseidon2 one, built by `npm ci`). The AVM's FDIV and ECADD use them through fr-inverse.ts and
 * src/core/avm/gadgets.ts, which fall back to their bigint code when the addon is missing (no C compiler at
 * install time), exactly as Poseidon2 falls back to bb.js. ECADD goes native as one call per opcode: a call
 * costs well under a microsecond, a bigint inversion about 20.
 */
import { FR_MODULUS } from '../fr.js';
import { loadNativeAddon, type NativePoseidon2Addon } from './poseidon2-engines.js';

/** What ECADD gives: the affine sum ((0, 0) for infinity), or which point (1 or 2) is not on the curve. */
export type EcAddOutcome = readonly [x: bigint, y: bigint] | 1 | 2;

export interface NativeFieldAddon {
  /** a^-1 mod p for canonical 0 < a < p; RangeError otherwise. */
  frInverse(a: bigint): bigint;
  /** The AVM's ECADD on canonical coordinates (see avmEcAddBigInt in src/core/avm/gadgets.ts for the rules). */
  grumpkinEcAdd(x1: bigint, y1: bigint, inf1: boolean, x2: bigint, y2: bigint, inf2: boolean): EcAddOutcome;
}

function loadNativeField(): NativeFieldAddon | undefined {
  const loaded = loadNativeAddon();
  if (!('addon' in loaded)) return undefined;
  const addon = loaded.addon as NativePoseidon2Addon & Partial<NativeFieldAddon>;
  // An addon built before these functions existed lacks them; one that gets 2^-1 wrong is not trusted.
  if (typeof addon.frInverse !== 'function' || typeof addon.grumpkinEcAdd !== 'function') return undefined;
  if (addon.frInverse(2n) !== (FR_MODULUS + 1n) / 2n) return undefined;
  return addon as NativeFieldAddon;
}

/** The native functions, or undefined when the addon is unavailable (the bigint code runs instead). */
export const NATIVE_FIELD: NativeFieldAddon | undefined = loadNativeField();
