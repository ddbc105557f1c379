import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeFeePayerBalanceLeafSlot, computePublicDataTreeLeafSlot } from '../../core/hash/siloing.js';
import { type ChainState, TimeWarpRefusedError } from '../chain/chain-state.js';
import type { AnvilCheatCodes } from '../l1/anvil-cheat-codes.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import { SequencerBusyError } from '../sequencer/sequencer.js';
import type { SequencerMode } from '../sequencer/sequencer-settings.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { copyDatabaseTo, restoreDatabaseFrom } from './database-copy.js';
import type { DevConfig } from './dev-settings.js';

/** A snapshot the dev chain cannot take now: the limit of live snapshots is reached. */
export class DevSnapshotLimitError extends Error {
  override name = 'DevSnapshotLimitError';
}

/** A state cheat code with a value the state cannot hold. */
export class StateOverrideRefusedError extends Error {
  override name = 'StateOverrideRefusedError';
}

/** FeeJuice balances are u128 (4.1.2's FeeJuice contract keeps them as U128). */
const MAX_FEE_JUICE_BALANCE = 2n ** 128n - 1n;

/** Most state overrides waiting at once: the queue lives in the database, so it is bounded. */
export const MAX_PENDING_STATE_OVERRIDES = 65_536;

/** A revert to an id that is not a live snapshot. */
export class UnknownSnapshotError extends Error {
  override name = 'UnknownSnapshotError';
}

export interface DevToolsOptions {
  readonly config: Readonly<DevConfig & { dataDirectory: string | undefined }>;
  readonly db: SqliteDatabase;
  readonly chain: ChainState;
  /** Runs `fn` with block production paused and no other admin operation (rollback, snapshot upload) running. */
  readonly exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The dev sequencer: in instant mode a state cheat code is applied in a block built at once. */
  readonly sequencer: {
    mineBlocks(count: number): Promise<number[]>;
    notifyPendingTx(): void;
  };
  /** Read live: the sequencer mode can change at runtime. */
  readonly sequencerMode: () => SequencerMode;
  readonly log: Logger;
  /**
   * With `--l1 anvil`: the node's anvil, warped and snapshotted together with the node (as aztec.js's cheat codes
   * warp anvil), so L2 time stays the L1's and checkpoints keep landing in the rollup's slots.
   */
  readonly l1?: AnvilCheatCodes;
}

/** Snapshots live under the data directory (or a temporary folder in memory), only while the node runs. */
const SNAPSHOT_FOLDER = 'dev-snapshots';

/**
 * The dev chain's cheat codes beyond mining (docs/cheat-codes.md), present only in dev mode: time warps,
 * snapshots of the whole node and reverts to them (evm_snapshot / evm_revert), and the state file written on
 * exit (--dump-state). A snapshot is a copy of the one database (copyDatabaseTo); a revert puts every table
 * back in one transaction with block production paused, then the chain announces the change as an unwind, so
 * the sequencer, the event stream and followers take the restored chain up.
 */
export class DevTools implements Service {
  readonly name = 'dev-tools';
  /** Live snapshots by id, oldest first: the database copy, and anvil's snapshot id with an L1. */
  private readonly live = new Map<number, { file: string; l1?: string }>();
  private nextId = 1;
  private folder: string | undefined;

  constructor(private readonly o: DevToolsOptions) {}

  async start(): Promise<void> {
    // Snapshots do not outlive the node (as anvil's): a crash's leftovers go.
    const dir = this.o.config.dataDirectory;
    if (dir) rmSync(join(dir, SNAPSHOT_FOLDER), { recursive: true, force: true });
  }

  /** Writes --dump-state (production has stopped by now: the node stops the producer first), drops the snapshots. */
  async stop(): Promise<void> {
    const file = this.o.config.dumpState;
    if (file) {
      try {
        copyDatabaseTo(this.o.db, file);
        const tips = this.o.chain.chain.readTips();
        this.o.log.info(
          { file, blockNumber: tips.proposed.number },
          `state of block ${tips.proposed.number} dumped to ${file}`,
        );
      } catch (err) {
        this.o.log.error(
          { file, err: (err as Error).message },
          `could not dump the state to ${file}: ${(err as Error).message}`,
        );
      }
    }
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
    this.live.clear();
  }

  /**
   * nodeDev_increaseTime: L2 time now, seconds. With the node's anvil both clocks move, so the next block is at the
   * start of the first free rollup slot at least `seconds` after the latest block (aztec.js's warpL2TimeAtLeastBy),
   * which is returned; L1 time cannot go back.
   */
  async increaseTime(seconds: number): Promise<number> {
    const { l1, chain } = this.o;
    if (!l1) return chain.increaseTime(seconds);
    if (seconds < 0) {
      throw new TimeWarpRefusedError(
        "nodeDev_increaseTime: L1 time cannot go back (anvil's blocks only move forward); take a snapshot " +
          '(nodeDev_snapshot) and revert to it instead',
      );
    }
    return this.warpWithL1((latest) => {
      const from = Math.max(Math.floor(chain.slots.now() / 1000), Number(chain.chain.lastBlockTimestamp()));
      return chain.l1WarpTarget(from + seconds, latest, 'nodeDev_increaseTime');
    });
  }

  /**
   * nodeDev_setNextBlockTimestamp. With the node's anvil the timestamp must be a rollup slot's start (a block
   * carries its slot's): both clocks move to it.
   */
  async setNextBlockTimestamp(seconds: number): Promise<number> {
    const { l1, chain } = this.o;
    if (!l1) {
      chain.setNextBlockTimestamp(seconds);
      return seconds;
    }
    return this.warpWithL1((latest) => chain.l1WarpTarget(seconds, latest, 'nodeDev_setNextBlockTimestamp', true));
  }

  /** Warps anvil, then the slot clock, to the target, with block production paused. */
  private warpWithL1(target: (l1Latest: number) => number): Promise<number> {
    const l1 = this.o.l1 as AnvilCheatCodes;
    return this.o.exclusive(async () => {
      const seconds = target(await l1.latestTimestamp());
      const at = seconds - this.o.chain.l1WarpLead();
      await l1.warpTo(at);
      this.o.chain.followL1Warp(at);
      this.o.log.info(
        { time: at, nextBlockTimestamp: seconds },
        `L1 and L2 time warped to ${at}: the next block at ${seconds}`,
      );
      return seconds;
    });
  }

  /**
   * nodeDev_setPublicStorage: `contract`'s public storage `slot` holds `value` from the next block on, as
   * anvil_setStorageAt. The write waits in the queue of state overrides and the next block applies it before its
   * txs (docs/cheat-codes.md); in instant mode that block is built now. Returns the block that applied it, or
   * undefined while it waits (interval, on-demand and off modes, a paused sequencer).
   */
  setPublicStorage(contract: bigint, slot: bigint, value: bigint): Promise<number | undefined> {
    return this.override(computePublicDataTreeLeafSlot(contract, slot), value);
  }

  /**
   * nodeDev_setFeeJuiceBalance: `address` holds `amount` FeeJuice from the next block on (its balance leaf of
   * the FeeJuice contract, as genesis prefunding writes it), as anvil_setBalance.
   */
  async setFeeJuiceBalance(address: bigint, amount: bigint): Promise<number | undefined> {
    if (amount > MAX_FEE_JUICE_BALANCE) {
      throw new StateOverrideRefusedError(
        `amount ${amount} does not fit a FeeJuice balance (a u128: at most 2^128 - 1)`,
      );
    }
    return this.override(computeFeePayerBalanceLeafSlot(address), amount);
  }

  private async override(leafSlot: bigint, value: bigint): Promise<number | undefined> {
    if (this.o.l1) {
      throw new StateOverrideRefusedError(
        'state overrides change the state without a tx, which the rollup on L1 cannot see in the blobs it checks ' +
          '(a follower from L1 would diverge); with an L1, fund through the FeeJuice portal (docs/l1.md)',
      );
    }
    const { store } = this.o.chain.chain;
    const waiting = store.pendingStateOverrides.count();
    if (waiting >= MAX_PENDING_STATE_OVERRIDES) {
      throw new StateOverrideRefusedError(
        `${waiting} state overrides already wait for a block (the most the queue holds); mine a block (nodeDev_mineBlocks) first`,
      );
    }
    store.pendingStateOverrides.add({ leafSlot, value });
    this.o.log.info(
      { leafSlot: leafSlot.toString(16), value: value.toString() },
      'state override queued for the next block',
    );
    if (this.o.sequencerMode() !== 'instant') {
      this.o.sequencer.notifyPendingTx();
      return undefined;
    }
    try {
      const built = await this.o.sequencer.mineBlocks(1);
      // Built, and the queue empty: this override was in it (it was queued before the build started).
      return built.length > 0 && store.pendingStateOverrides.count() === 0 ? built[0] : undefined;
    } catch (err) {
      // Paused or busy: it stays queued and the next block takes it.
      if (err instanceof SequencerBusyError) return undefined;
      throw err;
    }
  }

  /**
   * nodeDev_snapshot: the id of a copy of the whole node as it is now (chain, world state, pool, L2 time), and
   * with the node's anvil of anvil's chain too (evm_snapshot, taken with block production paused).
   */
  async snapshot(): Promise<number> {
    const l1 = this.o.l1;
    this.checkSnapshotLimit();
    if (!l1) return this.takeSnapshot(undefined);
    return this.o.exclusive(async () => this.takeSnapshot(await l1.snapshot()));
  }

  private checkSnapshotLimit(): void {
    const limit = this.o.config.devSnapshotLimit;
    if (this.live.size >= limit) {
      throw new DevSnapshotLimitError(
        `${this.live.size} snapshots are live, the limit (--dev-snapshot-limit ${limit}); nodeDev_revert consumes a ` +
          'snapshot and every later one',
      );
    }
  }

  private takeSnapshot(l1Id: string | undefined): number {
    const id = this.nextId++;
    const file = join(this.snapshotFolder(), `${id}.sqlite`);
    copyDatabaseTo(this.o.db, file);
    this.live.set(id, l1Id === undefined ? { file } : { file, l1: l1Id });
    this.o.log.info({ id, blockNumber: this.o.chain.chain.latestBlockNumber }, `dev snapshot ${id} taken`);
    return id;
  }

  /**
   * nodeDev_revert: puts the whole node back as snapshot `id` found it; that snapshot and every later one are
   * consumed (as anvil's evm_revert). Returns the block number the chain is back at.
   */
  revert(id: number): Promise<number> {
    return this.o.exclusive(async () => {
      const snap = this.live.get(id);
      if (!snap) {
        const ids = [...this.live.keys()];
        throw new UnknownSnapshotError(
          `No live snapshot ${id}: live ones are ${ids.length > 0 ? ids.join(', ') : 'none'} (a revert consumes its ` +
            'snapshot and every later one; snapshots do not outlive the node)',
        );
      }
      const { chain } = this.o.chain;
      const before = chain.latestBlockNumber;
      // L1 first: if anvil refuses, the node is left as it was.
      if (snap.l1 !== undefined && !(await this.o.l1?.revert(snap.l1))) {
        throw new UnknownSnapshotError(`anvil no longer holds its snapshot ${snap.l1} of dev snapshot ${id}`);
      }
      restoreDatabaseFrom(this.o.db, snap.file);
      for (const [later, s] of this.live) {
        if (later < id) continue;
        rmSync(s.file, { force: true });
        this.live.delete(later);
      }
      this.o.chain.reloadTime();
      await this.realignWithL1();
      const tips = chain.readTips();
      const target = tips.proposed.number;
      chain.events.emit('unwound', { targetBlockNumber: target, removed: Math.max(0, before - target), tips });
      chain.events.emit('tips', tips);
      this.o.log.warn({ id, blockNumber: target, from: before }, `reverted to dev snapshot ${id}: block ${target}`);
      return target;
    });
  }

  /**
   * After a revert with the node's anvil: anvil's chain is back at its snapshot, L2 time at the node's. Both clocks
   * go to the later of the two (the next free slot start), so L2 time is the L1's again.
   */
  private async realignWithL1(): Promise<void> {
    const l1 = this.o.l1;
    if (!l1) return;
    const latest = await l1.latestTimestamp();
    const at = this.o.chain.l1WarpTarget(latest + 1, latest, 'nodeDev_revert') - this.o.chain.l1WarpLead();
    await l1.warpTo(at);
    this.o.chain.followL1Warp(at);
  }

  private snapshotFolder(): string {
    if (!this.folder) {
      const dir = this.o.config.dataDirectory;
      if (dir) {
        this.folder = join(dir, SNAPSHOT_FOLDER);
        mkdirSync(this.folder, { recursive: true });
      } else {
        this.folder = mkdtempSync(join(tmpdir(), 'l2node-dev-snapshots-'));
      }
    }
    return this.folder;
  }
}
