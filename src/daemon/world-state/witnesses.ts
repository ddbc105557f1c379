import type { IndexedLeafPreimage } from './indexed-leaf.js';
import type { SiblingPath } from './sibling-path.js';

/** A leaf of the nullifier tree with its path (docs/aztec-facts.md section 2.6). `leafPreimage.value` is 0. */
export interface NullifierMembershipWitness {
  readonly index: bigint;
  readonly leafPreimage: IndexedLeafPreimage;
  readonly siblingPath: SiblingPath;
}

/** The low leaf of a public data slot with its path: an exact key match holds the value, otherwise the slot is empty. */
export interface PublicDataWitness {
  readonly index: bigint;
  readonly leafPreimage: IndexedLeafPreimage;
  readonly siblingPath: SiblingPath;
}

/** A leaf index and its path (note hash, archive, L1-to-L2 message witnesses). */
export interface MembershipWitness {
  readonly index: bigint;
  readonly siblingPath: SiblingPath;
}

/** Where a leaf is and the block that inserted it (node_findLeavesIndexes). */
export interface LeafInBlock {
  readonly index: bigint;
  readonly blockNumber: number;
  readonly blockHash: bigint;
}

/** node_getWorldStateSyncStatus (docs/aztec-facts.md section 2.6). */
export interface WorldStateSyncStatus {
  readonly latestBlockNumber: number;
  readonly latestBlockHash: bigint;
  readonly finalizedBlockNumber: number;
  readonly oldestHistoricBlockNumber: number;
  readonly treesAreSynched: boolean;
}
