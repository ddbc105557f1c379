import { Tx } from '../../core/tx/tx.js';

/**
 * A tx sent by the main thread with Tx.toBufferForTransfer: without a hash it is computed here when first used.
 * Hashing a tx with public calls costs tens of milliseconds of Poseidon2; on the main thread, for each of 8
 * clients' simulations, it held the event loop that long per call. Its own file: the tx checks' job imports it
 * without the public processor (and the AVM) that the other jobs bring.
 */
export function receivedTx(bytes: Uint8Array, hashKnown: boolean): Tx {
  const received = Tx.fromBuffer(bytes);
  return hashKnown ? received : received.withoutClaimedHash();
}
