/**
 * Worker thread of ParallelBatchHasher: waits on a shared control word, hashes its share of a batch straight
 * from the shared input into the shared output, and signals completion. Loaded from the built output only
 * (dist/daemon/world-state/hash-worker.js).
 *
 * Between jobs it waits with Atomics.waitAsync, idle in its event loop rather than blocked: terminating a
 * thread blocked in Atomics.wait after it loaded the native Poseidon2 addon aborts the whole process (V8
 * "Check failed: (location_) != nullptr", seen with Node 24.12), and an idle one terminates cleanly.
 */
import { workerData } from 'node:worker_threads';
import { poseidon2HashBatch } from '../../core/crypto/poseidon2.js';
import { CONTROL, type HashWorkerData, STATE } from './parallel-batch-hasher.js';

const { control, input, output, slot } = workerData as HashWorkerData;
const ctrl = new Int32Array(control);
const base = slot * CONTROL.STRIDE;
const at = base + CONTROL.STATE;
const inBytes = new Uint8Array(input);
const outBytes = new Uint8Array(output);

async function serve(): Promise<void> {
  for (;;) {
    let state = Atomics.load(ctrl, at);
    while (state !== STATE.WORK && state !== STATE.EXIT) {
      const wait = Atomics.waitAsync(ctrl, at, state);
      if (wait.async) await wait.value;
      state = Atomics.load(ctrl, at);
    }
    if (state === STATE.EXIT) return;
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
}

// A pending Atomics.waitAsync does not keep a thread's event loop alive; this timer does, until EXIT.
const keepAlive = setInterval(() => {}, 1 << 30);
Atomics.store(ctrl, base + CONTROL.READY, 1);
await serve();
clearInterval(keepAlive);
