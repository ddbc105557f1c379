import type { TxEffect } from '../../core/tx/tx-effect.js';
import type { WorldStateFork } from '../world-state/world-state-fork.js';

/**
 * Applies an included tx's effect to the block's fork, as 4.1.2 pads and inserts it: its note hashes and
 * nullifiers in 64 slots each, then its public data writes in order. Refused whole (a WorldStateError) if any
 * part cannot be applied.
 */
export function applyTxEffectToFork(fork: WorldStateFork, effect: TxEffect): void {
  fork.applyTxEffects({
    noteHashes: effect.noteHashes.map((f) => f.value),
    nullifiers: effect.nullifiers.map((f) => f.value),
    publicDataWrites: effect.publicDataWrites.map((w) => ({ leafSlot: w.leafSlot.value, value: w.value.value })),
  });
}
