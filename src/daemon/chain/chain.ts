import { BlockHeader } from '../../core/block/block-header.js';
import type { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import { L2Block } from '../../core/block/l2-block.js';
import type { BlockParameter } from '../../core/block-parameter.js';
import type { ChainStore } from '../store/chain-store.js';
import type { CheckpointSignatures } from '../store/checkpoint-attestation-repository.js';
import type { CheckpointRow, L1PublishedData } from '../store/checkpoint-repository.js';
import type { SqliteDatabase } from '../store/node-database.js';
import type { WorldState } from '../world-state/world-state.js';
import { type ApplyBlockInput, applyBlock, type ChainParts } from './apply-block.js';
import type { BlockObserver } from './block-observer.js';
import { type ChainEventName, ChainEvents } from './chain-events.js';
import { ChainTips } from './chain-tips.js';
import type { L2Tips } from './l2-tips.js';
import type { SettlementLayer } from './settlement/settlement-layer.js';
import { type UnwindOptions, unwindBlocks } from './unwind-blocks.js';

/** A checkpoint the sequencer finished: its blocks are stored; it is about to be published. */
export interface CompletedCheckpoint {
  readonly number: number;
  readonly header: CheckpointHeader;
  readonly firstBlock: number;
  readonly lastBlock: number;
  readonly slot: number;
  /** Archive root after its last block. */
  readonly archiveRoot: Buffer;
  /** Its blob payload: every block's blob fields, then the checkpoint end marker. */
  readonly blobFields: readonly bigint[];
  /** Its proposer's signature and the committee's attestations, when a committee runs (src/daemon/validators). */
  readonly signatures?: CheckpointSignatures;
}

export interface ChainOptions {
  readonly db: SqliteDatabase;
  readonly worldState: WorldState;
  readonly store: ChainStore;
  readonly settlement: SettlementLayer;
  /** Where a listener that threw is reported. */
  readonly onListenerError?: (event: ChainEventName, err: unknown) => void;
}

/**
 * The chain: blocks (through the one applyBlock path), checkpoints on L1, the proven and finalized marks, and
 * the events that announce them. The sequencer and the follower write through it; queries read its store.
 */
export class Chain {
  readonly events: ChainEvents;
  readonly tips: ChainTips;
  private readonly observers: BlockObserver[] = [];
  private readonly parts: ChainParts;

  constructor(readonly o: ChainOptions) {
    this.events = new ChainEvents(o.onListenerError);
    this.tips = new ChainTips(o.store, o.worldState.getGenesisBlockHash());
    this.parts = {
      db: o.db,
      worldState: o.worldState,
      store: o.store,
      observers: this.observers,
      events: this.events,
      tips: this.tips,
    };
  }

  get store(): ChainStore {
    return this.o.store;
  }

  get worldState(): WorldState {
    return this.o.worldState;
  }

  get settlement(): SettlementLayer {
    return this.o.settlement;
  }

  /** A service that must change with every block (the mempool); called inside each block's transaction. */
  addObserver(observer: BlockObserver): void {
    this.observers.push(observer);
  }

  applyBlock(input: ApplyBlockInput): void {
    applyBlock(this.parts, input);
  }

  unwindTo(target: number, options?: UnwindOptions): L2Block[] {
    return unwindBlocks(this.parts, target, options);
  }

  readTips(): L2Tips {
    return this.tips.read();
  }

  get latestBlockNumber(): number {
    return this.o.store.latestBlockNumber();
  }

  /** The last slot that holds a block or a published checkpoint: a new checkpoint needs a later slot. */
  lastUsedSlot(): number {
    const { store } = this.o;
    const latest = store.latestBlockNumber();
    const lastBlockSlot = latest === 0 ? 0 : (store.getHeader(latest)?.slotNumber ?? 0);
    return Math.max(lastBlockSlot, store.checkpoints.latest()?.slot ?? 0);
  }

  /** The timestamp of the latest block (seconds); 0 at genesis. */
  lastBlockTimestamp(): bigint {
    const latest = this.latestBlockNumber;
    return latest === 0 ? 0n : (this.o.store.getHeader(latest)?.globalVariables.timestamp ?? 0n);
  }

  /**
   * The block a query's block parameter names on this chain, as a number: a number as given (reading it
   * tells whether it exists), `latest` the tip, a hash one of this chain's blocks, the genesis hash block 0.
   * Undefined for a hash this chain does not have.
   */
  resolveBlock(p: BlockParameter): number | undefined {
    if (p === 'latest') return this.latestBlockNumber;
    if (typeof p === 'number') return p;
    if (p.value === this.o.worldState.getGenesisBlockHash()) return 0;
    return this.o.store.blocks.getByHash(p.toBuffer())?.number;
  }

  /**
   * Block `n`, undefined past the tip; block 0 is the genesis block: empty, on the initial state, its archive
   * the genesis archive (one leaf, its own hash), which block 1's lastArchive repeats.
   */
  getBlock(n: number): L2Block | undefined {
    if (n !== 0) return this.o.store.getBlock(n);
    const g = L2Block.empty(this.genesisHeader());
    return new L2Block(
      this.o.worldState.getGenesisArchive(),
      g.header,
      g.body,
      g.checkpointNumber,
      g.indexWithinCheckpoint,
    );
  }

  /** The header of block `n`, undefined past the tip; block 0's is the genesis header. */
  getHeader(n: number): BlockHeader | undefined {
    return n === 0 ? this.genesisHeader() : this.o.store.getHeader(n);
  }

  /** The genesis header: empty, on the initial state of the trees (its hash is the genesis block hash). */
  genesisHeader(): BlockHeader {
    return BlockHeader.empty({ state: this.o.worldState.getInitialStateReference() });
  }

  /** Records a finished checkpoint once it is published on L1 (`l1`: where): its blocks become checkpointed. */
  recordPublished(c: CompletedCheckpoint, l1: L1PublishedData): CheckpointRow {
    const row: CheckpointRow = {
      number: c.number,
      firstBlock: c.firstBlock,
      lastBlock: c.lastBlock,
      slot: c.slot,
      header: c.header.toBuffer(),
      archiveRoot: c.archiveRoot,
      l1,
    };
    this.o.db.transaction(() => {
      this.o.store.checkpoints.insert(row);
      if (c.signatures) this.o.store.checkpointAttestations.insert(c.number, c.signatures);
    })();
    this.events.emit('tips', this.tips.read());
    return row;
  }

  /**
   * Records a checkpoint published by another node (a follower takes its upstream's, checked against its own
   * blocks): its blocks become checkpointed.
   */
  recordCheckpoint(row: CheckpointRow, signatures?: CheckpointSignatures): void {
    this.o.db.transaction(() => {
      this.o.store.checkpoints.insert(row);
      if (signatures) this.o.store.checkpointAttestations.insert(row.number, signatures);
    })();
    this.events.emit('tips', this.tips.read());
  }

  /**
   * Takes the proven and finalized checkpoints from the settlement layer; the world state's finality follows
   * the finalized tip. Returns whether a tip moved.
   */
  syncSettlement(): boolean {
    const { store, settlement, worldState } = this.o;
    const checkpointed = store.checkpoints.latest()?.number ?? 0;
    const proven = Math.min(settlement.provenCheckpoint(), checkpointed);
    const finalized = Math.min(settlement.finalizedCheckpoint(), proven);
    if (
      proven === (store.meta.get('provenCheckpoint') ?? 0) &&
      finalized === (store.meta.get('finalizedCheckpoint') ?? 0)
    ) {
      return false;
    }
    this.o.db.transaction(() => {
      store.meta.set('provenCheckpoint', proven);
      store.meta.set('finalizedCheckpoint', finalized);
      const lastFinal = finalized > 0 ? (store.checkpoints.get(finalized)?.lastBlock ?? 0) : 0;
      worldState.setFinalized(lastFinal);
    })();
    this.events.emit('tips', this.tips.read());
    return true;
  }
}
