// Poseidon2 2-to-1 hash throughput of every engine, measured in one process on one core.
//
//   npm run build && node bench/poseidon2/run.js [reps=5] [seconds per measurement=1]
//
// Method (as in docs/baselines.md section 3.1): the implementations run interleaved, one measurement each per rep, and the
// table gives each one's median over the reps, plus the ratio to bb.js WASM measured in the same run. Every
// implementation is first checked to give the same hash for (0x1234, 0x5678). Inputs are random field
// elements, fixed per run.
import { poseidon2Hash as zkPassportHash } from '@zkpassport/poseidon2';
import { createNativeEngine, createWasmEngine, loadNativeAddon } from '../../dist/core/crypto/poseidon2-engines.js';
import { FR_MODULUS } from '../../dist/core/fr.js';
import { writeBigInt32 } from '../../dist/core/serialize/field-bytes.js';
import { benchResult } from '../bench-result.js';

const reps = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 1);
if (!(reps >= 1) || !(seconds > 0)) {
  console.error('usage: node bench/poseidon2/run.js [reps >= 1] [seconds per measurement > 0]');
  process.exit(2);
}

const wasm = await createWasmEngine();
const load = loadNativeAddon();
const addon = 'addon' in load ? load.addon : undefined;
const native = addon ? createNativeEngine(addon) : undefined;
if (!addon) console.log(`native addon unavailable (${load.reason}); measuring the others only\n`);

// Random canonical inputs: a pool of pairs, cycled through.
const POOL = 4096;
const values = Array.from({ length: 2 * POOL }, () => {
  const b = crypto.getRandomValues(new Uint8Array(32));
  return BigInt(`0x${Buffer.from(b).toString('hex')}`) % FR_MODULUS;
});
const pairBytes = new Uint8Array(64 * POOL);
values.forEach((v, i) => {
  writeBigInt32(pairBytes, 32 * i, v);
});
const elements = values.map((_, i) => pairBytes.subarray(32 * i, 32 * i + 32));

/** Runs fn(i) (which hashes `per` pairs) until `seconds` have passed; returns pair hashes per second. */
function measure(fn, per) {
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  let i = 0;
  const start = performance.now();
  let now = start;
  while (now < deadline) {
    for (let j = 0; j < 16; j++) {
      fn(i);
      i = (i + 1) % POOL;
      n += per;
    }
    now = performance.now();
  }
  return n / ((now - start) / 1000);
}

const batchCall = (engine, size) => {
  const out = new Uint8Array(32 * size);
  const slots = POOL / size;
  return (i) => engine.hashBatch(pairBytes.subarray(64 * size * (i % slots), 64 * size * ((i % slots) + 1)), 2, out);
};

/** [label, fn, pairs per call, native kernel or undefined] */
const impls = [];
if (native) {
  impls.push(['native single, hashPair(bigint, bigint)', (i) => native.hashPair(values[2 * i], values[2 * i + 1]), 1]);
  impls.push([
    'native single, hashBytes([32 B, 32 B])',
    (i) => native.hashBytes([elements[2 * i], elements[2 * i + 1]]),
    1,
  ]);
  impls.push(['native batch of 64 pairs', batchCall(native, 64), 64]);
  impls.push(['native batch of 1024 pairs', batchCall(native, 1024), 1024]);
  for (const k of ['mulx-adx', 'portable']) {
    try {
      addon.setKernel(k);
      impls.push([`native batch of 1024 pairs, ${k} kernel`, batchCall(native, 1024), 1024, k]);
    } catch {
      // kernel not supported on this CPU
    }
  }
  addon.setKernel('best');
}
impls.push(['bb.js WASM, hashPair(bigint, bigint)', (i) => wasm.hashPair(values[2 * i], values[2 * i + 1]), 1]);
impls.push(['bb.js WASM, hashBytes([32 B, 32 B])', (i) => wasm.hashBytes([elements[2 * i], elements[2 * i + 1]]), 1]);
impls.push(['@zkpassport/poseidon2 (pure TS)', (i) => zkPassportHash([values[2 * i], values[2 * i + 1]]), 1]);

// Same answer everywhere before timing anything.
const CHECK = 0x1234n;
const CHECK_R = 0x5678n;
const expected = wasm.hashPair(CHECK, CHECK_R);
const checkBytes = new Uint8Array(64);
writeBigInt32(checkBytes, 0, CHECK);
writeBigInt32(checkBytes, 32, CHECK_R);
const answers = { 'bb.js WASM': expected, '@zkpassport/poseidon2': zkPassportHash([CHECK, CHECK_R]) };
if (native) {
  answers['native single'] = native.hashPair(CHECK, CHECK_R);
  const batch = native.hashBatch(new Uint8Array(Array.from({ length: 16 }, () => [...checkBytes]).flat()), 2);
  answers['native batch'] = BigInt(`0x${Buffer.from(batch.subarray(32 * 15)).toString('hex')}`);
}
for (const [name, got] of Object.entries(answers)) {
  if (got !== expected) {
    console.error(`${name} gives 0x${got.toString(16)} for (0x1234, 0x5678), bb.js WASM 0x${expected.toString(16)}`);
    process.exit(1);
  }
}

const rates = impls.map(() => []);
for (let r = 0; r < reps; r++) {
  impls.forEach(([, fn, per, kernel], k) => {
    if (kernel) addon.setKernel(kernel);
    fn(0); // warm
    rates[k].push(measure(fn, per));
    if (kernel) addon.setKernel('best');
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const medians = rates.map(median);
const wasmIdx = impls.findIndex(([label]) => label.startsWith('bb.js WASM, hashBytes'));
const wasmRate = medians[wasmIdx];

console.log(
  `Poseidon2 pair hashes/s, ${reps} interleaved reps x ${seconds} s, median; Node ${process.version}` +
    (addon ? `, native kernel ${addon.kernel()}` : ''),
);
console.log(
  `${'implementation'.padEnd(52)} ${'hashes/s'.padStart(12)} ${'µs/hash'.padStart(9)} ${'vs WASM'.padStart(8)}`,
);
impls.forEach(([label], k) => {
  const m = medians[k];
  console.log(
    `${label.padEnd(52)} ${Math.round(m).toLocaleString('en-US').padStart(12)} ${(1e6 / m).toFixed(2).padStart(9)} ${`${(m / wasmRate).toFixed(2)}x`.padStart(8)}`,
  );
});
console.log(
  JSON.stringify({
    bench: 'poseidon2',
    node: process.version,
    kernel: addon?.kernel() ?? null,
    reps,
    seconds,
    medians: Object.fromEntries(impls.map(([label], k) => [label, Math.round(medians[k])])),
    runs: Object.fromEntries(impls.map(([label], k) => [label, rates[k].map(Math.round)])),
  }),
);
benchResult(
  'poseidon2',
  impls
    .map(([label], k) => ({
      name: `${label} hashes/s`,
      value: Math.round(medians[k]),
      unit: 'hashes/s',
      baseline: { name: 'bb.js WASM', value: Math.round(wasmRate) },
      ratio: medians[k] / wasmRate,
    }))
    .filter((_, k) => k !== wasmIdx),
  { engine: addon ? `native (${addon.kernel()})` : 'no native addon', reps, seconds },
);
