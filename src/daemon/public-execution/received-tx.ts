import { Tx } from '../../core/tx/tx.js';

/**
 * A tx sent by the main thread with Tx.toBufferForTransfer: without a hash it is computed here when first used.
 * Hashing a tx with public calls costs tens of milliseconds of Poseidon2; on the main thread, for each of 8
 * clients' simulations, it held the event loop that long per call. A file of its own: the tx validation jobs use
 * it too, and their main-thread half is loaded by every start, which must not load the AVM (the public
 * processor's jobs) with it.
 */
export function receivedTx(bytes: Uint8Array, hashKnown: boolean): Tx {
  const received = Tx.fromBuffer(bytes);
  return hashKnown ? received : received.withoutClaimedHash();
}
