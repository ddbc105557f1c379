import type {
  CheckpointPublication,
  InboxPosition,
  L1ContractAddresses,
  SettlementLayer,
} from '../chain/settlement/settlement-layer.js';
import type { ChainStore } from '../store/chain-store.js';
import type { L1PublishedData } from '../store/checkpoint-repository.js';

/**
 * The settlement layer of a follower: the upstream stands in for L1. Its proven and finalized checkpoints are
 * the last ones observed: the upstream's, or the rollup's on a follower with an L1 (the chain caps them at its
 * own checkpoints, so they are never ahead of this node's blocks); its contract addresses are the upstream's,
 * or the deployment's of its own L1; the Inbox is read from the messages that entered this node's message
 * tree. A follower never publishes: checkpoints come from the upstream.
 */
export class UpstreamSettlement implements SettlementLayer {
  private proven = 0;
  private finalized = 0;
  private addresses: L1ContractAddresses | undefined;

  constructor(
    private readonly store: ChainStore,
    private readonly url: string,
    /** The deployment of the follower's own L1 (--registry-address): reported instead of the upstream's. */
    private readonly l1Addresses?: L1ContractAddresses,
  ) {}

  /** The proven and finalized checkpoints as last polled (from the upstream, or from the rollup on L1). */
  observe(settled: { readonly proven: number; readonly finalized: number }): void {
    this.proven = settled.proven;
    this.finalized = settled.finalized;
  }

  /** The upstream's L1 contracts, read at start. */
  setL1ContractAddresses(addresses: L1ContractAddresses): void {
    this.addresses = addresses;
  }

  publishCheckpoint(c: CheckpointPublication): L1PublishedData {
    throw new Error(`A follower does not publish checkpoints: checkpoint ${c.number} comes from ${this.url}`);
  }

  inboxMessages(checkpointNumber: number): bigint[] {
    return (this.store.checkpointL1ToL2Messages(checkpointNumber) ?? []).filter((m) => m !== 0n);
  }

  findInboxMessage(leaf: bigint): InboxPosition | undefined {
    const m = this.store.l1ToL2Messages.find(leaf);
    return m ? { index: m.index, checkpoint: m.checkpoint } : undefined;
  }

  l1ContractAddresses(): L1ContractAddresses {
    if (this.l1Addresses) return this.l1Addresses;
    if (!this.addresses) throw new Error(`The L1 contract addresses of ${this.url} are not known yet`);
    return this.addresses;
  }

  provenCheckpoint(): number {
    return this.proven;
  }

  finalizedCheckpoint(): number {
    return this.finalized;
  }
}
