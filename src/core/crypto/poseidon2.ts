/**
 * Poseidon2 over the BN254 scalar field (t = 4, x^5, 8 full + 56 partial rounds, HorizenLabs constants),
 * as barretenberg and Aztec 4.1.2 use it.
 *
 * Every caller goes through the functions of this module, so the engine underneath can be swapped. The engine
 * is picked once, at load (engines in ./poseidon2-engines.ts):
 *  - native: the N-API addon from native/poseidon2 (C), built by `npm ci` into build/Release/poseidon2.node.
 *    Used when present and when it reproduces hash(1, 2). On the reference machine (bench/poseidon2/run.js):
 *    single hashes about 85k-93k/s; batches (poseidon2HashBatch) 8 hashes per AVX-512 IFMA pass, about
 *    450k-540k pair hashes/s per core. Without IFMA, batches run on the scalar kernel at the single-hash rate.
 *  - wasm: @aztec/bb.js's synchronous WebAssembly build, 30k-54k hashes/s. The fallback when the addon is
 *    missing (no compiler at install time) or fails its check. bb.js's own native backend is not used: its
 *    prebuilt binaries need a newer glibc than the reference machines have.
 * L2NODE_POSEIDON2_ENGINE=wasm|native forces one (benchmarks, tests); `native` fails the import when the addon
 * is unavailable rather than falling back quietly.
 *
 * Inputs must be canonical field elements (0 <= v < modulus); anything else throws a RangeError with code
 * ERR_POSEIDON2_NON_CANONICAL (see poseidon2-engines.ts).
 */
import {
  createNativeEngine,
  createWasmEngine,
  loadNativeAddon,
  type Poseidon2Engine,
  type Poseidon2EngineName,
} from './poseidon2-engines.js';

export type { Poseidon2EngineName } from './poseidon2-engines.js';

async function selectEngine(): Promise<{ engine: Poseidon2Engine; note: string }> {
  const forced = process.env.L2NODE_POSEIDON2_ENGINE;
  if (forced !== undefined && forced !== '' && forced !== 'wasm' && forced !== 'native') {
    throw new Error(`L2NODE_POSEIDON2_ENGINE must be "wasm" or "native", got "${forced}"`);
  }
  if (forced === 'wasm') return { engine: await createWasmEngine(), note: 'forced by L2NODE_POSEIDON2_ENGINE' };
  const native = loadNativeAddon();
  if ('addon' in native) return { engine: createNativeEngine(native.addon), note: '' };
  if (forced === 'native') {
    throw new Error(`L2NODE_POSEIDON2_ENGINE=native, but the native Poseidon2 addon is unavailable: ${native.reason}`);
  }
  return { engine: await createWasmEngine(), note: `native addon unavailable: ${native.reason}` };
}

const selected = await selectEngine();
const engine = selected.engine;

/** The engine in use: 'native' or 'wasm'. Printed by benchmarks and `l2node config`. */
export const POSEIDON2_ENGINE: Poseidon2EngineName = engine.name;

/** One line on the engine: the native kernel, or why the native addon is not in use. */
export const POSEIDON2_ENGINE_DETAIL: string = selected.note ? `${engine.detail}; ${selected.note}` : engine.detail;

const TWO_POW_64 = 1n << 64n;

/** Variable-length sponge hash (rate 3, capacity lane initialised to len * 2^64). */
export const poseidon2Hash: (inputs: readonly bigint[]) => bigint = engine.hash;

/** Sponge hash over 32-byte big-endian field encodings; skips bigint conversion on byte-oriented paths. */
export const poseidon2HashBytes: (inputs: readonly Uint8Array[]) => Uint8Array = engine.hashBytes;

/** Domain-separated hash: the separator is prepended as the first field element. */
export function poseidon2HashWithSeparator(inputs: readonly bigint[], separator: number | bigint): bigint {
  return engine.hash([BigInt(separator), ...inputs]);
}

/** Merkle node hash: H(left, right), no separator. */
export const poseidon2HashPair: (left: bigint, right: bigint) => bigint = engine.hashPair;

/**
 * Many independent sponge hashes in one call: `input` holds k items of `width` 32-byte big-endian elements
 * back to back; the result holds the k 32-byte hashes (written into `out` when given, which may be `input`
 * itself for in-place tree levels; no other overlap). Width 2 is the merkle node hash, 3 the nullifier leaf,
 * 4 the public-data leaf. The native engine hashes 8 items per vector pass, so batches are far cheaper per hash
 * than single calls.
 */
export function poseidon2HashBatch(input: Uint8Array, width: number, out?: Uint8Array): Uint8Array {
  return engine.hashBatch(input, width, out);
}

/** Merkle node hashes in bulk: 64 * k bytes of (left, right) pairs in, 32 * k bytes of H(left, right) out. */
export function poseidon2HashPairsBatch(pairs: Uint8Array, out?: Uint8Array): Uint8Array {
  return engine.hashBatch(pairs, 2, out);
}

/** The raw permutation of a 4-element state. */
export const poseidon2Permutation: (state: readonly bigint[]) => bigint[] = engine.permutation;

/** The sponge's capacity IV for n inputs; exported for implementations that rebuild the sponge. */
export function spongeIv(n: number): bigint {
  return BigInt(n) * TWO_POW_64;
}
