/**
 * Worker thread of ParallelBatchHasher: waits on a shared control word, hashes its share of a batch straight
 * from the shared input into the shared output, and signals completion. Loaded from the built output only
 * (dist/daemon/world-state/hash-worker.js).
 */
import { workerData } from 'node:worker_threads';
import { poseidon2HashBatch } from '../../core/crypto/poseidon2.js';
import { CONTROL, type HashWorkerData, STATE } from './parallel-batch-hasher.js';

const { control, input, output, slot } = workerData as HashWorkerData;
const ctrl = new Int32Array(control);
const base = slot * CONTROL.STRIDE;
const inBytes = new Uint8Array(input);
const outBytes = new Uint8Array(output);

Atomics.store(ctrl, base + CONTROL.READY, 1);
Atomics.notify(ctrl, base + CONTROL.READY);
const at = base + CONTROL.STATE;
for (;;) {
  // Sleep until the caller posts work (or asks to exit); never spin while it finishes its own share.
  let state = Atomics.load(ctrl, at);
  while (state !== STATE.WORK && state !== STATE.EXIT) {
    Atomics.wait(ctrl, at, state);
    state = Atomics.load(ctrl, at);
  }
  if (state === STATE.EXIT) break;
  const width = ctrl[base + CONTROL.WIDTH] as number;
  const first = ctrl[base + CONTROL.FIRST] as number;
  const count = ctrl[base + CONTROL.COUNT] as number;
  try {
    const itemBytes = 32 * width;
    poseidon2HashBatch(
      inBytes.subarray(first * itemBytes, (first + count) * itemBytes),
      width,
      outBytes.subarray(first * 32, (first + count) * 32),
    );
    Atomics.store(ctrl, at, STATE.DONE);
  } catch {
    Atomics.store(ctrl, at, STATE.FAILED);
  }
  Atomics.notify(ctrl, at);
}
