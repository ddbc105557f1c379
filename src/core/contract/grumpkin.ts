/**
 * Arithmetic on Grumpkin, the curve y^2 = x^3 - 17 over the BN254 scalar field (so its points have Fr
 * coordinates). Aztec derives addresses with it: address = (preaddress * G + ivpk).x, and the AVM's ECADD adds
 * two points. Pure bigint code: an addition in affine coordinates (one inversion), a scalar multiplication in
 * Jacobian coordinates with one inversion at the end; it costs a few milliseconds, which is fine for the rare
 * contract deployments it serves.
 */
import { frInverse } from '../crypto/fr-inverse.js';
import { FR_MODULUS } from '../fr.js';

const P = FR_MODULUS;
/** Order of the group (the BN254 base field modulus). */
export const GRUMPKIN_ORDER = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;

export interface GrumpkinPoint {
  readonly x: bigint;
  readonly y: bigint;
  /** The point at infinity (x and y are then meaningless). */
  readonly isInfinite: boolean;
}

export const GRUMPKIN_INFINITY: GrumpkinPoint = { x: 0n, y: 0n, isInfinite: true };

/** barretenberg's generator: (1, sqrt(-16)). */
export const GRUMPKIN_GENERATOR: GrumpkinPoint = {
  x: 1n,
  y: 0x0000000000000002cf135e7506a45d632d270d45f1181294833fc48d823f272cn,
  isInfinite: false,
};

interface Jacobian {
  x: bigint;
  y: bigint;
  z: bigint;
}

const mod = (a: bigint): bigint => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

export function isOnGrumpkin(p: GrumpkinPoint): boolean {
  if (p.isInfinite) return true;
  if (p.x < 0n || p.x >= P || p.y < 0n || p.y >= P) return false;
  return mod(p.y * p.y) === mod(p.x * p.x * p.x - 17n);
}

function toJacobian(p: GrumpkinPoint): Jacobian {
  return p.isInfinite ? { x: 1n, y: 1n, z: 0n } : { x: p.x, y: p.y, z: 1n };
}

function toAffine(j: Jacobian): GrumpkinPoint {
  if (j.z === 0n) return GRUMPKIN_INFINITY;
  const zInv = frInverse(j.z);
  const zInv2 = (zInv * zInv) % P;
  return { x: (j.x * zInv2) % P, y: (((j.y * zInv2) % P) * zInv) % P, isInfinite: false };
}

function double(a: Jacobian): Jacobian {
  if (a.z === 0n || a.y === 0n) return { x: 1n, y: 1n, z: 0n };
  const A = (a.x * a.x) % P;
  const B = (a.y * a.y) % P;
  const C = (B * B) % P;
  const xb = a.x + B;
  const D = mod(2n * ((xb * xb) % P) - 2n * A - 2n * C);
  const E = (3n * A) % P;
  const F = (E * E) % P;
  const x3 = mod(F - 2n * D);
  const y3 = mod(E * mod(D - x3) - 8n * C);
  const z3 = (2n * a.y * a.z) % P;
  return { x: x3, y: y3, z: z3 };
}

function add(a: Jacobian, b: Jacobian): Jacobian {
  if (a.z === 0n) return b;
  if (b.z === 0n) return a;
  const z1z1 = (a.z * a.z) % P;
  const z2z2 = (b.z * b.z) % P;
  const u1 = (a.x * z2z2) % P;
  const u2 = (b.x * z1z1) % P;
  const s1 = (((a.y * b.z) % P) * z2z2) % P;
  const s2 = (((b.y * a.z) % P) * z1z1) % P;
  if (u1 === u2) return s1 === s2 ? double(a) : { x: 1n, y: 1n, z: 0n };
  const h = mod(u2 - u1);
  const i = (4n * h * h) % P;
  const j = (h * i) % P;
  const r = mod(2n * (s2 - s1));
  const v = (u1 * i) % P;
  const x3 = mod(r * r - j - 2n * v);
  const y3 = mod(r * mod(v - x3) - 2n * ((s1 * j) % P));
  const zs = a.z + b.z;
  const z3 = (mod(((zs * zs) % P) - z1z1 - z2z2) * h) % P;
  return { x: x3, y: y3, z: z3 };
}

/** a + b in affine coordinates: one inversion (the AVM's ECADD runs this once per opcode). */
export function grumpkinAdd(a: GrumpkinPoint, b: GrumpkinPoint): GrumpkinPoint {
  if (a.isInfinite) return b;
  if (b.isInfinite) return a;
  let lambda: bigint;
  if (a.x === b.x) {
    if (a.y !== b.y || a.y === 0n) return GRUMPKIN_INFINITY;
    lambda = (((3n * a.x * a.x) % P) * frInverse((2n * a.y) % P)) % P;
  } else {
    lambda = (mod(b.y - a.y) * frInverse(mod(b.x - a.x))) % P;
  }
  const x = mod(lambda * lambda - a.x - b.x);
  const y = mod(lambda * (a.x - x) - a.y);
  return { x, y, isInfinite: false };
}

/** scalar * point (double-and-add, most significant bit first). */
export function grumpkinMul(point: GrumpkinPoint, scalar: bigint): GrumpkinPoint {
  const k = scalar % GRUMPKIN_ORDER;
  if (k === 0n || point.isInfinite) return GRUMPKIN_INFINITY;
  const base = toJacobian(point);
  let acc: Jacobian = { x: 1n, y: 1n, z: 0n };
  for (let bit = BigInt(k.toString(2).length - 1); bit >= 0n; bit--) {
    acc = double(acc);
    if ((k >> bit) & 1n) acc = add(acc, base);
  }
  return toAffine(acc);
}
