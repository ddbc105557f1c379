import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { DasContextJs } from '@crate-crypto/node-eth-kzg';

/**
 * The KZG thread (see kzg-thread.ts): it builds node-eth-kzg's context (the trusted setup, about 1.2 s of CPU)
 * here, off the event loop, then answers one KZG operation at a time. This file has no relative imports: it runs
 * from the sources too (tests), through Node's type stripping.
 */

/** The operations of node-eth-kzg's context the node uses. */
export type KzgOp = 'blobToKzgCommitment' | 'computeBlobKzgProof' | 'computeKzgProof' | 'verifyKzgProof';

export interface KzgRequest {
  readonly id: number;
  readonly op: KzgOp;
  readonly args: readonly Uint8Array[];
  /** A synchronous call: the answer goes to the sync port, then this flag is set to 1 and notified. */
  readonly done?: Int32Array;
}

export interface KzgReply {
  readonly id: number;
  readonly result?: Uint8Array | Uint8Array[] | boolean;
  readonly error?: string;
}

/** The first message of the thread: the context is built (in `ms`), or could not be (`error`). */
export interface KzgReady {
  readonly ready: true;
  readonly ms: number;
  readonly error?: string;
}

export interface KzgWorkerData {
  /** Where the answers of synchronous calls go; the main thread reads them with receiveMessageOnPort. */
  readonly syncReplies: MessagePort;
}

function run(kzg: DasContextJs, op: KzgOp, a: readonly Uint8Array[]): Uint8Array | Uint8Array[] | boolean {
  const [x, y, z, w] = a as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  switch (op) {
    case 'blobToKzgCommitment':
      return kzg.blobToKzgCommitment(x);
    case 'computeBlobKzgProof':
      return kzg.computeBlobKzgProof(x, y);
    case 'computeKzgProof':
      return kzg.computeKzgProof(x, y);
    case 'verifyKzgProof':
      return kzg.verifyKzgProof(x, y, z, w);
  }
}

const port = parentPort as MessagePort;
const { syncReplies } = workerData as KzgWorkerData;
const started = performance.now();
let context: DasContextJs | undefined;
let failure: string | undefined;
try {
  // Without the fixed-base precomputation tables 4.1.2 asks for: they speed up cell proofs, which the node never
  // makes, and cost 0.6 s more to build; a blob commitment takes 36 ms either way (measured here).
  context = DasContextJs.create({ usePrecomp: false });
} catch (err) {
  failure = `the KZG set-up could not be built: ${(err as Error).message}`;
}
port.postMessage({ ready: true, ms: Math.round(performance.now() - started), error: failure } satisfies KzgReady);

port.on('message', (req: KzgRequest) => {
  let reply: KzgReply;
  try {
    if (!context) throw new Error(failure);
    reply = { id: req.id, result: run(context, req.op, req.args) };
  } catch (err) {
    reply = { id: req.id, error: (err as Error).message };
  }
  if (req.done) {
    syncReplies.postMessage(reply);
    Atomics.store(req.done, 0, 1);
    Atomics.notify(req.done, 0);
  } else port.postMessage(reply);
});
