import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { poseidon2HashBatch } from '../../core/crypto/poseidon2.js';
import type { BatchHasher } from './batch-hasher.js';

/** Layout of each worker's control words in the shared Int32Array. */
export const CONTROL = { STATE: 0, WIDTH: 1, FIRST: 2, COUNT: 3, READY: 4, STRIDE: 8 } as const;
export const STATE = { IDLE: 0, WORK: 1, DONE: 2, FAILED: 3, EXIT: 4 } as const;

export interface HashWorkerData {
  readonly control: SharedArrayBuffer;
  readonly input: SharedArrayBuffer;
  readonly output: SharedArrayBuffer;
  readonly slot: number;
}

export interface ParallelBatchHasherOptions {
  /** Worker threads besides the calling thread (which always takes a share). */
  readonly workers: number;
  /** Batches smaller than this are hashed on the calling thread: a hand-off costs tens of microseconds. */
  readonly minParallelItems?: number;
  /** Items per parallel round; larger batches go in rounds. Bounds the shared buffers (4 x 32 x this for input). */
  readonly capacityItems?: number;
}

/**
 * Spreads large hash batches over worker threads, synchronously: the tree code runs inside SQLite
 * transactions, which cannot await, so the calling thread hands each worker a slice through shared memory,
 * hashes its own slice, then blocks (Atomics.wait) until the workers are done. Batches below
 * `minParallelItems`, and all batches until the workers have loaded, are hashed on the calling thread. The
 * workers load the built output (dist/); from TypeScript sources (tests) the pool stays on the calling thread.
 */
export class ParallelBatchHasher implements BatchHasher {
  private readonly workers: Worker[] = [];
  private readonly ctrl: Int32Array;
  private readonly input: Uint8Array;
  private readonly output: Uint8Array;
  private readonly minItems: number;
  private readonly capacity: number;
  private broken = false;

  constructor(options: ParallelBatchHasherOptions) {
    const n = Math.max(0, Math.floor(options.workers));
    this.minItems = options.minParallelItems ?? 1024;
    this.capacity = options.capacityItems ?? 65536;
    const control = new SharedArrayBuffer(Math.max(1, n) * CONTROL.STRIDE * 4);
    const input = new SharedArrayBuffer(this.capacity * 4 * 32);
    const output = new SharedArrayBuffer(this.capacity * 32);
    this.ctrl = new Int32Array(control);
    this.input = new Uint8Array(input);
    this.output = new Uint8Array(output);
    const script = new URL('./hash-worker.js', import.meta.url);
    if (n === 0 || !existsSync(fileURLToPath(script))) return;
    for (let slot = 0; slot < n; slot++) {
      const worker = new Worker(script, { workerData: { control, input, output, slot } satisfies HashWorkerData });
      worker.on('error', () => {
        this.broken = true;
      });
      worker.unref();
      this.workers.push(worker);
    }
  }

  /** Worker threads that have loaded and can take work now. */
  get readyWorkers(): number {
    if (this.broken) return 0;
    let ready = 0;
    for (let slot = 0; slot < this.workers.length; slot++) {
      if (Atomics.load(this.ctrl, slot * CONTROL.STRIDE + CONTROL.READY) === 1) ready++;
    }
    return ready;
  }

  hashBatch(input: Uint8Array, width: number): Uint8Array {
    const count = input.length / (32 * width);
    const ready = count >= this.minItems ? this.readyWorkers : 0;
    if (ready === 0) return poseidon2HashBatch(input, width);
    const out = Buffer.allocUnsafe(count * 32);
    const itemBytes = 32 * width;
    const round = Math.min(this.capacity, Math.floor(this.input.length / itemBytes));
    for (let first = 0; first < count; first += round) {
      const n = Math.min(round, count - first);
      this.input.set(input.subarray(first * itemBytes, (first + n) * itemBytes));
      this.parallelRound(n, width, ready);
      out.set(this.output.subarray(0, n * 32), first * 32);
    }
    return out;
  }

  private parallelRound(n: number, width: number, ready: number): void {
    const share = Math.ceil(n / (ready + 1));
    let next = 0;
    const started: number[] = [];
    for (let slot = 0; slot < this.workers.length && started.length < ready; slot++) {
      const base = slot * CONTROL.STRIDE;
      if (Atomics.load(this.ctrl, base + CONTROL.READY) !== 1) continue;
      const take = Math.min(share, n - next);
      if (take <= 0) break;
      this.ctrl[base + CONTROL.WIDTH] = width;
      this.ctrl[base + CONTROL.FIRST] = next;
      this.ctrl[base + CONTROL.COUNT] = take;
      Atomics.store(this.ctrl, base + CONTROL.STATE, STATE.WORK);
      Atomics.notify(this.ctrl, base + CONTROL.STATE);
      started.push(slot);
      next += take;
    }
    const itemBytes = 32 * width;
    if (next < n) {
      poseidon2HashBatch(
        this.input.subarray(next * itemBytes, n * itemBytes),
        width,
        this.output.subarray(next * 32, n * 32),
      );
    }
    let failed = false;
    for (const slot of started) {
      const at = slot * CONTROL.STRIDE + CONTROL.STATE;
      while (Atomics.load(this.ctrl, at) === STATE.WORK) Atomics.wait(this.ctrl, at, STATE.WORK);
      if (Atomics.load(this.ctrl, at) === STATE.FAILED) failed = true;
      Atomics.store(this.ctrl, at, STATE.IDLE);
      Atomics.notify(this.ctrl, at);
    }
    if (failed) {
      // A worker could not hash its slice (it cannot happen with valid tree input); redo the round here so the
      // caller gets the engine's own error or a correct result.
      this.broken = true;
      poseidon2HashBatch(this.input.subarray(0, n * itemBytes), width, this.output.subarray(0, n * 32));
    }
  }

  /** Stops the worker threads; each leaves its loop and exits on its own. */
  async close(): Promise<void> {
    const exited = this.workers.map((w) => {
      // Keep the process alive until the worker has left its loop: tearing a worker down mid-hash crashes the
      // native engine's cleanup.
      w.ref();
      return new Promise<void>((resolve) => w.once('exit', () => resolve()));
    });
    for (let slot = 0; slot < this.workers.length; slot++) {
      const at = slot * CONTROL.STRIDE + CONTROL.STATE;
      Atomics.store(this.ctrl, at, STATE.EXIT);
      Atomics.notify(this.ctrl, at);
    }
    await Promise.all(exited);
    this.workers.length = 0;
  }
}
