import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { KzgOp, KzgReady, KzgReply, KzgRequest, KzgWorkerData } from './kzg-worker.js';

/** Run from the sources (tests), the worker is the .ts file, which Node runs by stripping its types. */
const WORKER_FILE = new URL(import.meta.url.endsWith('.ts') ? './kzg-worker.ts' : './kzg-worker.js', import.meta.url);

/**
 * How long a synchronous call waits for the thread: its KZG set-up first (seconds on a busy machine), then one
 * operation (tens of ms). Only a thread that died (it cannot tell while the caller's thread waits) takes this long.
 */
const SYNC_CALL_LIMIT_MS = 300_000;

type Result = Uint8Array | Uint8Array[] | boolean;

/**
 * node-eth-kzg's context on a thread of its own (kzg-worker.ts), so that building it, about 1.2 s of CPU (20 s
 * on a loaded machine), never stalls the event loop. Started at the first call or at `start()`. Operations go
 * there either asynchronously (`call`) or synchronously (`callSync`, for the callers that must answer at once,
 * such as a checkpoint header's blobs hash and viem's blob sidecars): the caller's thread then waits for that one
 * operation, as it would have computed it itself, and for the set-up only if it is not built yet.
 */
export class KzgThread {
  private worker: Worker | undefined;
  private syncReplies: MessagePort | undefined;
  private readonly pending = new Map<number, { resolve: (r: Result) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  /** Why the thread cannot answer (it failed to build the set-up, died, or was closed). */
  private broken: string | undefined;
  private readyPromise: Promise<number> | undefined;

  /**
   * Starts the thread (once) and resolves when its KZG set-up is built, to the ms it took; rejects when it cannot
   * be built.
   */
  start(): Promise<number> {
    if (this.readyPromise) return this.readyPromise;
    if (this.broken) return Promise.reject(new Error(this.broken));
    const channel = new MessageChannel();
    this.syncReplies = channel.port1;
    const worker = new Worker(WORKER_FILE, {
      workerData: { syncReplies: channel.port2 } satisfies KzgWorkerData,
      transferList: [channel.port2],
    });
    // The thread never keeps the process alive: the node's services do, and close() ends it.
    worker.unref();
    this.worker = worker;
    this.readyPromise = new Promise<number>((resolve, reject) => {
      worker.on('message', (m: KzgReady | KzgReply) => {
        if ('ready' in m) {
          if (m.error) {
            this.broken = m.error;
            reject(new Error(m.error));
          } else resolve(m.ms);
          return;
        }
        const waiter = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.error !== undefined) waiter?.reject(new Error(m.error));
        else waiter?.resolve(m.result as Result);
      });
      const fail = (reason: string) => {
        this.broken ??= reason;
        reject(new Error(this.broken));
        for (const waiter of this.pending.values()) waiter.reject(new Error(this.broken));
        this.pending.clear();
      };
      worker.on('error', (err) => fail(`the KZG thread failed: ${err.message}`));
      worker.on('exit', (code) => fail(`the KZG thread exited (code ${code})`));
    });
    // A start nobody awaits must not leave an unhandled rejection: callers see the failure on their call.
    this.readyPromise.catch(() => undefined);
    return this.readyPromise;
  }

  /** Runs `op` on the thread, off the event loop. */
  call(op: KzgOp, args: readonly Uint8Array[]): Promise<Result> {
    if (this.broken) return Promise.reject(new Error(this.broken));
    void this.start();
    const id = this.nextId++;
    return new Promise<Result>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker?.postMessage({ id, op, args } satisfies KzgRequest);
    });
  }

  /** Runs `op` on the thread and waits for its answer on this thread (see the class comment). */
  callSync(op: KzgOp, args: readonly Uint8Array[]): Result {
    if (this.broken) throw new Error(this.broken);
    void this.start();
    const id = this.nextId++;
    const done = new Int32Array(new SharedArrayBuffer(4));
    this.worker?.postMessage({ id, op, args, done } satisfies KzgRequest);
    if (Atomics.wait(done, 0, 0, SYNC_CALL_LIMIT_MS) === 'timed-out') {
      throw new Error(`the KZG thread did not answer ${op} in ${SYNC_CALL_LIMIT_MS / 1000} s`);
    }
    const reply = receiveMessageOnPort(this.syncReplies as MessagePort)?.message as KzgReply | undefined;
    if (reply?.id !== id) throw new Error(`the KZG thread answered ${op} out of turn`);
    if (reply.error !== undefined) throw new Error(reply.error);
    return reply.result as Result;
  }

  /** Ends the thread; calls after this fail. */
  async close(): Promise<void> {
    this.broken ??= 'the KZG thread is closed';
    this.syncReplies?.close();
    await this.worker?.terminate();
  }
}
