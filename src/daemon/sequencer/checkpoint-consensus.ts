import type { AztecAddress } from '../../core/aztec-address.js';
import type { EthAddress } from '../../core/eth-address.js';
import type { CompletedCheckpoint } from '../chain/chain.js';
import type { CheckpointSignatures } from '../store/checkpoint-attestation-repository.js';

/** What the proposer of a slot puts in its checkpoint's headers (its keystore entry). */
export interface ProposerDuty {
  readonly coinbase: EthAddress;
  readonly feeRecipient: AztecAddress;
}

/**
 * The validator committee as the sequencer sees it (src/daemon/validators, docs/validators.md). Without one the
 * dev sequencer builds every slot and publishes every checkpoint itself; with one it builds only the slots whose
 * proposer's key is here, and publishes a checkpoint only with its proposer's signature and a quorum of
 * attestations.
 */
export interface CheckpointConsensus {
  /**
   * Whether the committee signs over P2P: a checkpoint without a quorum then keeps its blocks until the
   * network's prune point (a late quorum may still make it), as every other node does.
   */
  readonly overNetwork: boolean;
  /** Whether the proposer of `slot` has its key here (the slot's blocks are this node's to publish). */
  holdsProposerKey(slot: number): boolean;
  /** The duty of this node's proposer for `slot`, or undefined when the slot's proposer has no key here. */
  proposerFor(slot: number): ProposerDuty | undefined;
  /**
   * Signs a finished checkpoint as its proposer and collects the committee's attestations; undefined when it
   * cannot be published (no quorum, or the proposer cannot sign it).
   */
  seal(checkpoint: CompletedCheckpoint): Promise<CheckpointSignatures | undefined>;
}
