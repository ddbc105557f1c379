/**
 * The two Poseidon2 engines behind src/core/crypto/poseidon2.ts: the native N-API addon built from
 * native/poseidon2 (C; 8-way AVX-512 IFMA batches where the CPU has them) and @aztec/bb.js's synchronous
 * WebAssembly build. Everything else imports poseidon2.ts, which picks one at load; tests and benchmarks load
 * both from here to compare them.
 *
 * Both engines reject non-canonical inputs (negative, or >= the BN254 Fr modulus) with a RangeError carrying
 * code ERR_POSEIDON2_NON_CANONICAL and the same message, instead of reducing them as barretenberg would: an
 * Aztec Fr never holds such a value, so one reaching the hasher is a caller bug.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FR_MODULUS } from '../fr.js';
import { bytesToBigInt, writeBigInt32 } from '../serialize/field-bytes.js';

export type Poseidon2EngineName = 'native' | 'wasm';

export interface Poseidon2Engine {
  readonly name: Poseidon2EngineName;
  /** Human-readable detail for logs and `l2node config`, e.g. the native kernel. */
  readonly detail: string;
  hash(inputs: readonly bigint[]): bigint;
  hashBytes(inputs: readonly Uint8Array[]): Uint8Array;
  hashPair(left: bigint, right: bigint): bigint;
  /** k = input.length / (32 * width) sponge hashes of `width` elements each; 32 * k bytes out. */
  hashBatch(input: Uint8Array, width: number, out?: Uint8Array): Uint8Array;
  permutation(state: readonly bigint[]): bigint[];
}

export const NON_CANONICAL_CODE = 'ERR_POSEIDON2_NON_CANONICAL';
const TWO_POW_256 = 1n << 256n;

/** hash(1, 2), checked before an engine is trusted. */
export const SELF_CHECK_HASH_1_2 = 0x038682aa1cb5ae4e0a3f13da432a95c77c5c111f6f030faf9cad641ce1ed7383n;

export function nonCanonicalError(index: number, detail: string): RangeError {
  const err = new RangeError(`Poseidon2 input ${index} is not a canonical BN254 field element: ${detail}`);
  return Object.assign(err, { code: NON_CANONICAL_CODE });
}

// --- native ---------------------------------------------------------------------------------------------

/** The N-API surface of build/Release/poseidon2.node (see native/poseidon2/addon.c). */
export interface NativePoseidon2Addon {
  hash(input: Uint8Array): Buffer;
  hashList(elements: readonly Uint8Array[]): Buffer;
  hashBatch(input: Uint8Array, width: number, out?: Uint8Array): Uint8Array;
  permutation(state: Uint8Array): Buffer;
  hashBigInts(values: readonly bigint[]): bigint;
  hashPairBigInt(left: bigint, right: bigint): bigint;
  permutationBigInts(state: readonly bigint[]): bigint[];
  /** 'portable' | 'mulx-adx' | 'avx512ifma' */
  kernel(): string;
  /** Switches the multiplication kernel process-wide (tests, benchmarks); returns the kernel now in use. */
  setKernel(name: 'best' | 'portable' | 'mulx-adx' | 'avx512ifma'): string;
}

/** Where `npm ci` (native/build.mjs, node-gyp) puts the addon; src/ and dist/ sit at the same depth. */
export const NATIVE_ADDON_PATH = fileURLToPath(new URL('../../../build/Release/poseidon2.node', import.meta.url));

export type NativeLoadResult = { addon: NativePoseidon2Addon } | { reason: string };

/** Loads the addon and checks it against hash(1, 2) on the single and the batch (IFMA) paths. */
export function loadNativeAddon(path = NATIVE_ADDON_PATH): NativeLoadResult {
  if (!existsSync(path)) return { reason: `${path} not found (built by \`npm ci\`, or \`node native/build.mjs\`)` };
  let addon: NativePoseidon2Addon;
  try {
    addon = createRequire(import.meta.url)(path) as NativePoseidon2Addon;
  } catch (e) {
    return { reason: `${path} does not load: ${(e as Error).message}` };
  }
  try {
    const single = addon.hashPairBigInt(1n, 2n);
    if (single !== SELF_CHECK_HASH_1_2) return { reason: `self-check failed: hash(1, 2) = 0x${single.toString(16)}` };
    // Eight pairs take the vector path where there is one.
    const pairs = new Uint8Array(64 * 8);
    for (let i = 0; i < 8; i++) {
      pairs[64 * i + 31] = 1;
      pairs[64 * i + 63] = 2;
    }
    const batch = addon.hashBatch(pairs, 2);
    for (let i = 0; i < 8; i++) {
      const got = bytesToBigInt(batch, 32 * i, 32);
      if (got !== SELF_CHECK_HASH_1_2) {
        return { reason: `self-check failed: batch hash(1, 2) = 0x${got.toString(16)} (kernel ${addon.kernel()})` };
      }
    }
  } catch (e) {
    return { reason: `self-check threw: ${(e as Error).message}` };
  }
  return { addon };
}

export function createNativeEngine(addon: NativePoseidon2Addon): Poseidon2Engine {
  return {
    name: 'native',
    get detail() {
      return `native (${addon.kernel()})`;
    },
    hash: (inputs) => addon.hashBigInts(inputs),
    hashBytes: (inputs) => addon.hashList(inputs),
    hashPair: (left, right) => addon.hashPairBigInt(left, right),
    hashBatch: (input, width, out) => addon.hashBatch(input, width, out),
    permutation: (state) => {
      if (state.length !== 4) throw new RangeError(`Poseidon2 permutes 4 field elements, got ${state.length}`);
      return addon.permutationBigInts(state);
    },
  };
}

// --- bb.js WebAssembly -----------------------------------------------------------------------------------

const MODULUS_BYTES = (() => {
  const b = new Uint8Array(32);
  writeBigInt32(b, 0, FR_MODULUS);
  return b;
})();

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

function isCanonicalBytes(b: Uint8Array, offset: number): boolean {
  for (let i = 0; i < 32; i++) {
    const x = b[offset + i] as number;
    const m = MODULUS_BYTES[i] as number;
    if (x !== m) return x < m;
  }
  return false;
}

function fieldToBytes(v: bigint, index: number): Uint8Array {
  if (typeof v !== 'bigint') throw new TypeError(`Poseidon2 input ${index} must be a bigint, got ${typeof v}`);
  if (v < 0n) throw nonCanonicalError(index, 'negative value');
  if (v >= TWO_POW_256) throw nonCanonicalError(index, 'more than 256 bits');
  if (v >= FR_MODULUS) throw nonCanonicalError(index, `0x${v.toString(16).padStart(64, '0')} >= modulus`);
  const b = new Uint8Array(32);
  writeBigInt32(b, 0, v);
  return b;
}

function checkElementBytes(fn: string, b: Uint8Array, index: number, label = 'element'): void {
  if (!(b instanceof Uint8Array)) throw new TypeError(`poseidon2.${fn}: ${label} ${index} must be a Uint8Array`);
  if (b.length !== 32) throw new RangeError(`poseidon2.${fn}: ${label} ${index} is ${b.length} bytes, expected 32`);
  if (!isCanonicalBytes(b, 0)) throw nonCanonicalError(index, `0x${hex(b)} >= modulus`);
}

/**
 * The wasm file, located from bb.js's package entry. bb.js finds it itself from `__dirname` when that global
 * exists, else from import.meta.url, and `node -e` defines a global `__dirname` of '.', which sends it to
 * ./../../barretenberg-threads.wasm.gz; passing the path avoids that. BB_WASM_PATH still wins, as in bb.js.
 */
function bbWasmPath(): string | undefined {
  if (process.env.BB_WASM_PATH) return process.env.BB_WASM_PATH;
  try {
    const entry = createRequire(import.meta.url).resolve('@aztec/bb.js');
    const path = join(dirname(entry), 'barretenberg_wasm', 'barretenberg-threads.wasm.gz');
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

export async function createWasmEngine(): Promise<Poseidon2Engine> {
  // Imported only when this engine is picked: loading bb.js costs ~45 ms, which every CLI command would pay.
  const { BackendType, BarretenbergSync } = await import('@aztec/bb.js');
  const api = await BarretenbergSync.new({ backend: BackendType.Wasm, wasmPath: bbWasmPath() });
  const hashBytes = (inputs: readonly Uint8Array[]): Uint8Array => {
    inputs.forEach((b, i) => {
      checkElementBytes('hashList', b, i);
    });
    return api.poseidon2Hash({ inputs: inputs as Uint8Array[] }).hash;
  };
  return {
    name: 'wasm',
    detail: 'wasm (@aztec/bb.js BarretenbergSync)',
    hash: (inputs) => bytesToBigInt(api.poseidon2Hash({ inputs: inputs.map(fieldToBytes) }).hash, 0, 32),
    hashBytes,
    hashPair: (left, right) =>
      bytesToBigInt(api.poseidon2Hash({ inputs: [fieldToBytes(left, 0), fieldToBytes(right, 1)] }).hash, 0, 32),
    hashBatch: (input, width, out) => {
      if (!(input instanceof Uint8Array)) throw new TypeError('poseidon2.hashBatch: input must be a Uint8Array');
      if (!Number.isInteger(width) || width < 1 || width > 1 << 20) {
        throw new RangeError('poseidon2.hashBatch: width must be an integer between 1 and 2^20');
      }
      const itemBytes = 32 * width;
      if (input.length % itemBytes !== 0) {
        throw new RangeError(
          `poseidon2.hashBatch: input is ${input.length} bytes, not a multiple of ${itemBytes} (width ${width} x 32-byte elements)`,
        );
      }
      const k = input.length / itemBytes;
      for (let i = 0; i < k * width; i++) {
        if (!isCanonicalBytes(input, 32 * i)) {
          throw nonCanonicalError(i, `0x${hex(input.subarray(32 * i, 32 * i + 32))} >= modulus`);
        }
      }
      const target = out ?? new Uint8Array(32 * k);
      if (target.length < 32 * k) {
        throw new RangeError(`poseidon2.hashBatch: out is ${target.length} bytes, needs ${32 * k} (32 per hash)`);
      }
      const fields = new Array<Uint8Array>(width);
      for (let h = 0; h < k; h++) {
        const base = h * itemBytes;
        // Copies: `out` may be `input` itself (in-place tree levels), and hash h overwrites bytes already read.
        for (let j = 0; j < width; j++) fields[j] = input.slice(base + 32 * j, base + 32 * j + 32);
        target.set(api.poseidon2Hash({ inputs: fields }).hash, 32 * h);
      }
      return target;
    },
    permutation: (state) => {
      if (state.length !== 4) throw new RangeError(`Poseidon2 permutes 4 field elements, got ${state.length}`);
      return api.poseidon2Permutation({ inputs: state.map(fieldToBytes) }).outputs.map((o) => bytesToBigInt(o, 0, 32));
    },
  };
}

/** Loads one engine by name; throws (saying why) when the native addon is unavailable. */
export async function loadPoseidon2Engine(name: Poseidon2EngineName): Promise<Poseidon2Engine> {
  if (name === 'wasm') return createWasmEngine();
  const native = loadNativeAddon();
  if ('reason' in native) throw new Error(`The native Poseidon2 addon is unavailable: ${native.reason}`);
  return createNativeEngine(native.addon);
}
