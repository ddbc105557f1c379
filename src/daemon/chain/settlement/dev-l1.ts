import { NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP } from '../../../core/constants.js';
import { newSha256 } from '../../../core/crypto/sha256-to-field.js';
import { FR_MODULUS } from '../../../core/fr.js';
import type { SlotClock } from '../../sequencer/slot-clock.js';
import type { ChainStore } from '../../store/chain-store.js';
import type { L1PublishedData } from '../../store/checkpoint-repository.js';
import type { CheckpointPublication, InboxPosition, L1ContractAddresses, SettlementLayer } from './settlement-layer.js';

/** Seconds per block of the simulated L1 (Ethereum's slot time). */
export const DEV_L1_BLOCK_TIME = 12;

export interface DevL1Options {
  readonly store: ChainStore;
  readonly slots: SlotClock;
  /** Seconds after an epoch ends before its proof lands. */
  readonly proofDelay: number;
  /** Seconds after a proof lands before it is finalized. */
  readonly finalityDelay: number;
  /** The contracts of the node's real L1 deployment, when it has one (docs/l1.md); else fixed stand-ins. */
  readonly contracts?: L1ContractAddresses;
  /**
   * Prove each checkpoint `proofDelay` seconds after it is published instead of waiting for its epoch to end:
   * the instant sequencer's blocks run ahead of the wall clock, and its users want the proven tip promptly.
   */
  readonly proveEachCheckpoint?: boolean;
}

/** A message the dev inbox refuses. */
export class InboxMessageError extends Error {
  override name = 'InboxMessageError';
}

/**
 * The local L1 stand-in of dev mode (docs/dev-chain.md). Checkpoints "land" on a simulated L1 when published;
 * an epoch is proven `proofDelay` seconds after it ends (with `proveEachCheckpoint`, each checkpoint that long
 * after it is published) and finalized `finalityDelay` seconds after that;
 * the Inbox takes messages for the first checkpoint whose first block is not built yet, giving each the leaf
 * index the message tree will hold it at (1024 per checkpoint, as the Inbox contract assigns them).
 * Its state lives in the chain store's tables, so it survives restarts with the chain.
 */
export class DevL1 implements SettlementLayer {
  constructor(private readonly o: DevL1Options) {}

  publishCheckpoint(_c: CheckpointPublication): L1PublishedData {
    const now = Math.floor(this.o.slots.now() / 1000);
    const blockNumber = BigInt(
      Math.max(0, Math.floor((now - this.o.slots.timing.genesisTime) / DEV_L1_BLOCK_TIME)) + 1,
    );
    const hash = newSha256().update(`l2node dev L1 block ${blockNumber}`).digest().toString('hex');
    return { blockNumber, timestamp: BigInt(now), blockHash: `0x${hash}` };
  }

  inboxMessages(checkpointNumber: number): bigint[] {
    return this.o.store.inboxMessages.forCheckpoint(checkpointNumber).map((m) => m.leaf);
  }

  findInboxMessage(leaf: bigint): InboxPosition | undefined {
    const m = this.o.store.inboxMessages.find(leaf);
    return m ? { index: m.index, checkpoint: m.checkpoint } : undefined;
  }

  /** Sends a message as the L1 Inbox would (nodeDev_sendL1ToL2Message); it enters the tree with its checkpoint. */
  sendL1ToL2Message(leaf: bigint): InboxPosition {
    if (leaf <= 0n || leaf >= FR_MODULUS) {
      throw new InboxMessageError('An L1-to-L2 message must be a non-zero field element (zero leaves are padding)');
    }
    const perCheckpoint = BigInt(NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP);
    return this.o.store.db.transaction(() => {
      let checkpoint = this.openCheckpoint();
      const last = this.o.store.inboxMessages.lastPosition();
      let index = BigInt(checkpoint - 1) * perCheckpoint;
      if (last && last.checkpoint === checkpoint) index = last.index + 1n;
      if (index >= BigInt(checkpoint) * perCheckpoint) {
        // This checkpoint's tree is full: the message waits for the next one.
        checkpoint += 1;
        index = BigInt(checkpoint - 1) * perCheckpoint;
        this.o.store.meta.set('inboxOpenCheckpoint', checkpoint);
      }
      this.o.store.inboxMessages.insert({ index, leaf, checkpoint });
      return { index, checkpoint };
    })();
  }

  /**
   * The node's L1 deployment, or fixed stand-in addresses (the last 20 bytes of sha256 of
   * "l2node dev L1 <contract>"): without an L1 there are no contracts, but clients expect the full set
   * (docs/dev-chain.md).
   */
  l1ContractAddresses(): L1ContractAddresses {
    return this.o.contracts ?? DEV_L1_CONTRACT_ADDRESSES;
  }

  provenCheckpoint(): number {
    return Math.max(this.settledCheckpoint(this.o.proofDelay), this.forkedCheckpoint());
  }

  finalizedCheckpoint(): number {
    return Math.max(this.settledCheckpoint(this.o.proofDelay + this.o.finalityDelay), this.forkedCheckpoint());
  }

  /**
   * On a fork (start --fork-url), the checkpoint of the fork block: the history it took from the upstream is
   * final here (the fork never unwinds below it), so wallets skip to it instead of syncing the upstream's blocks
   * from genesis (a lazy fork does not serve those in ranges). 0 on any other chain.
   */
  private forkedCheckpoint(): number {
    const forkBlock = this.o.store.meta.get('forkBlock');
    return forkBlock === undefined ? 0 : (this.o.store.blocks.get(forkBlock)?.checkpoint ?? 0);
  }

  /** The last checkpoint of the last epoch that ended at least `delay` seconds ago. */
  private settledCheckpoint(delay: number): number {
    const { slots } = this.o;
    if (this.o.proveEachCheckpoint) {
      return this.o.store.checkpoints.latestPublishedBy(Math.floor(slots.now() / 1000) - delay);
    }
    const { epochDuration } = slots.timing;
    // Epochs wholly before the slot of `delay` seconds ago (slot lengths can change at runtime).
    const epochsEnded = slots.epochOf(slots.slotAt(slots.now() - delay * 1000));
    if (epochsEnded <= 0) return 0;
    return this.o.store.checkpoints.latestUpToSlot(epochsEnded * epochDuration - 1);
  }

  /**
   * The checkpoint new messages go to: never one whose first block exists (its message set is final), nor one
   * before the last message sent (the tree fills in order).
   */
  private openCheckpoint(): number {
    const store = this.o.store;
    const latest = store.latestBlockNumber();
    const started = latest === 0 ? 0 : (store.blocks.get(latest)?.checkpoint ?? 0);
    return Math.max(store.meta.get('inboxOpenCheckpoint') ?? 1, started + 1);
  }
}

const CONTRACTS = [
  'rollup',
  'registry',
  'inbox',
  'outbox',
  'feeJuice',
  'stakingAsset',
  'feeJuicePortal',
  'coinIssuer',
  'rewardDistributor',
  'governanceProposer',
  'governance',
] as const;

export const DEV_L1_CONTRACT_ADDRESSES = Object.fromEntries(
  CONTRACTS.map((name) => [
    `${name}Address`,
    `0x${newSha256().update(`l2node dev L1 ${name}`).digest().toString('hex').slice(-40)}`,
  ]),
) as unknown as L1ContractAddresses;
