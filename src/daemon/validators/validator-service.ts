import type { EthAddress } from '../../core/eth-address.js';
import type { Clock } from '../lifecycle/clock.js';
import { ClockLoop } from '../lifecycle/clock-loop.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { ValidatorSlotResult } from '../node-events.js';
import type { CheckpointConsensus } from '../sequencer/checkpoint-consensus.js';
import type { SlotClock } from '../sequencer/slot-clock.js';
import type { ChainStore } from '../store/chain-store.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { KeystoreReloadError } from './keystore-error.js';
import type { loadKeystore } from './load-keystore.js';
import type { Sentinel, SentinelConfig, SingleValidatorStatsJson, ValidatorsStatsJson } from './sentinel.js';
import type { OffenseJson, OffenseSelector, Slasher, SlashingConfig, SlashPayloadRoundJson } from './slasher.js';
import type { ValidatorStore } from './store/validator-store.js';
import type { ValidatorClient } from './validator-client.js';
import type { ValidatorKeystore } from './validator-keystore.js';

/** The settings the validators read (rows of the settings table; the slash ones live, they change at runtime). */
export interface ValidatorSettings extends SentinelConfig, SlashingConfig {
  readonly keyStoreDirectory: string | undefined;
  readonly committeeAddresses: readonly EthAddress[];
}

export interface ValidatorServiceOptions {
  readonly db: SqliteDatabase;
  readonly config: ValidatorSettings;
  readonly chainStore: ChainStore;
  readonly slots: SlotClock;
  /** The sequencer, which takes its committee from here (absent on a follower: it builds no blocks). */
  readonly sequencer?: { setCheckpointConsensus(consensus: CheckpointConsensus): void };
  readonly clock: Clock;
  readonly log: Logger;
  /** Told of each slot the sentinel judged (the dashboard's event stream). */
  readonly onSlot?: (result: ValidatorSlotResult) => void;
  /**
   * P2P is on: the committee may sign on other nodes, so a node without a keystore that names the committee
   * (--committee-addresses) follows it: it checks proposals and attestations and proposes nothing.
   */
  readonly overNetwork?: boolean;
}

/** A request the validators cannot answer because the node runs without a committee. */
export class ValidatorsDisabledError extends Error {
  override name = 'ValidatorsDisabledError';
}

interface Parts {
  readonly store: ValidatorStore;
  readonly client: ValidatorClient;
  readonly sentinel: Sentinel;
  readonly slasher: Slasher;
  /** L1 publishers initialised at start-up: a reload may only use these (spec part 4). */
  readonly startupPublishers: ReadonlySet<string>;
  readonly loadKeystore: typeof loadKeystore;
}

/**
 * The committee's modules (keystore, signatures, sentinel, slasher), loaded only by a node with a keystore: they
 * bring viem's accounts and signature recovery, which a node without a committee never loads.
 */
async function loadCommitteeModules() {
  const [keystore, sentinel, slasher, store, client, keystoreClass] = await Promise.all([
    import('./load-keystore.js'),
    import('./sentinel.js'),
    import('./slasher.js'),
    import('./store/validator-store.js'),
    import('./validator-client.js'),
    import('./validator-keystore.js'),
  ]);
  return {
    loadKeystore: keystore.loadKeystore,
    Sentinel: sentinel.Sentinel,
    Slasher: slasher.Slasher,
    ValidatorStore: store.ValidatorStore,
    ValidatorClient: client.ValidatorClient,
    ValidatorKeystore: keystoreClass.ValidatorKeystore,
  };
}

/**
 * Validators as a node service (docs/validators.md): with a keystore (--keystore-directory) the dev sequencer
 * runs a committee of the keystore's attesters plus --committee-addresses; this service holds the keystore,
 * signs through the validator client, runs the sentinel and the slasher once per slot, and answers the
 * validator and slashing RPC methods. Without a keystore it does nothing and the sequencer builds every slot.
 */
export class ValidatorService implements Service {
  readonly name = 'validators';
  #parts: Parts | undefined;
  #keystore: ValidatorKeystore | undefined;
  private readonly loop: ClockLoop;
  private working: Promise<void> | undefined;

  constructor(private readonly o: ValidatorServiceOptions) {
    this.loop = new ClockLoop(o.clock, () => this.tick());
  }

  /** Whether the node runs a committee. */
  get enabled(): boolean {
    return this.#parts !== undefined;
  }

  /** The validator client (proposals, attestations, the slots' committees); undefined without a committee. */
  get client(): ValidatorClient | undefined {
    return this.#parts?.client;
  }

  /** The keystore in force. */
  get keystore(): ValidatorKeystore | undefined {
    return this.#keystore;
  }

  async start(): Promise<void> {
    const { config, log } = this.o;
    const path = config.keyStoreDirectory;
    const watchOnly = !path && config.committeeAddresses.length > 0 && this.o.overNetwork === true;
    if (!path && !watchOnly) {
      if (config.committeeAddresses.length > 0) {
        throw new Error(
          '--committee-addresses (NODE_COMMITTEE_ADDRESSES) names members of a committee, which needs a keystore: set --keystore-directory',
        );
      }
      log.info('no keystore (--keystore-directory): the dev sequencer builds every slot itself, without a committee');
      return;
    }
    const { loadKeystore, Sentinel, Slasher, ValidatorStore, ValidatorClient, ValidatorKeystore } =
      await loadCommitteeModules();
    const keystore = path ? loadKeystore(path) : new ValidatorKeystore('(none)', []);
    this.#keystore = keystore;
    const slots = this.o.slots;
    const store = new ValidatorStore(this.o.db);
    const slasher = new Slasher({
      store,
      slots,
      config,
      ownValidators: () => this.#keystore?.addresses ?? [],
      now: () => this.o.clock.now(),
      log,
    });
    const sentinel = new Sentinel({
      store,
      chainStore: this.o.chainStore,
      slots,
      config,
      slasher,
      log,
      onSlot: this.o.onSlot,
    });
    const client = new ValidatorClient({
      store,
      keystore: () => this.#keystore as ValidatorKeystore,
      otherMembers: () => config.committeeAddresses,
      slasher,
      overNetwork: this.o.overNetwork === true,
      // Half a slot: the other nodes prune a checkpoint's blocks three quarters into the next slot without a quorum.
      attestationTimeoutMs: () =>
        (slots.slotStartMs(slots.currentSlot() + 1) - slots.slotStartMs(slots.currentSlot())) / 2,
      log,
    });
    sentinel.init(slots.currentSlot());
    this.#parts = { store, client, sentinel, slasher, startupPublishers: keystore.publisherAddresses(), loadKeystore };
    this.o.sequencer?.setCheckpointConsensus(client);
    const here = keystore.addresses.map((a) => a.toString());
    const elsewhere = config.committeeAddresses.filter((a) => !keystore.has(a)).map((a) => a.toString());
    log.info(
      { keystore: path, validators: here, otherMembers: elsewhere, publishers: [...keystore.publisherAddresses()] },
      `validators${watchOnly ? ' (following the committee over P2P, no key here)' : ''}: ${here.length} key(s) here, committee of ${here.length + elsewhere.length} (${elsewhere.length} signing elsewhere)`,
    );
    if (here.length + elsewhere.length === 0)
      log.warn('the committee is empty: no slot has a proposer, nothing is built');
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop(this.working);
    this.#parts = undefined;
  }

  /** node_getValidatorsStats: without a committee, 4.1.2's answer of a node whose sentinel is off. */
  validatorsStats(): ValidatorsStatsJson {
    return this.#parts ? this.#parts.sentinel.validatorsStats() : { stats: {}, slotWindow: 0 };
  }

  /** node_getValidatorStats; undefined without a committee or history. Throws SlotRangeError past the window. */
  validatorStats(address: EthAddress, fromSlot?: bigint, toSlot?: bigint): SingleValidatorStatsJson | undefined {
    return this.#parts?.sentinel.validatorStats(address, fromSlot, toSlot);
  }

  slashOffenses(which: OffenseSelector): OffenseJson[] {
    return this.slasher().offenses(which);
  }

  slashPayloads(): SlashPayloadRoundJson[] {
    return this.slasher().payloads();
  }

  /**
   * nodeAdmin_reloadKeystore (spec part 4, docs/aztec-facts.md section 2.11): reads and checks the whole keystore, checks
   * that every validator publishes through an L1 account initialised at start-up, then swaps the attester keys,
   * coinbases, fee recipients and publishers in one assignment. Any failure throws and the old keystore stays.
   * Committees follow from the next slot (the current slot's committee is already fixed).
   */
  async reloadKeystore(): Promise<void> {
    const path = this.o.config.keyStoreDirectory;
    if (!path) {
      throw new KeystoreReloadError(
        'Cannot reload keystore: node is not using a file-based keystore. Set NODE_KEY_STORE_DIRECTORY (--keystore-directory) to use file-based keystores.',
      );
    }
    const parts = this.#parts;
    const before = this.#keystore;
    if (!parts || !before) throw new KeystoreReloadError('Cannot reload keystore: validator is not enabled.');
    const next = parts.loadKeystore(path);
    const startup = [...parts.startupPublishers];
    for (const v of next.validators) {
      if (v.publishers.some((p) => parts.startupPublishers.has(p.toString()))) continue;
      throw new KeystoreReloadError(
        `Cannot reload keystore: validator ${v.address} has publisher keys [${v.publishers.join(', ')}] but none match ` +
          `the L1 signers initialized at startup [${startup.join(', ')}]. Publishers cannot be hot-reloaded — use an ` +
          'existing publisher key or restart the node.',
      );
    }
    this.#keystore = next;
    const added = next.addresses.filter((a) => !before.has(a)).map((a) => a.toString());
    const removed = before.addresses.filter((a) => !next.has(a)).map((a) => a.toString());
    this.o.log.info(
      { added, removed, validators: next.validators.length },
      `keystore reloaded: ${next.validators.length} validator(s), added [${added.join(', ')}], removed [${removed.join(', ')}]`,
    );
  }

  private slasher(): Slasher {
    if (!this.#parts) {
      throw new ValidatorsDisabledError(
        'Slasher client not enabled: this node runs no validator committee (start it with --keystore-directory)',
      );
    }
    return this.#parts.slasher;
  }

  /** Once per slot, just after it starts: fix the slot's committee, judge the slots two back, expire offenses. */
  private tick(): void {
    const parts = this.#parts;
    if (!parts || this.working) return;
    const slots = this.o.slots;
    const slot = slots.currentSlot();
    this.working = (async () => {
      parts.client.committeeAt(slot);
      await parts.sentinel.work();
      parts.slasher.prune();
    })()
      .catch((err: Error) => this.o.log.error({ err: err.message }, `validator duties failed: ${err.message}`))
      .finally(() => {
        this.working = undefined;
        if (!this.loop.running) return;
        // Due just after the next slot starts (at once if the work outlasted its slot).
        const next = slots.slotStartMs(slot + 1) + 1 - slots.now();
        this.loop.wakeIn(Math.max(1, next));
      });
  }
}
