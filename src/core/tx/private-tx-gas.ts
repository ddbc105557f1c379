import {
  DA_GAS_PER_FIELD,
  L2_GAS_PER_CONTRACT_CLASS_LOG,
  L2_GAS_PER_L2_TO_L1_MSG,
  L2_GAS_PER_NOTE_HASH,
  L2_GAS_PER_NULLIFIER,
  L2_GAS_PER_PRIVATE_LOG,
  PRIVATE_TX_L2_GAS_OVERHEAD,
  PUBLIC_TX_L2_GAS_OVERHEAD,
  TX_DA_GAS_OVERHEAD,
} from '../constants.js';
import { Gas } from '../gas/gas.js';

/** Counts of what a tx's private part publishes. */
export interface PrivateTxEffectCounts {
  noteHashes: number;
  nullifiers: number;
  l2ToL1Msgs: number;
  /** emittedLength of each private log. */
  privateLogLengths: readonly number[];
  /** emitted length of each contract class log. */
  contractClassLogLengths: readonly number[];
  /** The tx enqueues public calls: the public tx overhead applies instead of the private one. */
  hasPublicCalls?: boolean;
}

/**
 * The gas a tx's private part uses, from what it publishes: DA gas is 32 per blob field (3 fields of tx
 * overhead, one per note hash, nullifier and message, a log's fields plus its length or address field);
 * L2 gas is the private (or, with public calls, the public) tx overhead plus the 4.1.2 per-effect costs. Used by the tx builder for the
 * kernel's `gasUsed`; the real kernel's accounting may differ in details, which only moves the fee.
 */
export function computePrivateTxGasUsed(c: PrivateTxEffectCounts): Gas {
  let fields = c.noteHashes + c.nullifiers + c.l2ToL1Msgs;
  for (const n of c.privateLogLengths) fields += n + 1;
  for (const n of c.contractClassLogLengths) fields += n + 1;
  const da = TX_DA_GAS_OVERHEAD + DA_GAS_PER_FIELD * fields;
  const l2 =
    (c.hasPublicCalls ? PUBLIC_TX_L2_GAS_OVERHEAD : PRIVATE_TX_L2_GAS_OVERHEAD) +
    L2_GAS_PER_NOTE_HASH * c.noteHashes +
    L2_GAS_PER_NULLIFIER * c.nullifiers +
    L2_GAS_PER_L2_TO_L1_MSG * c.l2ToL1Msgs +
    L2_GAS_PER_PRIVATE_LOG * c.privateLogLengths.length +
    L2_GAS_PER_CONTRACT_CLASS_LOG * c.contractClassLogLengths.length;
  return new Gas(da, l2);
}
