import type { CheckpointHeader } from '../../../core/block/checkpoint-header.js';
import type { L1PublishedData } from '../../store/checkpoint-repository.js';

/** A completed checkpoint, as it is published to L1. */
export interface CheckpointPublication {
  readonly number: number;
  readonly header: CheckpointHeader;
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
  /** Publishes a checkpoint (the rollup contract's propose); answers where and when it landed. */
  publishCheckpoint(c: CheckpointPublication): L1PublishedData;
  /**
   * The messages the Inbox holds for a checkpoint, in leaf order. A checkpoint's set is final once its first
   * block exists: messages sent after that go to later checkpoints.
   */
  inboxMessages(checkpointNumber: number): bigint[];
  /** Where the Inbox put a message, if it was ever sent. */
  findInboxMessage(leaf: bigint): InboxPosition | undefined;
  /** The highest proven checkpoint now. */
  provenCheckpoint(): number;
  /** The highest checkpoint proven as of L1's finalized block now. */
  finalizedCheckpoint(): number;
}
