import type { AztecAddress } from '../../core/aztec-address.js';
import type { EthAddress } from '../../core/eth-address.js';
import { Fr } from '../../core/fr.js';
import { GasFees } from '../../core/gas/gas-fees.js';
import type { BlockProducer } from '../chain/block-producer.js';
import type { Chain, CompletedCheckpoint } from '../chain/chain.js';
import { ClockLoop } from '../lifecycle/clock-loop.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import { txList } from '../logging/tx-list.js';
import type { L1PublishedData } from '../store/checkpoint-repository.js';
import type { PendingStateOverride } from '../store/pending-state-override-repository.js';
import type { DebugPrintStore } from '../tracing/debug-print-store.js';
import { type BlockBuildResult, type BlockLimits, type BlockTxRunner, buildBlock } from './block-builder.js';
import { CheckpointBuilder, type CheckpointConstants } from './checkpoint-builder.js';
import type { CheckpointConsensus, ProposerDuty } from './checkpoint-consensus.js';
import type { PendingTxSource } from './pending-tx-source.js';
import type { SequencerMode } from './sequencer-settings.js';
import type { SlotClock } from './slot-clock.js';
import { previousOutHashes, resumeStoredCheckpoint } from './stored-checkpoint.js';

/** Runs a build until it no longer needs a lazy fork's upstream state (UpstreamStateFetcher.run). */
export interface UpstreamStateRunner {
  run<T>(build: () => T | Promise<T>): Promise<T>;
}

export interface SequencerOptions {
  readonly chain: Chain;
  /**
   * A lazy fork (--fork-mode lazy): a build that reads upstream state not fetched yet throws (nothing kept); the
   * runner fetches it and the block is built again from the start.
   */
  readonly upstreamState?: UpstreamStateRunner;
  /** Tells the node of a failed step; true when it was a full disk (the node reports it once, not every step). */
  readonly isStorageFailure?: (err: unknown) => boolean;
  /** Why no block may be built (stored data found damaged: never build on it); undefined while blocks may be. */
  readonly halted?: () => string | undefined;
  readonly slots: SlotClock;
  /** Where pending txs come from (the mempool), and who says when one arrives. */
  readonly pendingTxs: PendingTxSource;
  readonly mode: SequencerMode;
  readonly limits: BlockLimits;
  /** Fewer pending txs than this: no block (0 builds an empty first block in every slot). */
  readonly minTxsPerBlock: number;
  readonly chainId: number;
  readonly rollupVersion: number;
  readonly coinbase: EthAddress;
  readonly feeRecipient: AztecAddress;
  /** The min fees per gas the next checkpoint charges (the fee model). */
  readonly minFees: () => GasFees;
  /** Where the blocks' public txs run: the public execution pool's sequencer worker, or this thread. */
  readonly blockTxs: BlockTxRunner;
  /** Milliseconds the txs of one block may take to process; undefined: no deadline. */
  readonly blockBuildTimeMs: () => number | undefined;
  readonly log: Logger;
  /** Where the built blocks' debug prints go (the node log, receipts); without it none are recorded. */
  readonly debugPrints?: DebugPrintStore;
}

/** A block the sequencer built: `seconds` from taking the pending txs to the block's commit, applyBlock included. */
export interface BuiltBlock {
  readonly blockNumber: number;
  readonly txs: number;
  readonly seconds: number;
}

/** In instant and on-demand modes, how often the pool is looked at between wake-ups (ms of the node's clock). */
const ON_DEMAND_POLL_MS = 100;

/**
 * The dev-mode sequencer: on the slot clock it builds blocks from the pending txs, highest fee first, through
 * the chain's one applyBlock path; the blocks of one slot form a checkpoint, published to the settlement layer
 * when the slot ends or its block count is reached. Each tick also takes the proven and finalized tips from the
 * settlement layer. Everything runs on the node's clock, so tests drive it without sleeping.
 * As the dev node's BlockProducer it can be paused (nodeAdmin_pauseSync, rollbacks, snapshots): a tick runs
 * synchronously, so once pause() is called no block is in flight and none starts until resume().
 */
export class Sequencer implements Service, BlockProducer {
  readonly name = 'sequencer';
  private current: CheckpointBuilder | undefined;
  /** The (slot, interval) a block was last attempted in, so interval mode tries each interval once. */
  private lastAttempt = '';
  private readonly loop: ClockLoop;
  private ticking = false;
  #paused = false;
  /** The validator committee, when one runs (docs/validators.md); without one every slot is built here. */
  private consensus: CheckpointConsensus | undefined;
  /** A finished checkpoint waiting for its signatures: nothing else is built until it is published or dropped. */
  private sealing: Promise<void> | undefined;
  /** A block whose public txs run in a worker: the tick that builds it ends when it is committed (or given up). */
  private building: Promise<void> | undefined;
  private readonly builtListeners = new Set<(built: BuiltBlock) => void>();

  constructor(private readonly o: SequencerOptions) {
    this.loop = new ClockLoop(o.slots.clock, () => this.tick());
    o.chain.events.on('unwound', () => {
      this.current = undefined;
    });
    o.pendingTxs.onTxAdded(() => this.notifyPendingTx());
  }

  /** Tells `listener` of every block this sequencer built and applied (the metrics' build time); returns the unsubscribe. */
  onBlockBuilt(listener: (built: BuiltBlock) => void): () => void {
    this.builtListeners.add(listener);
    return () => this.builtListeners.delete(listener);
  }

  /** Runs slots through a validator committee: only its proposers' slots are built, checkpoints need a quorum. */
  setCheckpointConsensus(consensus: CheckpointConsensus): void {
    this.consensus = consensus;
  }

  async start(): Promise<void> {
    this.loop.start();
  }

  async stop(): Promise<void> {
    const building = this.building;
    await this.loop.stop(building ? building.then(() => this.sealing) : this.sealing);
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Stops building blocks and following the settlement layer's tips until resume(). */
  async pause(): Promise<void> {
    this.#paused = true;
    this.loop.cancel();
    // A block being built is committed (or given up), and a checkpoint being signed is published (or dropped),
    // before pause returns: nothing is in flight after it.
    await this.building;
    await this.sealing;
  }

  /** Builds again from the chain as it is now; the checkpoint in progress was dropped if an unwind removed it. */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    if (this.loop.running) this.loop.wakeIn(0);
  }

  /** A tx arrived: in instant and on-demand modes, build now instead of at the next poll. */
  notifyPendingTx(): void {
    if (this.loop.running && !this.#paused && this.o.mode !== 'interval' && this.o.mode !== 'off') this.loop.wakeIn(0);
  }

  /**
   * Builds `count` blocks now (nodeDev_mineBlocks), whatever the mode and the slot clock: each takes the pending
   * txs that fit (none is fine) and is its own checkpoint, published at once, in the next free slot. With a
   * validator committee each checkpoint is signed before the next block is built (signing is asynchronous: the
   * next block must build on a committed checkpoint, not on one still being signed). Answers the numbers of the
   * blocks built.
   */
  async mineBlocks(count: number): Promise<number[]> {
    if (this.publishingTimeMs !== undefined) {
      throw new SequencerBusyError(
        'blocks follow L1 time on a node with an L1: each checkpoint must land on L1 in its own slot, so blocks cannot be mined ahead of it (docs/l1.md)',
      );
    }
    if (this.#paused) throw new SequencerBusyError('the sequencer is paused (nodeAdmin_resumeSync resumes it)');
    const halted = this.o.halted?.();
    if (halted) throw new SequencerBusyError(`no block is built: ${halted}`);
    if (this.sealing || this.ticking) throw new SequencerBusyError('a checkpoint is being built or signed; try again');
    this.ticking = true;
    const built: number[] = [];
    try {
      for (let i = 0; i < count; i++) {
        if (this.sealing) await this.sealing;
        this.resumeUnpublished();
        if (this.current && this.current.blockCount > 0) this.publish(this.current);
        this.current = undefined;
        if (this.sealing) await this.sealing;
        const before = this.o.chain.latestBlockNumber;
        await this.buildNext(Math.max(this.o.slots.currentSlot(), this.o.chain.lastUsedSlot() + 1), true);
        if (this.o.chain.latestBlockNumber === before) break;
        built.push(this.o.chain.latestBlockNumber);
      }
      // The last checkpoint is signed (or dropped) before the answer.
      if (this.sealing) await this.sealing;
    } finally {
      this.ticking = false;
    }
    return built;
  }

  /**
   * Does what is due now: finishes a checkpoint whose slot is over or whose blocks are all built, takes the
   * settlement layer's tips, builds a block when one is due. Then schedules the next tick.
   */
  tick(): void {
    if (this.ticking || this.#paused) return;
    this.ticking = true;
    let building: Promise<void> | undefined;
    try {
      building = this.step();
    } catch (err) {
      this.reportStepFailure(err);
    }
    if (!building) {
      this.endTick();
      return;
    }
    this.building = building
      .catch((err: unknown) => this.reportStepFailure(err))
      .finally(() => {
        this.building = undefined;
        this.endTick();
      });
  }

  private endTick(): void {
    this.ticking = false;
    if (this.loop.running && !this.#paused) this.loop.wakeIn(this.nextDelay());
  }

  private reportStepFailure(err: unknown): void {
    if (!this.o.isStorageFailure?.(err)) this.o.log.error({ err }, `sequencer step failed: ${(err as Error).message}`);
  }

  /** Returns the block being built when its public txs run in a worker. */
  private step(): Promise<void> | undefined {
    if (this.sealing) return;
    const { chain, slots } = this.o;
    const now = slots.now();
    const slot = slots.currentSlot();
    this.resumeUnpublished();
    const current = this.current;
    if (
      current &&
      (this.o.mode === 'instant' ||
        current.constants.slot < slot ||
        current.blockCount >= slots.blocksPerSlotAt(current.constants.slot) ||
        this.pastPublishingDeadline(current.constants.slot, now))
    ) {
      if (current.blockCount > 0) this.publish(current);
      this.current = undefined;
    }
    chain.syncSettlement();
    // A checkpoint on its way to L1 is not recorded yet: the next block builds on it once it is (or on its parent
    // once it is dropped), when the publication wakes the loop.
    if (this.o.mode === 'off' || this.sealing) return;
    const interval = slots.blockIndexAt(now);
    if (this.o.mode === 'interval') {
      const key = `${slot}:${interval}`;
      if (key === this.lastAttempt) return;
      this.lastAttempt = key;
    }
    if (this.pastPublishingDeadline(slot, now)) return;
    // Instant: a block never waits for a free slot; it takes the next one, ahead of the wall clock if need be
    // (not on a real L1: a checkpoint must land in its own slot there).
    const ahead = this.o.mode === 'instant' && this.publishingTimeMs === undefined;
    return this.buildNext(ahead ? Math.max(slot, this.o.chain.lastUsedSlot() + 1) : slot);
  }

  /** On a real L1, how long before its slot ends a checkpoint must be sent to land in it; undefined otherwise. */
  private get publishingTimeMs(): number | undefined {
    return this.o.chain.settlement.publishingTimeMs;
  }

  /** On a real L1: whether it is too late in `slot` to build or wait for more blocks (its checkpoint must go now). */
  private pastPublishingDeadline(slot: number, now: number): boolean {
    const time = this.publishingTimeMs;
    return time !== undefined && now >= this.o.slots.slotStartMs(slot + 1) - time;
  }

  /**
   * On a real L1: whether the slot's next block would start at or after its publishing deadline, so the checkpoint
   * goes now rather than idle until the deadline (on a busy machine the publishing lead grows to most of the slot).
   */
  private noBlockFitsBeforeDeadline(slot: number): boolean {
    const time = this.publishingTimeMs;
    if (time === undefined) return false;
    const { slots } = this.o;
    const next = slots.blockIndexAt(slots.now()) + 1;
    const nextStart = next < slots.blocksPerSlotAt(slot) ? slots.blockStartMs(slot, next) : slots.slotStartMs(slot + 1);
    return nextStart >= slots.slotStartMs(slot + 1) - time;
  }

  /**
   * `mined`: build a block now even without txs and publish its checkpoint at once (mineBlocks). Returns a
   * promise when the block's public txs run in a worker.
   */
  private buildNext(slot: number, mined = false): Promise<void> | undefined {
    if (this.o.halted?.()) return;
    const { chain, slots } = this.o;
    let builder = this.current;
    // One checkpoint per slot: a slot that already has one (or blocks) builds nothing more.
    if (!builder && slot <= this.o.chain.lastUsedSlot()) return;
    if (builder && builder.blockCount >= slots.blocksPerSlotAt(builder.constants.slot)) return;
    const pending = this.o.pendingTxs.pendingTxsByPriority()[Symbol.iterator]();
    const head = pending.next();
    // State cheat codes waiting for a block (docs/cheat-codes.md): they make one as pending txs do.
    const overrides = chain.store.pendingStateOverrides.next();
    if (!builder) {
      const number = (chain.store.checkpoints.latest()?.number ?? 0) + 1;
      const messages = chain.settlement.inboxMessages(number);
      // Another proposer's blocks without their checkpoint yet (its quorum on its way): not built on.
      if (this.consensus && chain.latestBlockNumber > (chain.store.checkpoints.latest()?.lastBlock ?? 0)) return;
      const duty = this.consensus?.proposerFor(slot);
      if (this.consensus && !duty) return;
      if (!mined && head.done && messages.length === 0 && overrides.length === 0 && this.o.minTxsPerBlock > 0) return;
      const constants = this.constants(number, slot, duty);
      // A real L1 sets the checkpoint's min fee exactly: until it is read for this slot and parent, wait.
      if (!constants) return;
      builder = new CheckpointBuilder(
        constants,
        messages,
        previousOutHashes(this.o.chain, this.o.slots, slot),
        chain.settlement.blobsHash,
      );
      this.current = builder;
    }
    const first = builder.blockCount === 0;
    const messages = first ? builder.l1ToL2Messages : [];
    // Instant mode builds on demand: an empty block only for pending L1-to-L2 messages or mineBlocks, never
    // at every poll (with --min-txs-per-block 0 that would run the chain ahead of the clock, a block per poll).
    const emptyByConfig = this.o.mode !== 'instant' && this.o.minTxsPerBlock === 0;
    const emptyAllowed = mined || (first && (messages.length > 0 || emptyByConfig));
    if (head.done && !emptyAllowed && overrides.length === 0) return;
    const blockNumber = chain.latestBlockNumber + 1;
    const buildStarted = performance.now();
    const buildTimeMs = this.o.blockBuildTimeMs();
    let attempts = 0;
    const build = () =>
      buildBlock(
        {
          worldState: chain.worldState,
          globals: builder.globalsFor(blockNumber),
          checkpointNumber: builder.constants.number,
          indexWithinCheckpoint: builder.blockCount,
          l1ToL2Messages: messages,
          sponge: builder.sponge,
          limits: this.o.limits,
          // Built again (a lazy fork fetched what the first attempt lacked): the pending txs are read again.
          txs:
            attempts++ > 0 ? this.o.pendingTxs.pendingTxsByPriority() : head.done ? [] : prepend(head.value, pending),
          allowEmpty: emptyAllowed,
          stateOverrides: overrides,
          collectDebugLogs: this.o.debugPrints?.enabled ?? false,
          ...(buildTimeMs === undefined ? {} : { buildTimeMs }),
        },
        this.o.blockTxs,
      );
    const result = this.o.upstreamState ? this.o.upstreamState.run(build) : build();
    const done = { builder, first, messages, mined, buildStarted, overrides };
    if (result instanceof Promise) return result.then((r) => this.commitBuilt(r, done));
    this.commitBuilt(result, done);
    return undefined;
  }

  /** A block built: its dropped txs leave the pool, and it is committed through applyBlock when it is kept. */
  private commitBuilt(
    result: BlockBuildResult,
    o: {
      builder: CheckpointBuilder;
      first: boolean;
      messages: readonly bigint[];
      mined: boolean;
      buildStarted: number;
      /** The state cheat codes' writes this block applies before its txs. */
      overrides: readonly PendingStateOverride[];
    },
  ): void {
    const { chain, slots } = this.o;
    const { builder, first, messages, mined, buildStarted, overrides } = o;
    // An unwind while the txs ran in a worker dropped the checkpoint this block was for: it is not committed.
    if (this.current !== builder) {
      result.built?.fork.close();
      return;
    }
    for (const d of result.dropped) {
      this.o.log.warn({ txHash: d.tx.txHash.toString(), reason: d.reason }, `dropped tx ${d.tx.txHash}: ${d.reason}`);
      this.o.pendingTxs.dropTx(d.tx.txHash, d.reason);
    }
    const built = result.built;
    const enough =
      built &&
      (mined ||
        built.included.length >= this.o.minTxsPerBlock ||
        (first && messages.length > 0) ||
        overrides.length > 0);
    if (!built || !enough) {
      built?.fork.close();
      // A checkpoint without blocks is not kept: its messages and fees are read again at the next attempt.
      if (builder.blockCount === 0) this.current = undefined;
      return;
    }
    try {
      const through = overrides.at(-1)?.seq;
      chain.applyBlock({
        block: built.block,
        l1ToL2Messages: messages,
        fork: built.fork,
        stateOverrides: overrides,
        ...(through === undefined ? {} : { pendingOverridesThrough: through }),
      });
    } finally {
      built.fork.close();
    }
    builder.addBlock(built.block, built.blobFields);
    const b = built.block;
    this.o.debugPrints?.blockCommitted(b.number, built.debugPrints);
    const seconds = (performance.now() - buildStarted) / 1000;
    const ms = Math.round(seconds * 1000);
    // The block is committed: a listener that throws is logged and changes nothing here.
    for (const listener of this.builtListeners) {
      try {
        listener({ blockNumber: b.number, txs: b.body.txEffects.length, seconds });
      } catch (err) {
        this.o.log.warn({ err }, 'a block-built listener failed');
      }
    }
    const mana = b.header.totalManaUsed.value;
    const txHashes = b.body.txEffects.map((e) => e.txHash.toString());
    const tips = chain.readTips();
    // One line per block at info (like geth's "Imported new chain segment"): number, its txs by short hash, mana,
    // time, and where the tips stand.
    this.o.log.info(
      {
        blockNumber: b.number,
        blockHash: b.hash().toString(),
        txs: txHashes.length,
        txHashes,
        mana: mana.toString(),
        ms,
        checkpoint: b.checkpointNumber,
        slot: b.slot,
      },
      `built block ${b.number}: ${txList(txHashes)}, ${mana} mana, ${ms} ms (checkpoint ${b.checkpointNumber}, slot ` +
        `${b.slot}; tips ${tips.proposed.number}/${tips.checkpointed.block.number}/${tips.proven.block.number}/` +
        `${tips.finalized.block.number} proposed/checkpointed/proven/finalized)`,
    );
    if (
      mined ||
      this.o.mode === 'instant' ||
      builder.blockCount >= slots.blocksPerSlotAt(builder.constants.slot) ||
      this.noBlockFitsBeforeDeadline(builder.constants.slot)
    ) {
      this.publish(builder);
      this.current = undefined;
    }
  }

  /**
   * After a restart or an unwind, picks up a checkpoint whose blocks are stored but which was never published.
   * With a committee over the network, stored blocks may be another proposer's (applied from gossip): those are
   * never published here. They become checkpointed when the network's quorum arrives; if none came by the middle
   * of the next slot, they are pruned (4.1.2 prunes uncheckpointed blocks) so this node's slot can build.
   */
  private resumeUnpublished(): void {
    if (this.current) return;
    const { store } = this.o.chain;
    const latest = store.latestBlockNumber();
    if (latest === 0) return;
    const published = store.checkpoints.latest();
    if (published && published.lastBlock >= latest) return;
    const tail = store.blocks.get(latest);
    if (!tail) return;
    const blocks = store.getBlocks(latest - tail.indexInCheckpoint, tail.indexInCheckpoint + 1);
    const first = blocks[0];
    if (!first) return;
    const consensus = this.consensus;
    const over = first.slot < this.o.slots.currentSlot();
    if (consensus && (!consensus.holdsProposerKey(first.slot) || (consensus.overNetwork && over))) {
      this.pruneForeignUncheckpointed(first.slot, first.number);
      return;
    }
    this.current = resumeStoredCheckpoint(this.o.chain, this.o.slots, blocks);
  }

  /**
   * Blocks of a past slot without a checkpoint (another proposer's, or this node's own that missed its quorum
   * over the network): pruned three quarters into the next slot, after the proposer stopped waiting (half a slot).
   * On a real L1 a checkpoint lands in its own slot or never: they go once the L1 blocks of their slot are read
   * (twice the publishing time after it), so the next proposer keeps most of its slot.
   */
  private pruneForeignUncheckpointed(slot: number, firstBlock: number): void {
    const { slots } = this.o;
    const now = slots.now();
    const next = slots.slotStartMs(slot + 1);
    const wait =
      this.publishingTimeMs === undefined
        ? ((slots.slotStartMs(slot + 2) - next) * 3) / 4
        : Math.min(2 * this.publishingTimeMs, ((slots.slotStartMs(slot + 2) - next) * 3) / 4);
    if (now < next + wait) return;
    this.o.chain.unwindTo(firstBlock - 1);
    this.o.log.warn(
      { slot, firstBlock },
      `pruned the uncheckpointed blocks of slot ${slot} from block ${firstBlock}: no checkpoint with a quorum of attestations arrived for them`,
    );
  }

  /**
   * Publishes a finished checkpoint: signed by the committee first when one runs, then sent to the settlement
   * layer. The stand-in answers at once; signing and a real L1 take time, during which nothing else is built
   * (`sealing`): the next checkpoint builds on this one once it is on L1, or on its parent once it is dropped.
   */
  private publish(builder: CheckpointBuilder): void {
    const completed = builder.complete();
    const consensus = this.consensus;
    const settlement = this.o.chain.settlement;
    // Without a committee the checkpoint goes to L1 at once: the stand-in answers there and then.
    const landing = consensus ? undefined : settlement.publishCheckpoint(completed);
    if (landing !== undefined && !(landing instanceof Promise)) {
      this.commit(completed, landing);
      return;
    }
    this.sealing = (async () => {
      let signed = completed;
      if (consensus) {
        let signatures: CompletedCheckpoint['signatures'];
        try {
          signatures = await consensus.seal(completed);
        } catch (err) {
          const message = (err as Error).message;
          this.o.log.error({ err: message }, `checkpoint ${completed.number} could not be signed: ${message}`);
          this.drop(completed, 'it could not be signed');
          return;
        }
        if (!signatures) {
          this.drop(completed, 'it has no quorum of attestations');
          return;
        }
        signed = { ...completed, signatures };
      }
      let l1: L1PublishedData;
      try {
        l1 = await (landing ?? settlement.publishCheckpoint(signed));
      } catch (err) {
        this.drop(signed, `L1 did not take it (${(err as Error).message}); its txs return to the pool`);
        return;
      }
      this.commit(signed, l1);
    })()
      .catch((err: Error) => {
        // Recording it failed (a full disk): the checkpoint stays unpublished and is taken up again on resume.
        if (!this.o.isStorageFailure?.(err)) {
          this.o.log.error(
            { err: err.message },
            `checkpoint ${completed.number} could not be recorded: ${err.message}`,
          );
        }
      })
      .finally(() => {
        this.sealing = undefined;
        if (this.loop.running && !this.#paused) this.loop.wakeIn(0);
      });
  }

  private commit(completed: CompletedCheckpoint, l1: L1PublishedData): void {
    this.o.chain.recordPublished(completed, l1);
    this.o.log.info(
      {
        checkpoint: completed.number,
        firstBlock: completed.firstBlock,
        lastBlock: completed.lastBlock,
        slot: completed.slot,
        attestations: completed.signatures?.attestations.filter((a) => a.isSigned).length,
        publisher: completed.signatures?.publisher?.toString(),
      },
      `published checkpoint ${completed.number} (blocks ${completed.firstBlock} to ${completed.lastBlock})`,
    );
  }

  /** A checkpoint that cannot be published: its blocks were only proposed, and are pruned (4.1.2 L2PruneUncheckpointed). */
  private drop(completed: CompletedCheckpoint, why: string): void {
    if (this.consensus?.overNetwork) {
      // Every node prunes it at the same point unless a late quorum arrives (resumeUnpublished).
      this.o.log.warn(
        { checkpoint: completed.number, slot: completed.slot },
        `checkpoint ${completed.number} (slot ${completed.slot}) is not published by this node: ${why}; its blocks ${completed.firstBlock} to ${completed.lastBlock} stay proposed until a quorum arrives or they are pruned`,
      );
      return;
    }
    // While it waited for attestations, the network may have replaced its blocks (another proposer's slot came
    // over gossip): only its own blocks are pruned.
    if (this.o.chain.store.getHeader(completed.firstBlock)?.slotNumber !== completed.slot) {
      this.o.log.warn(
        { checkpoint: completed.number, slot: completed.slot },
        `checkpoint ${completed.number} (slot ${completed.slot}) is not published: ${why}; its blocks were already replaced`,
      );
      return;
    }
    try {
      this.o.chain.unwindTo(completed.firstBlock - 1);
      this.o.log.warn(
        { checkpoint: completed.number, slot: completed.slot },
        `checkpoint ${completed.number} (slot ${completed.slot}) is not published: ${why}; its blocks ${completed.firstBlock} to ${completed.lastBlock} are pruned`,
      );
    } catch (err) {
      this.o.log.error(
        { checkpoint: completed.number, err: (err as Error).message },
        `checkpoint ${completed.number} is not published (${why}) and its blocks could not be pruned: ${(err as Error).message}`,
      );
    }
  }

  /**
   * What the blocks of checkpoint `number` in `slot` share; undefined while a real L1 has not said the min fee
   * for it yet.
   */
  private constants(number: number, slot: number, duty?: ProposerDuty): CheckpointConstants | undefined {
    const o = this.o;
    let fees: GasFees;
    const settlement = o.chain.settlement;
    if (settlement.manaMinFee) {
      const fee = settlement.manaMinFee(slot, number - 1);
      if (fee === undefined) return undefined;
      fees = new GasFees(0n, fee);
    } else {
      fees = o.minFees();
    }
    return {
      number,
      slot,
      timestamp: o.slots.slotTimestamp(slot),
      chainId: new Fr(BigInt(o.chainId)),
      version: new Fr(BigInt(o.rollupVersion)),
      // With a committee, the proposer's keystore entry says where rewards and fees go.
      coinbase: duty?.coinbase ?? o.coinbase,
      feeRecipient: duty?.feeRecipient ?? o.feeRecipient,
      gasFees: fees,
    };
  }

  private nextDelay(): number {
    const { slots } = this.o;
    const now = slots.now();
    const slot = slots.slotAt(now);
    const interval = slots.blockIndexAt(now);
    const nextBoundary =
      interval + 1 < slots.blocksPerSlotAt(slot) ? slots.blockStartMs(slot, interval + 1) : slots.slotStartMs(slot + 1);
    // On a real L1 the checkpoint must go out at its publishing deadline, which need not be a block boundary.
    const deadline =
      this.publishingTimeMs === undefined ? Infinity : slots.slotStartMs(slot + 1) - this.publishingTimeMs;
    const untilBoundary = Math.max(1, (deadline > now ? Math.min(nextBoundary, deadline) : nextBoundary) - now);
    return this.o.mode === 'interval' || this.o.mode === 'off'
      ? untilBoundary
      : Math.min(untilBoundary, ON_DEMAND_POLL_MS);
  }
}

function* prepend<T>(head: T, rest: Iterator<T>): IterableIterator<T> {
  yield head;
  for (let r = rest.next(); !r.done; r = rest.next()) yield r.value;
}

/** nodeDev_mineBlocks asked of a sequencer that cannot build now. */
export class SequencerBusyError extends Error {
  override name = 'SequencerBusyError';
}
