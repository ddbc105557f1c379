/**
 * The AVM's cryptographic gadgets on plain values: Keccak-f[1600] (noble's keccakP), one SHA-256 compression
 * round (noble exposes none: FIPS 180-4 section 6.2.2, written out here), and Grumpkin addition with the AVM's
 * edge cases (in the native addon when present, see src/core/crypto/fr-native.ts; bigint code otherwise). The Poseidon2 permutation comes straight from src/core/crypto.
 */
import { keccakP } from '@noble/hashes/sha3';
import { grumpkinAdd } from '../contract/grumpkin.js';
import { type EcAddOutcome, NATIVE_FIELD } from '../crypto/fr-native.js';
import { FR_MODULUS } from '../fr.js';

/** Keccak-f[1600] (24 rounds) on 25 little-endian 64-bit lanes. */
export function keccakF1600(lanes: readonly bigint[]): bigint[] {
  const s = new Uint32Array(50);
  for (let i = 0; i < 25; i++) {
    const v = lanes[i] as bigint;
    s[2 * i] = Number(v & 0xffffffffn);
    s[2 * i + 1] = Number(v >> 32n);
  }
  keccakP(s, 24);
  const out = new Array<bigint>(25);
  for (let i = 0; i < 25; i++) out[i] = (BigInt(s[2 * i + 1] as number) << 32n) | BigInt(s[2 * i] as number);
  return out;
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** One SHA-256 compression of a 16-word block into an 8-word state (no padding, no length). */
export function sha256Compression(state: readonly number[], block: readonly number[]): number[] {
  const w = new Uint32Array(64);
  for (let i = 0; i < 16; i++) w[i] = block[i] as number;
  for (let i = 16; i < 64; i++) {
    const w15 = w[i - 15] as number;
    const w2 = w[i - 2] as number;
    const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
    w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = state as number[];
  for (let i = 0; i < 64; i++) {
    const S1 = rotr(e as number, 6) ^ rotr(e as number, 11) ^ rotr(e as number, 25);
    const ch = ((e as number) & (f as number)) ^ (~(e as number) & (g as number));
    const t1 = ((h as number) + S1 + ch + (K[i] as number) + (w[i] as number)) | 0;
    const S0 = rotr(a as number, 2) ^ rotr(a as number, 13) ^ rotr(a as number, 22);
    const maj = ((a as number) & (b as number)) ^ ((a as number) & (c as number)) ^ ((b as number) & (c as number));
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = ((d as number) + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  const out = [a, b, c, d, e, f, g, h] as number[];
  for (let i = 0; i < 8; i++) out[i] = ((state[i] as number) + (out[i] as number)) >>> 0;
  return out;
}

/**
 * ECADD's result for two points already checked to be on the curve (or flagged infinite): infinity is reported
 * as (0, 0), a flagged point is returned as given, P + (-P) gives (0, 0).
 */
export function avmEcAdd(
  x1: bigint,
  y1: bigint,
  inf1: boolean,
  x2: bigint,
  y2: bigint,
  inf2: boolean,
): { x: bigint; y: bigint } {
  if (inf1 && inf2) return { x: 0n, y: 0n };
  if (inf1) return { x: x2, y: y2 };
  if (inf2) return { x: x1, y: y1 };
  if (x1 === x2 && y1 !== y2) return { x: 0n, y: 0n };
  const r = grumpkinAdd({ x: x1, y: y1, isInfinite: false }, { x: x2, y: y2, isInfinite: false });
  return r.isInfinite ? { x: 0n, y: 0n } : { x: r.x, y: r.y };
}

const P = FR_MODULUS;

function onGrumpkin(x: bigint, y: bigint): boolean {
  return (y * y) % P === (((x * x) % P) * x + P - 17n) % P;
}

/**
 * ECADD in bigints: an unflagged point must be on the curve (point 1 is checked first; 1 or 2 names the one
 * that is not), then avmEcAdd. The fallback of the native grumpkinEcAdd, which follows the same rules.
 */
export function avmEcAddBigInt(...args: Parameters<typeof avmEcAdd>): EcAddOutcome {
  const [x1, y1, inf1, x2, y2, inf2] = args;
  if (!inf1 && !onGrumpkin(x1, y1)) return 1;
  if (!inf2 && !onGrumpkin(x2, y2)) return 2;
  const r = avmEcAdd(x1, y1, inf1, x2, y2, inf2);
  return [r.x, r.y];
}

/** ECADD with its on-curve checks, on canonical coordinates: native when the addon is present. */
export const avmEcAddChecked: (...args: Parameters<typeof avmEcAdd>) => EcAddOutcome = NATIVE_FIELD
  ? NATIVE_FIELD.grumpkinEcAdd.bind(NATIVE_FIELD)
  : avmEcAddBigInt;
