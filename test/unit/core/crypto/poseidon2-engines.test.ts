import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createNativeEngine,
  createWasmEngine,
  loadNativeAddon,
  NATIVE_ADDON_PATH,
  type NativePoseidon2Addon,
  type Poseidon2Engine,
} from '../../../../src/core/crypto/poseidon2-engines.js';
import { FR_MODULUS, toHex64 } from '../../../../src/core/fr.js';
import { writeBigInt32 } from '../../../../src/core/serialize/field-bytes.js';
import { vectors } from '../../../helpers/vectors.js';

// The default engine's vectors are in poseidon2.test.ts; this file runs them on every engine and native kernel,
// and checks that the engines agree with each other, batches equal singles, and bad input is refused.

const P = FR_MODULUS;
const big = (s: string) => BigInt(s);

// A missing addon (no compiler at install time) skips the native suites; an addon that is present but does
// not load or fails its self-check is a failure.
const addonBuilt = existsSync(NATIVE_ADDON_PATH);
const nativeLoad = addonBuilt ? loadNativeAddon() : undefined;
const addon: NativePoseidon2Addon | undefined = nativeLoad && 'addon' in nativeLoad ? nativeLoad.addon : undefined;
const wasm = await createWasmEngine();
const native = addon ? createNativeEngine(addon) : undefined;

/** The native kernels this CPU can run (the addon refuses the others). */
const kernels: string[] = [];
if (addon) {
  for (const k of ['portable', 'mulx-adx', 'avx512ifma'] as const) {
    try {
      addon.setKernel(k);
      kernels.push(k);
    } catch {
      // not supported on this CPU
    }
  }
  addon.setKernel('best');
}

afterAll(() => {
  addon?.setKernel('best');
});

/** Deterministic field elements, with the edges (0, 1, p - 1, 2^253, 2^64) mixed in. */
function* fieldStream(seed: bigint): Generator<bigint> {
  let s = seed;
  const next = () => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return z ^ (z >> 31n);
  };
  const edges = [0n, 1n, P - 1n, 1n << 253n, 1n << 64n, P - (1n << 64n)];
  for (let i = 0; ; i++) {
    if (i % 7 === 3) {
      yield edges[Number(next() % BigInt(edges.length))] as bigint;
      continue;
    }
    const v = (next() << 192n) | (next() << 128n) | (next() << 64n) | next();
    yield v % P;
  }
}

function take(gen: Generator<bigint>, n: number): bigint[] {
  return Array.from({ length: n }, () => gen.next().value as bigint);
}

function toBytes(values: readonly bigint[]): Uint8Array {
  const out = new Uint8Array(32 * values.length);
  values.forEach((v, i) => {
    writeBigInt32(out, 32 * i, v);
  });
  return out;
}

function hexOf(bytes: Uint8Array, i = 0): string {
  return `0x${Buffer.from(bytes.subarray(32 * i, 32 * i + 32)).toString('hex')}`;
}

/** Engine variants under test: wasm, and native under each kernel the CPU supports. */
const variants: { label: string; engine: Poseidon2Engine; kernel?: string }[] = [{ label: 'wasm', engine: wasm }];
if (native) for (const k of kernels) variants.push({ label: `native/${k}`, engine: native, kernel: k });

function use(kernel: string | undefined): void {
  if (kernel) addon?.setKernel(kernel as 'portable');
}

describe('native addon', () => {
  it('is either absent (no compiler at install) or loads and passes its self-check', () => {
    if (addonBuilt) expect(nativeLoad).toHaveProperty('addon');
  });
  it('reports an unavailable reason naming the missing file', () => {
    const r = loadNativeAddon('/nonexistent/poseidon2.node');
    expect(r).toHaveProperty('reason');
    expect((r as { reason: string }).reason).toContain('/nonexistent/poseidon2.node not found');
  });
});

for (const { label, engine, kernel } of variants) {
  describe(`Poseidon2 reference vectors on ${label}`, () => {
    it('hash, via bigints, bytes and a batch of one', () => {
      use(kernel);
      for (const v of vectors.poseidon2.hash) {
        const inputs: bigint[] = v.inputs.map(big);
        expect(toHex64(engine.hash(inputs)), `hash(${v.inputs})`).toBe(v.out);
        const bytes = toBytes(inputs);
        const elements = inputs.map((_, i) => bytes.subarray(32 * i, 32 * i + 32));
        expect(hexOf(engine.hashBytes(elements))).toBe(v.out);
        expect(hexOf(engine.hashBatch(bytes, inputs.length))).toBe(v.out);
      }
    });
    it('hash with separator (separator prepended)', () => {
      use(kernel);
      for (const v of vectors.poseidon2.hashWithSeparator) {
        expect(toHex64(engine.hash([big(v.separator), ...v.inputs.map(big)]))).toBe(v.out);
      }
    });
    it('permutation([0, 1, 2, 3])', () => {
      use(kernel);
      expect(engine.permutation(vectors.poseidon2.permutation.in.map(big)).map(toHex64)).toEqual(
        vectors.poseidon2.permutation.out,
      );
    });
    it('hashPair(1, 2) and the empty hash', () => {
      use(kernel);
      expect(toHex64(engine.hashPair(1n, 2n))).toBe(vectors.poseidon2.hash[0].out);
      // The empty sponge permutes the all-zero state once: hash([]) = permutation([0, 0, 0, 0])[0].
      expect(engine.hash([])).toBe(engine.permutation([0n, 0n, 0n, 0n])[0]);
    });
    it('a batch of 40 pairs (1, 2) on the vector path gives hash(1, 2) in every slot', () => {
      use(kernel);
      const out = engine.hashBatch(toBytes(Array.from({ length: 80 }, (_, i) => BigInt((i % 2) + 1))), 2);
      for (let i = 0; i < 40; i++) expect(hexOf(out, i)).toBe(vectors.poseidon2.hash[0].out);
    });
  });
}

describe.skipIf(!native)('native and wasm agree on random inputs', () => {
  for (const kernel of kernels) {
    it(`${kernel}: 2,000 pair hashes, batched and single`, () => {
      use(kernel);
      const values = take(fieldStream(0x1234n + BigInt(kernel.length)), 4000);
      const bytes = toBytes(values);
      const batch = native!.hashBatch(bytes, 2);
      for (let i = 0; i < 2000; i++) {
        const l = values[2 * i] as bigint;
        const r = values[2 * i + 1] as bigint;
        const expected = wasm.hashPair(l, r);
        expect(toHex64(native!.hashPair(l, r)), `pair ${i}`).toBe(toHex64(expected));
        expect(hexOf(batch, i), `batch slot ${i}`).toBe(toHex64(expected));
      }
    });
    it(`${kernel}: widths 1 to 8 (multi-chunk sponges), 60 hashes each`, () => {
      use(kernel);
      const gen = fieldStream(0x77n);
      for (let width = 1; width <= 8; width++) {
        const values = take(gen, 60 * width);
        const batch = native!.hashBatch(toBytes(values), width);
        for (let h = 0; h < 60; h++) {
          const item = values.slice(h * width, (h + 1) * width);
          const expected = toHex64(wasm.hash(item));
          expect(toHex64(native!.hash(item)), `width ${width} item ${h}`).toBe(expected);
          expect(hexOf(batch, h), `width ${width} batch slot ${h}`).toBe(expected);
        }
      }
    });
    it(`${kernel}: 200 permutations`, () => {
      use(kernel);
      const gen = fieldStream(0x99n);
      for (let i = 0; i < 200; i++) {
        const state = take(gen, 4);
        expect(native!.permutation(state)).toEqual(wasm.permutation(state));
      }
    });
  }
});

for (const { label, engine, kernel } of variants) {
  describe(`batch = loop of singles on ${label}`, () => {
    it('for widths 1 to 5 and batch sizes around the 8- and 16-lane boundaries', () => {
      use(kernel);
      const gen = fieldStream(0x5eedn);
      for (let width = 1; width <= 5; width++) {
        for (const k of [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 33]) {
          const values = take(gen, k * width);
          const bytes = toBytes(values);
          const batch = engine.hashBatch(bytes, width);
          expect(batch.length).toBe(32 * k);
          for (let h = 0; h < k; h++) {
            const item = values.slice(h * width, (h + 1) * width);
            expect(hexOf(batch, h), `width ${width} k ${k} slot ${h}`).toBe(toHex64(engine.hash(item)));
          }
        }
      }
    });
    it('writes into `out`, including in place over the input', () => {
      use(kernel);
      const values = take(fieldStream(0xabcn), 2 * 19);
      const bytes = toBytes(values);
      const expected = engine.hashBatch(bytes, 2);
      const out = new Uint8Array(32 * 19);
      expect(engine.hashBatch(bytes, 2, out)).toBe(out);
      expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
      const inPlace = bytes.slice();
      engine.hashBatch(inPlace, 2, inPlace);
      expect(Buffer.from(inPlace.subarray(0, 32 * 19)).equals(Buffer.from(expected))).toBe(true);
    });
  });
}

const nonCanonical = { name: 'RangeError', code: 'ERR_POSEIDON2_NON_CANONICAL' };

const engines = [{ label: 'wasm', engine: wasm }, ...(native ? [{ label: 'native', engine: native }] : [])];

for (const { label, engine } of engines) {
  describe(`non-canonical input is rejected on ${label}`, () => {
    it('bigints: the modulus, above it, above 2^256, negative', () => {
      const cases: [bigint, string][] = [
        [P, `Poseidon2 input 1 is not a canonical BN254 field element: ${toHex64(P)} >= modulus`],
        [P + 5n, `Poseidon2 input 1 is not a canonical BN254 field element: ${toHex64(P + 5n)} >= modulus`],
        [1n << 256n, 'Poseidon2 input 1 is not a canonical BN254 field element: more than 256 bits'],
        [-1n, 'Poseidon2 input 1 is not a canonical BN254 field element: negative value'],
      ];
      for (const [bad, message] of cases) {
        expect(() => engine.hashPair(1n, bad)).toThrow(message);
        expect(() => engine.hash([1n, bad])).toThrow(expect.objectContaining({ ...nonCanonical, message }));
      }
      expect(() => engine.permutation([0n, 1n, 2n, P])).toThrow(expect.objectContaining(nonCanonical));
    });
    it('bytes: hashBytes and hashBatch name the offending element', () => {
      const bytes = toBytes([1n, 2n, 3n, 4n, P - 1n, 6n]);
      bytes.set(toBytes([P]), 32 * 4);
      const message = `Poseidon2 input 4 is not a canonical BN254 field element: ${toHex64(P)} >= modulus`;
      expect(() => engine.hashBatch(bytes, 2)).toThrow(expect.objectContaining({ ...nonCanonical, message }));
      expect(() => engine.hashBatch(bytes, 3)).toThrow(message);
      const elements = [0, 1, 2, 3, 4].map((i) => bytes.subarray(32 * i, 32 * i + 32));
      expect(() => engine.hashBytes(elements)).toThrow(message);
      const allOnes = new Uint8Array(64).fill(0xff);
      expect(() => engine.hashBatch(allOnes, 2)).toThrow(
        `Poseidon2 input 0 is not a canonical BN254 field element: 0x${'ff'.repeat(32)} >= modulus`,
      );
    });
    it('malformed batches: length not a multiple of the item size, bad width, short out', () => {
      expect(() => engine.hashBatch(new Uint8Array(96), 2)).toThrow(
        'poseidon2.hashBatch: input is 96 bytes, not a multiple of 64 (width 2 x 32-byte elements)',
      );
      expect(() => engine.hashBatch(new Uint8Array(64), 0)).toThrow('width must be an integer');
      expect(() => engine.hashBatch(new Uint8Array(128), 2, new Uint8Array(32))).toThrow(
        'poseidon2.hashBatch: out is 32 bytes, needs 64 (32 per hash)',
      );
      expect(() => engine.permutation([1n, 2n, 3n])).toThrow('Poseidon2 permutes 4 field elements, got 3');
    });
  });
}

describe('engine selection (L2NODE_POSEIDON2_ENGINE)', () => {
  const load = async (value: string | undefined) => {
    vi.resetModules();
    vi.stubEnv('L2NODE_POSEIDON2_ENGINE', value);
    try {
      return await import('../../../../src/core/crypto/poseidon2.js');
    } finally {
      vi.unstubAllEnvs();
    }
  };
  it('defaults to native when the addon is available, else wasm', async () => {
    const m = await load(undefined);
    expect(m.POSEIDON2_ENGINE).toBe(native ? 'native' : 'wasm');
    expect(toHex64(m.poseidon2HashPair(1n, 2n))).toBe(vectors.poseidon2.hash[0].out);
  });
  it('wasm forces bb.js', async () => {
    const m = await load('wasm');
    expect(m.POSEIDON2_ENGINE).toBe('wasm');
    expect(m.POSEIDON2_ENGINE_DETAIL).toContain('forced by L2NODE_POSEIDON2_ENGINE');
    const out = m.poseidon2HashPairsBatch(toBytes([1n, 2n, 0n, 0n]));
    expect([hexOf(out, 0), hexOf(out, 1)]).toEqual([vectors.poseidon2.hash[0].out, vectors.poseidon2.hash[1].out]);
  });
  it.skipIf(!native)('native forces the addon', async () => {
    const m = await load('native');
    expect(m.POSEIDON2_ENGINE).toBe('native');
    const out = m.poseidon2HashBatch(toBytes([1n, 2n, 3n]), 3);
    expect(hexOf(out)).toBe(vectors.poseidon2.hash[3].out);
  });
  it('refuses an unknown engine name', async () => {
    await expect(load('gpu')).rejects.toThrow('L2NODE_POSEIDON2_ENGINE must be "wasm" or "native", got "gpu"');
  });
});
