import type { CheckpointHeader } from '../../../core/block/checkpoint-header.js';
import type { L1PublishedData } from '../../store/checkpoint-repository.js';

/** The rollup's L1 contracts (4.1.2 L1ContractAddresses: required keys, 0x + 40 lowercase hex). */
export interface L1ContractAddresses {
  readonly rollupAddress: string;
  readonly registryAddress: string;
  readonly inboxAddress: string;
  readonly outboxAddress: string;
  readonly feeJuiceAddress: string;
  readonly stakingAssetAddress: string;
  readonly feeJuicePortalAddress: string;
  readonly coinIssuerAddress: string;
  readonly rewardDistributorAddress: string;
  readonly governanceProposerAddress: string;
  readonly governanceAddress: string;
}

/** A completed checkpoint, as it is published to L1. */
export interface CheckpointPublication {
  readonly number: number;
  readonly header: CheckpointHeader;
  /** Archive root after its last block (the rollup stores it). */
  readonly archiveRoot: Buffer;
  /** Its blob payload: every block's blob fields, then the checkpoint end marker. */
  readonly blobFields: readonly bigint[];
}

/** Another proposer's checkpoint, as a node that did not publish it waits for it on L1. */
export interface ForeignCheckpoint {
  readonly number: number;
  readonly archiveRoot: Buffer;
  readonly slot: number;
}

/** Where the inbox put a message: its leaf in the message tree and the checkpoint that inserts it. */
export interface InboxPosition {
  readonly index: bigint;
  readonly checkpoint: number;
}

/**
 * What the chain needs from L1 (the rollup contract, its Inbox, its proofs), behind one interface: dev mode
 * runs a local stand-in (DevL1, docs/dev-chain.md); an L1 client can replace it without touching the chain.
 */
export interface SettlementLayer {
  /**
   * Publishes a checkpoint (the rollup contract's propose); answers where and when it landed. The stand-in
   * answers at once; a real L1 answers once the proposal is mined (and rejects when it is not).
   */
  publishCheckpoint(c: CheckpointPublication): L1PublishedData | Promise<L1PublishedData>;
  /**
   * Where the rollup took another proposer's checkpoint (a committee over the network: its proposer's node
   * publishes it, this node only records it): resolves once the rollup holds checkpoint `c.number` with
   * `c.archiveRoot`, or to undefined when the window of slot `c.slot` passed without it (or the node stops).
   * Absent on the stand-in, where every node says where a checkpoint "landed" (publishCheckpoint).
   */
  awaitCheckpoint?(c: ForeignCheckpoint): Promise<L1PublishedData | undefined>;
  /**
   * The checkpoint header's blobsHash for a blob payload (end marker included). A real L1 commits to the blobs
   * with KZG, as the rollup checks; without it the stand-in hash of the checkpoint builder is used.
   */
  readonly blobsHash?: (blobFields: readonly bigint[]) => bigint;
  /**
   * Set when checkpoints must land on L1 inside their own slot: the sequencer then builds only in the current
   * slot, never ahead of L1 time, and publishes this long before the slot ends.
   */
  readonly publishingTimeMs?: number;
  /**
   * The min fee per L2 gas a checkpoint of `slot` must carry on top of `parentCheckpoint`, when the L1 decides
   * it (the rollup's getManaMinFeeAt); undefined while it is not known yet. Without it the fee model decides.
   */
  manaMinFee?(slot: number, parentCheckpoint: number): bigint | undefined;
  /**
   * The messages the Inbox holds for a checkpoint, in leaf order. A checkpoint's set is final once its first
   * block exists: messages sent after that go to later checkpoints.
   */
  inboxMessages(checkpointNumber: number): bigint[];
  /** Where the Inbox put a message, if it was ever sent. */
  findInboxMessage(leaf: bigint): InboxPosition | undefined;
  /** Where the rollup's contracts are on L1. */
  l1ContractAddresses(): L1ContractAddresses;
  /** The highest proven checkpoint now. */
  provenCheckpoint(): number;
  /** The highest checkpoint proven as of L1's finalized block now. */
  finalizedCheckpoint(): number;
}
