import type { AztecAddress } from '../../core/aztec-address.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Logger } from '../logging/logger.js';
import {
  bananaFpcAddress,
  genesisPublicData,
  recordGenesisContracts,
  sponsoredFpcAddress,
} from '../sequencer/genesis-funding.js';
import { defaultPrefundedAccounts, type PrefundedAccount } from '../sequencer/prefunded-accounts.js';
import type { SequencerConfig } from '../sequencer/sequencer-settings.js';
import { SlotClock, type SlotEra, type SlotRetiming } from '../sequencer/slot-clock.js';
import { ChainLogQueries } from '../store/chain-log-queries.js';
import { ChainStore } from '../store/chain-store.js';
import type { GenesisImage } from '../store/genesis-image.js';
import type { SqliteDatabase } from '../store/node-database.js';
import type { StorageConfig } from '../store/storage-settings.js';
import type { FollowerConfig } from '../sync/follower-settings.js';
import { type SparseBase, WorldState } from '../world-state/world-state.js';
import { Chain } from './chain.js';
import { DevModeOnlyError } from './dev-mode-only-error.js';
import { FunctionSignatures } from './function-signatures.js';
import { DevL1 } from './settlement/dev-l1.js';
import type { L1ContractAddresses, SettlementLayer } from './settlement/settlement-layer.js';

/** The settings the chain opens with: the dev chain's timing and genesis, the world state history, follower mode. */
export type ChainStateConfig = Readonly<SequencerConfig & StorageConfig & FollowerConfig>;

export interface OpenChainOptions {
  readonly db: SqliteDatabase;
  readonly config: ChainStateConfig;
  readonly clock: Clock;
  readonly log: Logger;
  /** A follower's settlement layer (the upstream), over the chain store; without it, the dev L1 stand-in. */
  readonly settlement?: (store: ChainStore, slots: SlotClock) => SettlementLayer;
  /** The node's L1 deployment (--l1, --l1-rpc-urls): the dev stand-in reports its addresses. */
  readonly l1Contracts?: L1ContractAddresses;
  /**
   * Unix time of slot 0 when a real L1 sets it (the rollup's genesis time): L2 slots must be the rollup's.
   * Without it slot 0 starts one slot before the chain's first start.
   */
  readonly genesisTime?: number;
  /**
   * A fork's slot 0 (--fork-url): the upstream's, so the fork's slots and timestamps continue its own. Unlike an
   * L1's, it only places the slot clock: time warps stay the dev chain's.
   */
  readonly forkGenesisTime?: number;
  /**
   * A lazy fork's base (--fork-mode lazy): the world state opens on the upstream's block and fetches the rest
   * when first read (WorldState.openSparse), instead of holding a chain of its own from genesis.
   */
  readonly sparseBase?: SparseBase;
  /**
   * An in-memory dev node's genesis image (src/daemon/store/genesis-image.ts): when the database was copied from
   * it, genesis is not rebuilt to be checked; else the database is saved as the image once it holds genesis.
   */
  readonly genesisImage?: GenesisImage;
}

/**
 * The chain as the node opens it on its database, before any service runs: the world state (with the prefunded
 * accounts at genesis), the chain store, the slot clock, the settlement layer (the dev L1 stand-in, or a
 * follower's upstream) and the chain over them, with the log queries and function signatures read from its
 * store. The node builds the sequencer, the mempool and the other services on it.
 */
export class ChainState {
  private constructor(
    private readonly db: SqliteDatabase,
    private readonly config: ChainStateConfig,
    readonly chain: Chain,
    readonly slots: SlotClock,
    /** Absent on a follower: its settlement layer is the upstream. */
    private readonly devL1OrUndefined: DevL1 | undefined,
    readonly logs: ChainLogQueries,
    readonly functionSignatures: FunctionSignatures,
    readonly prefundedAccounts: readonly PrefundedAccount[],
    /** The sponsored FPC at genesis (funded, class and instance present), unless --sponsored-fpc false. */
    readonly sponsoredFpc: AztecAddress | undefined,
    /** The BananaFPC funded at genesis (with the default accounts, as on 4.1.2's local network). */
    readonly bananaFpc: AztecAddress | undefined,
  ) {}

  /**
   * Whether L2 time is the L1 rollup's (a node that settles on an L1): slots cannot be retimed nor time warped,
   * as checkpoints must land on L1 in their own slots.
   */
  timeFromL1 = false;

  static open(o: OpenChainOptions): ChainState {
    const { db, config, log } = o;
    const prefunded = config.prefundedAccounts ?? defaultPrefundedAccounts();
    const worldState = openWorldState(db, config, o.sparseBase, o.genesisImage?.loaded);
    const store = new ChainStore(db, (message, details) => log.warn(details, message));
    // A genesis image holds them already (it is saved right after, and its key covers --sponsored-fpc).
    if (!o.genesisImage?.loaded) recordGenesisContracts(store, config);
    // The database holds genesis and nothing else yet (the slot clock writes its start next).
    if (o.genesisImage && !o.genesisImage.loaded) o.genesisImage.save(db);
    const era = recordedSlotEra(store);
    const slots = new SlotClock(
      o.clock,
      {
        genesisTime: genesisTime(
          db,
          store,
          o.clock,
          config.slotDuration,
          o.genesisTime,
          o.forkGenesisTime ?? config.genesisTime,
        ),
        slotDuration: config.slotDuration,
        blocksPerSlot: config.blocksPerSlot,
        epochDuration: config.epochDuration,
      },
      era,
      store.meta.get('timeWarpMs') ?? 0,
    );
    // Timing changed at runtime before a restart: the configured timing takes over from the next slot.
    if (era && (era.slotDuration !== config.slotDuration || era.blocksPerSlot !== config.blocksPerSlot)) {
      slots.retime({ slotDuration: config.slotDuration, blocksPerSlot: config.blocksPerSlot });
      recordSlotEra(db, store, slots.latestEra);
    }
    const settlement = o.settlement
      ? o.settlement(store, slots)
      : new DevL1({
          store,
          slots,
          proofDelay: config.proofDelay,
          finalityDelay: config.finalityDelay,
          contracts: o.l1Contracts,
          proveEachCheckpoint: config.sequencerMode === 'instant',
        });
    const devL1 = settlement instanceof DevL1 ? settlement : undefined;
    const chain = new Chain({
      db,
      worldState,
      store,
      settlement,
      onListenerError: (event, err) => log.error({ err, event }, `a ${event} listener failed`),
    });
    const state = new ChainState(
      db,
      config,
      chain,
      slots,
      devL1,
      new ChainLogQueries(store),
      new FunctionSignatures(store.functionSignatures),
      prefunded,
      sponsoredFpcAddress(config),
      bananaFpcAddress(config),
    );
    state.timeFromL1 = o.genesisTime !== undefined;
    const tips = chain.readTips();
    log.info(
      {
        genesisBlockHash: tips.proposed.number === 0 ? tips.proposed.hash : undefined,
        blockNumber: tips.proposed.number,
        sequencerMode: config.sequencerMode,
        slotDuration: config.slotDuration,
        blocksPerSlot: config.blocksPerSlot,
        epochDuration: config.epochDuration,
      },
      config.syncFrom
        ? `chain open at block ${tips.proposed.number} (following ${config.syncFrom})`
        : `chain open at block ${tips.proposed.number} (${config.sequencerMode} sequencer, ${config.slotDuration} s slots, ${config.blocksPerSlot} blocks per slot)`,
    );
    return state;
  }

  get worldState(): WorldState {
    return this.chain.worldState;
  }

  get store(): ChainStore {
    return this.chain.store;
  }

  get devL1(): DevL1 {
    if (!this.devL1OrUndefined && this.timeFromL1) {
      throw new DevModeOnlyError(
        `This node settles on a real L1: send L1-to-L2 messages to its Inbox contract ${this.chain.settlement.l1ContractAddresses().inboxAddress} (sendL2Message), or bridge through its FeeJuice portal (docs/l1.md)`,
      );
    }
    if (!this.devL1OrUndefined) {
      throw new DevModeOnlyError(
        `This node follows ${this.config.syncFrom}: it has no dev L1 stand-in; send L1-to-L2 messages to the node it follows`,
      );
    }
    return this.devL1OrUndefined;
  }

  /**
   * Changes the slot timing from the next slot on (nodeAdmin_setConfig) and records it, so slot numbers keep
   * increasing across a restart. Returns the slot the new timing starts at.
   */
  retimeSlots(change: SlotRetiming): number {
    const from = this.slots.retime(change);
    recordSlotEra(this.db, this.chain.store, this.slots.latestEra);
    return from;
  }

  /**
   * nodeDev_increaseTime: moves L2 time by `seconds`, recorded so a restart keeps it. Slots, block timestamps, the
   * mempool's expiry check and the dev L1's proofs all read L2 time. Returns L2 time now (seconds).
   *
   * Forward, it means what aztec.js's `warpL2TimeAtLeastBy` means: the next block is at least `seconds` after
   * the latest block, and after L2 time now. Blocks can run ahead of the clock (nodeDev_mineBlocks puts each in
   * a slot of its own), and a block carries its slot's start, so moving the clock alone fell short of that by up
   * to a slot plus the lead. The next checkpoint is therefore pinned to the target, as setNextBlockTimestamp
   * pins it. Back (negative), it moves the clock, never before the latest block's timestamp.
   */
  increaseTime(seconds: number): number {
    this.refuseOnL1('nodeDev_increaseTime');
    const now = Math.floor(this.slots.now() / 1000);
    if (seconds < 0) {
      this.refuseBeforeLastBlock(now + seconds, 'nodeDev_increaseTime');
      this.slots.warpBy(seconds * 1000);
      this.recordTime();
      return Math.floor(this.slots.now() / 1000);
    }
    const latest = Number(this.chain.lastBlockTimestamp());
    const target = Math.max(now, latest) + seconds;
    this.slots.warpTo(target, this.chain.lastUsedSlot() + 1);
    this.recordTime();
    return target;
  }

  /**
   * nodeDev_setNextBlockTimestamp: the next checkpoint (its blocks) carries exactly `seconds`, in the slot after
   * the last used one, and L2 time runs on from there. Not before the latest block's timestamp.
   */
  setNextBlockTimestamp(seconds: number): void {
    this.refuseOnL1('nodeDev_setNextBlockTimestamp');
    this.refuseBeforeLastBlock(seconds, 'nodeDev_setNextBlockTimestamp');
    this.slots.warpTo(seconds, this.chain.lastUsedSlot() + 1);
    this.recordTime();
  }

  /**
   * With the node's own anvil (docs/dev-chain.md): the L2 and L1 time a warp moves both clocks to. A block on an
   * L1 carries its slot's start (the rollup's slots: genesis time + k slot durations, never re-timed), so the
   * target is the first slot start at or after `atLeast` that no block used and anvil can still mine at (after
   * `l1Latest`). `exact` instead: `atLeast` itself, refused unless it is such a slot start.
   */
  l1WarpTarget(atLeast: number, l1Latest: number, method: string, exact = false): number {
    const { slots } = this;
    const floorSlot = this.chain.lastUsedSlot() + 1;
    const lead = this.l1WarpLead();
    const firstFree = Math.max(
      Number(slots.slotTimestamp(floorSlot)),
      l1Latest + 1 + lead,
      Math.ceil(slots.now() / 1000) + lead,
    );
    const slotFrom = (seconds: number) => {
      const s = slots.slotAt(seconds * 1000);
      return slots.slotStartMs(s) < seconds * 1000 ? s + 1 : s;
    };
    if (exact) {
      const slot = slots.slotAt(atLeast * 1000);
      const start = Number(slots.slotTimestamp(slot));
      if (start !== atLeast || atLeast < firstFree) {
        const next = Number(slots.slotTimestamp(slotFrom(Math.max(atLeast, firstFree))));
        throw new TimeWarpRefusedError(
          `${method}: on an L1 a block carries the start of its rollup slot (every ${slots.timing.slotDuration} s from ` +
            `${slots.timing.genesisTime}), after L1 time now (${firstFree - 1}) and after block ` +
            `${this.chain.latestBlockNumber}'s slot: ${atLeast} is not one; the next that is: ${next}`,
        );
      }
      return atLeast;
    }
    return Number(slots.slotTimestamp(slotFrom(Math.max(atLeast, firstFree))));
  }

  /**
   * Seconds before the target slot's start that both clocks are warped to: the publishing time of a checkpoint,
   * so the slot before is past its deadline (nothing is built in it) and the settlement reads the target slot's
   * min fee before it starts: the first block after the warp is built at the start of the target slot.
   */
  l1WarpLead(): number {
    return Math.ceil((this.chain.settlement.publishingTimeMs ?? 0) / 1000);
  }

  /** L2 time is `seconds` now, as the node's anvil was just warped to (slots keep the rollup's timing). */
  followL1Warp(seconds: number): void {
    this.slots.warpBy(seconds * 1000 - this.slots.now());
    this.recordTime();
  }

  /** Takes the slot timing and the time warp up again from the store (the dev chain reverted to a snapshot). */
  reloadTime(): void {
    this.slots.resume(recordedSlotEra(this.chain.store), this.chain.store.meta.get('timeWarpMs') ?? 0);
  }

  private refuseOnL1(method: string): void {
    if (this.timeFromL1) {
      throw new TimeWarpRefusedError(
        `${method}: L2 time is the L1's on a node with an L1 (checkpoints must land in the rollup's slots), and this node does not run that L1: warp the L1 itself (anvil's evm_setNextBlockTimestamp); with --l1 anvil the node warps both — docs/l1.md`,
      );
    }
  }

  private refuseBeforeLastBlock(seconds: number, method: string): void {
    const last = this.chain.lastBlockTimestamp();
    if (BigInt(seconds) < last) {
      throw new TimeWarpRefusedError(
        `${method}: L2 time cannot go back to ${seconds}, before block ${this.chain.latestBlockNumber}'s timestamp ${last}`,
      );
    }
  }

  private recordTime(): void {
    const { store } = this.chain;
    this.db.transaction(() => {
      recordSlotEra(this.db, store, this.slots.latestEra);
      store.meta.set('timeWarpMs', this.slots.warpMs);
    })();
  }
}

/** A time warp the dev chain refuses: it would put L2 time before the latest block. */
export class TimeWarpRefusedError extends Error {
  override name = 'TimeWarpRefusedError';
}

/** The world state with the configured accounts (and the sponsored FPC) funded at genesis (written on first use). */
function openWorldState(
  db: SqliteDatabase,
  config: ChainStateConfig,
  sparseBase?: SparseBase,
  genesisFromImage?: boolean,
): WorldState {
  const options = {
    genesisPublicData: genesisPublicData(config),
    historyBlocks: worldStateHistoryBlocks(config),
    genesisFromImage,
  };
  return sparseBase ? WorldState.openSparse(db, sparseBase, options) : WorldState.open(db, options);
}

/** The archive root after the genesis block (what an L1 deployment stores as the rollup's genesis archive). */
export function genesisArchiveRoot(db: SqliteDatabase, config: ChainStateConfig): bigint {
  return openWorldState(db, config).view(0).getArchiveSnapshot().root.value;
}

/** Slot 0 starts one slot before the chain's first start, so the first block lands in slot 1; kept for good. */
function genesisTime(
  db: SqliteDatabase,
  store: ChainStore,
  clock: Clock,
  slotDuration: number,
  fromL1: number | undefined,
  fromFork?: number,
): number {
  const stored = store.meta.get('genesisTime');
  if (stored !== undefined && (fromL1 === undefined || stored === fromL1)) return stored;
  if (stored !== undefined && store.latestBlockNumber() > 0) {
    throw new Error(
      `this data directory's chain has slots from Unix time ${stored}, but its L1 rollup's slots start at ${fromL1}: ` +
        'a chain started on another L1 (or without one) cannot settle on this one; use a new data directory',
    );
  }
  const time = fromL1 ?? fromFork ?? Math.floor(clock.now() / 1000) - slotDuration;
  db.transaction(() => store.meta.set('genesisTime', time))();
  return time;
}

function recordedSlotEra(store: ChainStore): SlotEra | undefined {
  const fromSlot = store.meta.get('slotEraFromSlot');
  const startTime = store.meta.get('slotEraStartTime');
  const slotDuration = store.meta.get('slotEraSlotDuration');
  const blocksPerSlot = store.meta.get('slotEraBlocksPerSlot');
  if (fromSlot === undefined || startTime === undefined || slotDuration === undefined || blocksPerSlot === undefined) {
    return undefined;
  }
  return { fromSlot, startTime, slotDuration, blocksPerSlot };
}

function recordSlotEra(db: SqliteDatabase, store: ChainStore, era: SlotEra): void {
  db.transaction(() => {
    store.meta.set('slotEraFromSlot', era.fromSlot);
    store.meta.set('slotEraStartTime', era.startTime);
    store.meta.set('slotEraSlotDuration', era.slotDuration);
    store.meta.set('slotEraBlocksPerSlot', era.blocksPerSlot);
  })();
}

/** Followers serve reads at scale and need only recent history; a dev chain keeps all of it (issue 4). */
const FOLLOWER_HISTORY_BLOCKS = 256;

export function worldStateHistoryBlocks(config: ChainStateConfig): number {
  return config.worldStateHistoryBlocks ?? (config.syncFrom ? FOLLOWER_HISTORY_BLOCKS : 0);
}
