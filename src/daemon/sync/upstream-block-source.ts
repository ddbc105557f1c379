import { toHex64 } from '../../core/fr.js';
import type { BlockProducer } from '../chain/block-producer.js';
import type { Chain } from '../chain/chain.js';
import type { L2Tips } from '../chain/l2-tips.js';
import type { NodeConfig } from '../config/settings.js';
import type { Cancel, Clock } from '../lifecycle/clock.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import { txList } from '../logging/tx-list.js';
import { CatchUpPlan } from './catch-up-plan.js';
import type { L1CheckpointCheck } from './l1-checkpoint-check.js';
import { CheckpointNotOnL1Error } from './l1-checkpoint-errors.js';
import { SyncReporter } from './sync-reporter.js';
import type { SyncStatus } from './sync-status.js';
import { type Upstream, UpstreamRpcError, UpstreamUnavailableError } from './upstream.js';
import { UpstreamBlockVerifier } from './upstream-block-verifier.js';
import { adoptUpstreamIdentity, checkUpstreamGenesis, type IsExplicitSetting } from './upstream-identity.js';
import { UpstreamReorg, UpstreamReorgedError } from './upstream-reorg.js';
import type { UpstreamSettlement } from './upstream-settlement.js';

export interface UpstreamBlockSourceOptions {
  readonly upstream: Upstream;
  /** Tells the node of a failed step; true when it was a full disk (reported by the node's storage health). */
  readonly isStorageFailure?: (err: unknown) => boolean;
  /** Why no block may be applied (stored data found damaged: never build on it); undefined while blocks may be. */
  readonly halted?: () => string | undefined;
  /** The chain (open once the chain service started). */
  readonly chain: () => Chain;
  /** The chain's settlement layer, fed with the upstream's tips (the rollup's with an L1). */
  readonly settlement: UpstreamSettlement;
  /** With an L1 (--l1-rpc-urls): checkpoints are recorded only as the rollup holds them; proven and finalized are its. */
  readonly l1?: L1CheckpointCheck;
  /** Read live: nodeAdmin_setConfig changes archiverPollingIntervalMS in place. */
  readonly config: NodeConfig;
  /** Whether the operator set a chain identity setting (then it must match the upstream's). */
  readonly isExplicit: IsExplicitSetting;
  readonly clock: Clock;
  readonly log: Logger;
  /** How long start waits for an upstream that does not answer; default 30 s. */
  readonly startTimeoutMs?: number;
  /** How often the status line is printed while behind; default 5 s. */
  readonly progressIntervalMs?: number;
}

const START_RETRY_MS = 1000;

/**
 * Follower mode (docs/architecture.md section 3.4, issue 7): the node's block source when it runs with
 * `--sync-from`. The loop of the follower's stages: every archiverPollingIntervalMS it polls the upstream's
 * tips, checks that the upstream still holds this node's tip (reorg handling, upstream-reorg.ts), then fetches
 * what it lacks in batches (the catch-up plan, catch-up-plan.ts) and applies every block through the chain's
 * one applyBlock path once checked (the block verifier, upstream-block-verifier.ts). A block that does not
 * verify is refused and nothing of it is stored; the sync then waits on the upstream, re-fetching and
 * re-checking at every poll. Proven and finalized follow the upstream's, capped at this node's checkpoints.
 * With an L1, checkpoints are checked against the rollup contract and taken only once it holds them, and proven
 * and finalized are the rollup's (l1-checkpoint-check.ts).
 * When the upstream's chain no longer holds this node's tip, the chain unwinds to the common ancestor (never
 * below its finalized block) and each stage unwinds with it.
 *
 * As the node's BlockProducer, nodeAdmin_pauseSync / resumeSync stop and restart it; as a Service, start checks
 * the upstream's identity and genesis before anything is served. Everything it stores goes through applyBlock
 * and the chain's transactions, so a follower killed at any point resumes from its last committed block.
 */
export class UpstreamBlockSource implements Service, BlockProducer {
  readonly name = 'sync';
  private started = false;
  private stopped = false;
  #paused = false;
  private timer: Cancel | undefined;
  private inFlight: Promise<void> | undefined;
  private readonly reporter: SyncReporter;
  private readonly plan: CatchUpPlan;
  private readonly verifier: UpstreamBlockVerifier;
  private readonly reorg: UpstreamReorg;

  constructor(private readonly o: UpstreamBlockSourceOptions) {
    this.reporter = new SyncReporter({
      upstream: o.upstream.url,
      chain: o.chain,
      clock: o.clock,
      log: o.log,
      progressIntervalMs: o.progressIntervalMs,
      latency: () => o.upstream.latency?.(),
    });
    this.plan = new CatchUpPlan(o.upstream);
    this.verifier = new UpstreamBlockVerifier({
      upstream: o.upstream,
      chain: o.chain,
      config: o.config,
      l1: o.l1,
      active: () => this.active,
      applied: (block, messages, ms) => {
        this.reporter.progress.record(block.number);
        const n = block.number;
        const txHashes = block.body.txEffects.map((e) => e.txHash.toString());
        const txs = txHashes.length;
        const mana = block.header.totalManaUsed.value;
        // One line per block at info (geth's "Imported new chain segment"); the whole block's facts at debug.
        o.log.info(
          { blockNumber: n, txs, txHashes, mana: mana.toString(), ms },
          `imported block ${n}: ${txList(txHashes)}, ${mana} mana, ${ms} ms`,
        );
        o.log.debug(
          {
            blockNumber: n,
            blockHash: block.hash().toString(),
            checkpoint: block.checkpointNumber,
            slot: block.slot,
            timestamp: block.timestamp.toString(),
            archive: block.archive.root.toString(),
            l1ToL2Messages: messages,
          },
          `block ${n} applied`,
        );
      },
    });
    this.reorg = new UpstreamReorg({
      upstream: o.upstream,
      chain: o.chain,
      log: o.log,
      stages: [this.plan, this.verifier, this.reporter],
    });
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Checks the upstream (identity, genesis) and adopts its identity, then starts polling. */
  async start(): Promise<void> {
    await this.connect();
    const chain = this.o.chain();
    this.reporter.start();
    this.started = true;
    this.o.log.info(
      { upstream: this.o.upstream.url, blockNumber: chain.latestBlockNumber },
      `following ${this.o.upstream.url} from block ${chain.latestBlockNumber}`,
    );
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.();
    this.timer = undefined;
    await this.inFlight;
  }

  /** nodeAdmin_pauseSync: no block is fetched or applied until resume; one being applied completes first. */
  async pause(): Promise<void> {
    if (this.#paused) {
      await this.inFlight;
      return;
    }
    this.#paused = true;
    this.timer?.();
    this.timer = undefined;
    await this.inFlight;
    this.reporter.setState('paused');
    const tip = this.reporter.chainTip();
    this.o.log.info({ blockNumber: tip }, `sync from ${this.o.upstream.url} paused at block ${tip}`);
    this.reporter.emit(true);
  }

  /** nodeAdmin_resumeSync: polls again from where the chain is now (a rollback may have moved it). */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.verifier.unwind();
    this.reporter.progress.resetRate();
    this.reporter.setState('syncing');
    const tip = this.reporter.chainTip();
    this.o.log.info({ blockNumber: tip }, `sync from ${this.o.upstream.url} resumed at block ${tip}`);
    if (this.started && !this.stopped) this.schedule(0);
  }

  /** BlockProducer: the upstream tip it last saw (GET /status reports the distance to it). */
  syncTarget(): number | undefined {
    return this.reporter.progress.targetBlock;
  }

  /** The figures of the status line, GET /status and the `sync` event. */
  status(): SyncStatus {
    return this.reporter.status();
  }

  // ---- start-up ----

  /** Reads the upstream's identity and genesis, waiting up to startTimeoutMs for an upstream that does not answer. */
  private async connect(): Promise<void> {
    const { upstream, log } = this.o;
    const deadline = Date.now() + (this.o.startTimeoutMs ?? 30_000);
    for (let attempt = 1; ; attempt++) {
      try {
        const identity = await upstream.identity();
        const genesis = await upstream.genesisHeader();
        const adopted = adoptUpstreamIdentity(identity, this.o.config, this.o.isExplicit, upstream.url);
        const chain = this.o.chain();
        checkUpstreamGenesis(
          genesis,
          {
            hash: chain.worldState.getGenesisBlockHash(),
            state: chain.worldState.getInitialStateReference(),
            hasBlocks: chain.latestBlockNumber > 0,
          },
          upstream.url,
        );
        this.o.l1?.checkUpstream(identity);
        this.o.settlement.setL1ContractAddresses(identity.l1ContractAddresses);
        log.info(
          {
            upstream: upstream.url,
            upstreamVersion: identity.nodeVersion,
            l1ChainId: identity.l1ChainId,
            rollupVersion: identity.rollupVersion,
            genesisBlockHash: toHex64(genesis.hash().value),
          },
          `upstream ${upstream.url}: node version ${identity.nodeVersion}, chain id ${identity.l1ChainId}, ` +
            `rollup version ${identity.rollupVersion}, same genesis` +
            (adopted.length ? `; taken from it: ${adopted.join(', ')}` : ''),
        );
        return;
      } catch (err) {
        if (!(err instanceof UpstreamUnavailableError || err instanceof UpstreamRpcError)) throw err;
        if (Date.now() >= deadline) {
          throw new Error(
            `cannot reach the upstream ${upstream.url} (${err.message}): start it, or fix --sync-from (NODE_SYNC_FROM)`,
          );
        }
        log.warn(
          { upstream: upstream.url, attempt, err: err.message },
          `waiting for the upstream ${upstream.url}: ${err.message}`,
        );
        // A real, referenced timer: nothing else keeps the process alive before the listeners open, and the
        // node's clock unrefs its timers.
        await new Promise((r) => setTimeout(r, START_RETRY_MS));
      }
    }
  }

  // ---- the poll loop ----

  private get active(): boolean {
    return this.started && !this.stopped && !this.#paused;
  }

  /** Polls now (or waits for the poll under way): what the timer does every archiverPollingIntervalMS. */
  pollNow(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (!this.active) return Promise.resolve();
    this.inFlight = this.poll().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private schedule(delayMs: number): void {
    this.timer?.();
    this.timer = this.o.clock.schedule(delayMs, () => {
      this.timer = undefined;
      void this.pollNow().then(() => {
        // The interval is read at every poll: nodeAdmin_setConfig changes it in place.
        if (this.active && !this.timer) this.schedule(this.o.config.archiverPollingIntervalMS);
      });
    });
  }

  private async poll(): Promise<void> {
    const { reporter } = this;
    if (this.o.halted?.()) return;
    try {
      const tips = await this.o.upstream.tips();
      reporter.polled(tips.proposed.number);
      const { l1 } = this.o;
      const recorded = this.o.chain().store.checkpoints.latest()?.number ?? 0;
      const lastCheckpoint = l1 ? await l1.poll(tips.checkpointed.checkpoint.number, recorded) : undefined;
      this.o.settlement.observe(
        l1 ? l1.tips : { proven: tips.proven.checkpoint.number, finalized: tips.finalized.checkpoint.number },
      );
      const state = reporter.current;
      if ((state === 'starting' || state === 'synced') && reporter.chainTip() < tips.proposed.number) {
        reporter.setState('syncing');
      }
      // Before the first batch, so a catch-up shows where it starts even when one batch finishes it.
      reporter.report(false);
      await this.follow(tips, lastCheckpoint);
      if (!this.active) return;
      reporter.recover();
      reporter.setState(reporter.chainTip() >= tips.proposed.number ? 'synced' : 'syncing');
    } catch (err) {
      // A full disk is the node's problem, not the upstream's: the storage health reports it (and not-ready).
      this.o.isStorageFailure?.(err);
      reporter.fail(err);
    }
    reporter.report(false);
  }

  /**
   * Brings the chain to the upstream's tips, its checkpoints up to `lastCheckpoint` (default: all); a reorg found
   * on the way unwinds and starts over (at most twice).
   */
  private async follow(tips: L2Tips, lastCheckpoint?: number): Promise<void> {
    for (let round = 0; ; round++) {
      try {
        this.reorg.checkTip(tips);
        await this.catchUp(tips, lastCheckpoint);
        return;
      } catch (err) {
        if (!(err instanceof UpstreamReorgedError) || round >= 2) throw err;
        await this.reorg.unwindToCommonAncestor(Math.min(this.reporter.chainTip(), tips.proposed.number), err.message);
      }
    }
  }

  /**
   * Fetches and applies until the upstream's tips as polled. Proven and finalized follow after each batch. A
   * checkpoint the rollup does not hold (it moved back since the poll) ends the round: the next poll plans again.
   */
  private async catchUp(tips: L2Tips, lastCheckpoint?: number): Promise<void> {
    const chain = this.o.chain();
    const from = { block: chain.latestBlockNumber, checkpoint: chain.store.checkpoints.latest()?.number ?? 0 };
    this.plan.begin(tips, from, lastCheckpoint);
    while (this.active) {
      const batch = await this.plan.next();
      if (!batch || !this.active) break;
      if (batch.items.length === 0) throw this.plan.emptyBatchError(batch);
      this.plan.advance(batch);
      if (batch.kind === 'checkpoints') {
        try {
          for (const c of batch.items) if (this.active) await this.verifier.applyCheckpoint(c);
        } catch (err) {
          if (!(err instanceof CheckpointNotOnL1Error)) throw err;
          this.plan.unwind();
          break;
        }
      } else {
        const tip = tips.proposed;
        for (const b of batch.items) {
          if (this.active) await this.verifier.applyBlock(b, b.number === tip.number ? BigInt(tip.hash) : undefined);
        }
      }
      chain.syncSettlement();
      this.reporter.report(false);
    }
    if (this.active) chain.syncSettlement();
  }
}
