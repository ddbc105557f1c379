/**
 * Poseidon2 over the BN254 scalar field (t = 4, x^5, 8 full + 56 partial rounds, HorizenLabs constants),
 * as barretenberg and Aztec 4.1.2 use it.
 *
 * Every caller goes through the functions of this module, so the engine underneath can be swapped.
 * The engine is chosen by measurement (bench/poseidon2): @aztec/bb.js's synchronous WebAssembly build
 * runs 30k-54k hashes/s on the reference machines, pure TypeScript implementations 5k-7k/s. Its
 * native backend is skipped on purpose: the prebuilt binaries need a newer glibc than these machines
 * have, and probing for them costs start-up time.
 */
import { BackendType, BarretenbergSync } from '@aztec/bb.js';
import { bytesToBigInt, writeBigInt32 } from '../fr.js';

const api = await BarretenbergSync.new({ backend: BackendType.Wasm });

/** The name of the engine in use, printed by benchmarks and `l2node config`. */
export const POSEIDON2_ENGINE = 'bb.js-wasm-sync';

const TWO_POW_64 = 1n << 64n;

function toBytes(v: bigint): Uint8Array {
  const b = new Uint8Array(32);
  writeBigInt32(b, 0, v);
  return b;
}

/** Variable-length sponge hash (rate 3, capacity lane initialised to len * 2^64). */
export function poseidon2Hash(inputs: readonly bigint[]): bigint {
  const out = api.poseidon2Hash({ inputs: inputs.map(toBytes) }).hash;
  return bytesToBigInt(out, 0, 32);
}

/** Sponge hash over 32-byte big-endian field encodings; skips bigint conversion on byte-oriented paths. */
export function poseidon2HashBytes(inputs: readonly Uint8Array[]): Uint8Array {
  return api.poseidon2Hash({ inputs: inputs as Uint8Array[] }).hash;
}

/** Domain-separated hash: the separator is prepended as the first field element. */
export function poseidon2HashWithSeparator(inputs: readonly bigint[], separator: number | bigint): bigint {
  return poseidon2Hash([BigInt(separator), ...inputs]);
}

/** Merkle node hash: H(left, right), no separator. */
export function poseidon2HashPair(left: bigint, right: bigint): bigint {
  const out = api.poseidon2Hash({ inputs: [toBytes(left), toBytes(right)] }).hash;
  return bytesToBigInt(out, 0, 32);
}

/** The raw permutation of a 4-element state. */
export function poseidon2Permutation(state: readonly bigint[]): bigint[] {
  if (state.length !== 4) throw new Error(`Poseidon2 permutes 4 field elements, got ${state.length}`);
  return api.poseidon2Permutation({ inputs: state.map(toBytes) }).outputs.map((o) => bytesToBigInt(o, 0, 32));
}

/** The sponge's capacity IV for n inputs; exported for implementations that rebuild the sponge. */
export function spongeIv(n: number): bigint {
  return BigInt(n) * TWO_POW_64;
}
