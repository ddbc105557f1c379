// Blob and KZG work of a checkpoint published to L1, beside a sha256 of the same 128 KiB measured in the same run.
//
//   npm run build && node bench/blobs/run.js [reps=7]
//
// Figures (median over reps): BlobKzg.create (the KZG context with its precomputation tables, once per process),
// checkpointBlobs for one full blob (4096 fields: serialisation, one KZG commitment, hashes), epochBlobInputs for
// an epoch of one single-blob checkpoint (commitment, sponge, one KZG opening, batching), and sha256 of 131072 bytes
// as the baseline. Inputs are random field elements, fixed per run.
import { createHash, randomBytes } from 'node:crypto';
import { FR_MODULUS } from '../../dist/core/fr.js';
import { BlobKzg } from '../../dist/daemon/l1/blob-kzg.js';
import { benchResult } from '../bench-result.js';

const reps = Number(process.argv[2] ?? 7);
if (!(reps >= 1)) {
  console.error('usage: node bench/blobs/run.js [reps >= 1]');
  process.exit(2);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

const fields = Array.from({ length: 4096 }, () => {
  const b = crypto.getRandomValues(new Uint8Array(32));
  return BigInt(`0x${Buffer.from(b).toString('hex')}`) % FR_MODULUS;
});
const bytes = randomBytes(131072);

let kzg;
const createMs = time(() => {
  kzg = BlobKzg.create();
});

const blobMs = [];
const epochMs = [];
const shaMs = [];
for (let r = 0; r < reps; r++) {
  blobMs.push(time(() => kzg.checkpointBlobs(fields)));
  epochMs.push(time(() => kzg.epochBlobInputs([fields])));
  // The baseline is tiny: time 100 digests and divide, so timer resolution does not dominate.
  shaMs.push(
    time(() => {
      for (let i = 0; i < 100; i++) createHash('sha256').update(bytes).digest();
    }) / 100,
  );
}

const sha = median(shaMs);
const rows = [
  ['BlobKzg.create', createMs],
  ['checkpointBlobs, 1 blob of 4096 fields', median(blobMs)],
  ['epochBlobInputs, 1 checkpoint of 1 blob', median(epochMs)],
  ['sha256 of 131072 bytes (baseline)', sha],
];
for (const [name, ms] of rows) console.log(`${name.padEnd(42)} ${ms.toFixed(3).padStart(10)} ms`);

const againstSha = (name, ms) => ({
  name,
  value: ms,
  unit: 'ms',
  baseline: { name: 'sha256 of 128 KiB', value: sha },
  ratio: ms / sha,
  lowerIsBetter: true,
});
benchResult(
  'blobs',
  [
    againstSha('checkpointBlobs, 1 blob', median(blobMs)),
    againstSha('epochBlobInputs, 1 checkpoint of 1 blob', median(epochMs)),
    { name: 'BlobKzg.create', value: createMs, unit: 'ms', lowerIsBetter: true },
  ],
  { reps },
);
