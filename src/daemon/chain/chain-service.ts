import type { GasFees } from '../../core/gas/gas-fees.js';
import type { NodeConfig } from '../config/settings.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { PendingTxSource } from '../sequencer/pending-tx-source.js';
import {
  defaultPrefundedAccounts,
  type PrefundedAccount,
  prefundedAccountsBanner,
  prefundedGenesisData,
} from '../sequencer/prefunded-accounts.js';
import { Sequencer } from '../sequencer/sequencer.js';
import { SlotClock, type SlotEra, type SlotRetiming } from '../sequencer/slot-clock.js';
import { ChainLogQueries } from '../store/chain-log-queries.js';
import { ChainStore } from '../store/chain-store.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { WorldState } from '../world-state/world-state.js';
import { Chain } from './chain.js';
import { DevModeOnlyError } from './dev-mode-only-error.js';
import { FunctionSignatures } from './function-signatures.js';
import { DevL1 } from './settlement/dev-l1.js';
import type { SettlementLayer } from './settlement/settlement-layer.js';

interface ChainServiceParts {
  readonly chain: Chain;
  readonly slots: SlotClock;
  /** Absent on a follower: its settlement layer is the upstream. */
  readonly devL1: DevL1 | undefined;
  readonly sequencer: Sequencer;
  readonly logs: ChainLogQueries;
  readonly signatures: FunctionSignatures;
  readonly prefunded: readonly PrefundedAccount[];
}

export interface ChainServiceOptions {
  /** The node database (open once the database service started). */
  readonly db: () => SqliteDatabase;
  readonly config: NodeConfig;
  readonly clock: Clock;
  readonly log: Logger;
  /** Where the prefunded accounts banner goes (stdout). */
  readonly print: (text: string) => void;
  /** The mempool, once it runs; until then no tx is pending. */
  readonly pendingTxs: () => PendingTxSource | undefined;
  /** The fee model's min fees for the next block. */
  readonly minFees: () => GasFees;
  /** A follower's settlement layer (the upstream); without it, the dev L1 stand-in. */
  readonly settlement?: SettlementLayer;
}

/**
 * The dev chain as a node service: the world state (with the prefunded accounts at genesis), the chain store,
 * the dev L1 stand-in, the slot clock and the sequencer over them. Started after the database; the sequencer
 * is a service of its own (`sequencer`) that the node starts once the mempool runs.
 */
export class ChainService implements Service {
  readonly name = 'chain';
  #parts: ChainServiceParts | undefined;

  constructor(private readonly o: ChainServiceOptions) {}

  get chain(): Chain {
    return this.parts.chain;
  }

  get worldState(): WorldState {
    return this.parts.chain.worldState;
  }

  get slots(): SlotClock {
    return this.parts.slots;
  }

  get devL1(): DevL1 {
    const devL1 = this.parts.devL1;
    if (!devL1) {
      throw new DevModeOnlyError(
        `This node follows ${this.o.config.syncFrom}: it has no dev L1 stand-in; send L1-to-L2 messages to the node it follows`,
      );
    }
    return devL1;
  }

  get sequencer(): Sequencer {
    return this.parts.sequencer;
  }

  get logs(): ChainLogQueries {
    return this.parts.logs;
  }

  get functionSignatures(): FunctionSignatures {
    return this.parts.signatures;
  }

  get prefundedAccounts(): readonly PrefundedAccount[] {
    return this.parts.prefunded;
  }

  /** True once the chain is open (the RPC reads it only then). */
  get running(): boolean {
    return this.#parts !== undefined;
  }

  async start(): Promise<void> {
    const { config, log } = this.o;
    const db = this.o.db();
    const prefunded = config.prefundedAccounts ?? defaultPrefundedAccounts();
    const worldState = WorldState.open(db, {
      genesisPublicData: prefundedGenesisData(prefunded),
      historyBlocks: worldStateHistoryBlocks(config),
    });
    const store = new ChainStore(db, (message, details) => log.warn(details, message));
    const era = recordedSlotEra(store);
    const slots = new SlotClock(
      this.o.clock,
      {
        genesisTime: this.genesisTime(store),
        slotDuration: config.slotDuration,
        blocksPerSlot: config.blocksPerSlot,
        epochDuration: config.epochDuration,
      },
      era,
    );
    // Timing changed at runtime before a restart: the configured timing takes over from the next slot.
    if (era && (era.slotDuration !== config.slotDuration || era.blocksPerSlot !== config.blocksPerSlot)) {
      slots.retime({ slotDuration: config.slotDuration, blocksPerSlot: config.blocksPerSlot });
      recordSlotEra(db, store, slots.latestEra);
    }
    const settlement =
      this.o.settlement ??
      new DevL1({ store, slots, proofDelay: config.proofDelay, finalityDelay: config.finalityDelay });
    const devL1 = settlement instanceof DevL1 ? settlement : undefined;
    const chain = new Chain({
      db,
      worldState,
      store,
      settlement,
      onListenerError: (event, err) => log.error({ err, event }, `a ${event} listener failed`),
    });
    const signatures = new FunctionSignatures(store.functionSignatures);
    // Getters, not copies: nodeAdmin_setConfig changes these on the config object and the next block uses them.
    const sequencer = new Sequencer({
      chain,
      slots,
      mode: config.sequencerMode,
      limits: {
        get maxTxs() {
          return config.maxTxsPerBlock;
        },
        get maxL2Gas() {
          return config.maxL2BlockGas;
        },
      },
      get minTxsPerBlock() {
        return config.minTxsPerBlock;
      },
      chainId: config.l1ChainId,
      rollupVersion: config.rollupVersion,
      get coinbase() {
        return config.coinbase;
      },
      get feeRecipient() {
        return config.feeRecipient;
      },
      minFees: this.o.minFees,
      describeCall: (tx) => signatures.describeFirstPublicCall(tx),
      log,
    });
    sequencer.setPendingTxSource({
      pendingTxsByPriority: () => this.o.pendingTxs()?.pendingTxsByPriority() ?? [],
      dropTx: (hash, reason) => this.o.pendingTxs()?.dropTx(hash, reason),
    });
    this.#parts = { chain, slots, devL1, sequencer, logs: new ChainLogQueries(store), signatures, prefunded };
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
    this.o.print(prefundedAccountsBanner(prefunded));
  }

  async stop(): Promise<void> {
    await this.#parts?.sequencer.stop();
    this.#parts = undefined;
  }

  /**
   * Changes the slot timing from the next slot on (nodeAdmin_setConfig) and records it, so slot numbers keep
   * increasing across a restart. Returns the slot the new timing starts at.
   */
  retimeSlots(change: SlotRetiming): number {
    const { slots, chain } = this.parts;
    const from = slots.retime(change);
    recordSlotEra(this.o.db(), chain.store, slots.latestEra);
    return from;
  }

  /** Slot 0 starts one slot before the chain's first start, so the first block lands in slot 1; kept for good. */
  private genesisTime(store: ChainStore): number {
    const stored = store.meta.get('genesisTime');
    if (stored !== undefined) return stored;
    const time = Math.floor(this.o.clock.now() / 1000) - this.o.config.slotDuration;
    this.o.db().transaction(() => store.meta.set('genesisTime', time))();
    return time;
  }

  private get parts(): ChainServiceParts {
    if (!this.#parts) throw new Error('The chain is not running');
    return this.#parts;
  }
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

function worldStateHistoryBlocks(config: NodeConfig): number {
  return config.worldStateHistoryBlocks ?? (config.syncFrom ? FOLLOWER_HISTORY_BLOCKS : 0);
}
