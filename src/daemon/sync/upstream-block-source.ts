import type { L2Block } from '../../core/block/l2-block.js';
import { toHex64 } from '../../core/fr.js';
import type { BlockProducer } from '../chain/block-producer.js';
import type { Chain } from '../chain/chain.js';
import type { L2Tips } from '../chain/l2-tips.js';
import type { NodeConfig } from '../config/settings.js';
import type { Cancel, Clock } from '../lifecycle/clock.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import { verifyCheckpointAttestations } from '../validators/verify-checkpoint-attestations.js';
import type { WorldState } from '../world-state/world-state.js';
import { CheckpointSponge } from './checkpoint-sponge.js';
import { verifyUpstreamCheckpoint } from './checkpoint-verification.js';
import { findCommonAncestor } from './common-ancestor.js';
import { SyncProgress, syncStatusLine } from './sync-progress.js';
import { SyncRefusedError } from './sync-refused-error.js';
import type { SyncProblem, SyncState, SyncStatus } from './sync-status.js';
import { type Upstream, type UpstreamCheckpoint, UpstreamRpcError, UpstreamUnavailableError } from './upstream.js';
import { adoptUpstreamIdentity, checkUpstreamGenesis, type IsExplicitSetting } from './upstream-identity.js';
import type { UpstreamSettlement } from './upstream-settlement.js';

export interface UpstreamBlockSourceOptions {
  readonly upstream: Upstream;
  /** Tells the node of a failed step; true when it was a full disk (reported by the node's storage health). */
  readonly isStorageFailure?: (err: unknown) => boolean;
  /** The chain (open once the chain service started). */
  readonly chain: () => Chain;
  /** The chain's settlement layer, fed with the upstream's tips. */
  readonly settlement: UpstreamSettlement;
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

/** The upstream's chain no longer holds one of this node's blocks: unwind to the common ancestor. */
class UpstreamReorgedError extends Error {
  override name = 'UpstreamReorgedError';
}

/** The upstream's chain leaves this node's finalized blocks: refused for good (until the upstream changes). */
class SyncDivergedError extends Error {
  override name = 'SyncDivergedError';
}

/** One fetch of the catch-up: checkpoints (with their blocks) while the upstream has more, then plain blocks. */
type Batch =
  | { readonly kind: 'checkpoints'; readonly items: readonly UpstreamCheckpoint[] }
  | { readonly kind: 'blocks'; readonly items: readonly L2Block[] };

const BLOCKS_PER_CALL = 100;
const CHECKPOINTS_PER_CALL = 50;
const START_RETRY_MS = 1000;

/**
 * Follower mode (DESIGN section 1, issue 7): the node's block source when it runs with `--sync-from`. Polls the
 * upstream's tips every archiverPollingIntervalMS, fetches what it lacks in batches (published checkpoints with
 * their blocks while the upstream has more, then proposed blocks), and applies every block through the chain's
 * one applyBlock path after checking it: its position and parent, its body against the header (blob sponge),
 * the chain's identity, then the roots and the archive inside applyBlock. A block that does not verify is
 * refused and nothing of it is stored; the sync then waits on the upstream, re-fetching and re-checking at
 * every poll. Checkpoints are recorded once checked against the stored blocks; proven and finalized follow
 * the upstream's, capped at this node's checkpoints. When the upstream's chain no longer holds this node's
 * tip, the chain unwinds to the common ancestor, never below its finalized block.
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
  private state: SyncState = 'starting';
  private problem: SyncProblem | undefined;
  private lastPollAt: number | undefined;
  private lastLineAt = 0;
  private lastEvent: string | undefined;
  /** Behind since the last "caught up" line. */
  private catchingUp = false;
  private sponge: CheckpointSponge | undefined;
  private checkpointsPerCall = CHECKPOINTS_PER_CALL;
  private readonly progress: SyncProgress;

  constructor(private readonly o: UpstreamBlockSourceOptions) {
    this.progress = new SyncProgress(() => o.clock.now());
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Checks the upstream (identity, genesis) and adopts its identity, then starts polling. */
  async start(): Promise<void> {
    await this.connect();
    const chain = this.o.chain();
    this.sponge = new CheckpointSponge(chain.store);
    this.progress.record(chain.latestBlockNumber);
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
    this.setState('paused');
    this.o.log.info(
      { blockNumber: this.chainTip() },
      `sync from ${this.o.upstream.url} paused at block ${this.chainTip()}`,
    );
    this.emit(true);
  }

  /** nodeAdmin_resumeSync: polls again from where the chain is now (a rollback may have moved it). */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.sponge?.reset();
    this.progress.resetRate();
    this.setState('syncing');
    this.o.log.info(
      { blockNumber: this.chainTip() },
      `sync from ${this.o.upstream.url} resumed at block ${this.chainTip()}`,
    );
    if (this.started && !this.stopped) this.schedule(0);
  }

  /** BlockProducer: the upstream tip it last saw (GET /status reports the distance to it). */
  syncTarget(): number | undefined {
    return this.progress.targetBlock;
  }

  /** The figures of the status line, GET /status and the `sync` event. */
  status(): SyncStatus {
    const s = this.progress.status({ state: this.state, upstream: this.o.upstream.url, blockNumber: this.chainTip() });
    const extra: { lastPollAt?: string; problem?: SyncProblem } = {};
    if (this.lastPollAt !== undefined) extra.lastPollAt = new Date(this.lastPollAt).toISOString();
    if (this.problem) extra.problem = this.problem;
    return { ...s, ...extra };
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
    try {
      const tips = await this.o.upstream.tips();
      this.lastPollAt = this.o.clock.now();
      this.o.settlement.observe(tips);
      this.progress.setTarget(tips.proposed.number);
      if ((this.state === 'starting' || this.state === 'synced') && this.chainTip() < tips.proposed.number) {
        this.setState('syncing');
      }
      // Before the first batch, so a catch-up shows where it starts even when one batch finishes it.
      this.report(false);
      await this.follow(tips);
      if (!this.active) return;
      this.clearProblem();
      this.setState(this.chainTip() >= tips.proposed.number ? 'synced' : 'syncing');
    } catch (err) {
      this.onFailure(err);
    }
    this.report(false);
  }

  /** Brings the chain to the upstream's tips; a reorg found on the way unwinds and starts over (at most twice). */
  private async follow(tips: L2Tips): Promise<void> {
    for (let round = 0; ; round++) {
      try {
        await this.checkTip(tips);
        await this.catchUp(tips);
        return;
      } catch (err) {
        if (!(err instanceof UpstreamReorgedError) || round >= 2) throw err;
        await this.unwindToCommonAncestor(Math.min(this.chainTip(), tips.proposed.number), err.message);
      }
    }
  }

  /** At or above the upstream's tip, this node's block must be the upstream's. */
  private async checkTip(tips: L2Tips): Promise<void> {
    const chain = this.o.chain();
    const ours = chain.latestBlockNumber;
    const target = tips.proposed.number;
    if (ours === 0 || target > ours) return;
    const ourHash = chain.store.getBlockHash(ours) as bigint;
    if (target === ours && BigInt(tips.proposed.hash) === ourHash) return;
    const why =
      target === ours
        ? `the upstream's block ${ours} is ${tips.proposed.hash}, this node's ${toHex64(ourHash)}`
        : `the upstream is at block ${target}, this node at block ${ours}`;
    throw new UpstreamReorgedError(why);
  }

  /**
   * Fetches and applies until the upstream's tips as polled, the next batch in flight while one is applied.
   * Proven and finalized follow after each batch.
   */
  private async catchUp(tips: L2Tips): Promise<void> {
    const chain = this.o.chain();
    let position = { block: chain.latestBlockNumber, checkpoint: chain.store.checkpoints.latest()?.number ?? 0 };
    let next = this.fetch(tips, position);
    while (next && this.active) {
      const batch = await next;
      if (!batch || !this.active) break;
      if (batch.items.length === 0) {
        // The upstream's tips promise more than it serves: say so, or the node would stay not-ready silently.
        const [what, at, method] =
          batch.kind === 'checkpoints'
            ? ['checkpoint', position.checkpoint, 'node_getCheckpoints']
            : ['block', position.block, 'node_getBlocks'];
        throw new UpstreamUnavailableError(
          `it announces block ${tips.proposed.number} and checkpoint ${tips.checkpointed.checkpoint.number} ` +
            `(node_getL2Tips) but ${method} serves no ${what} after ${what} ${at}`,
        );
      }
      position = batchEnd(batch, position);
      if (batch.kind === 'checkpoints') this.sizeCheckpointBatches(batch.items);
      next = this.fetch(tips, position);
      if (batch.kind === 'checkpoints') {
        for (const c of batch.items) if (this.active) await this.applyCheckpoint(c);
      } else {
        for (const b of batch.items) if (this.active) await this.applyUpstreamBlock(b);
      }
      chain.syncSettlement();
      this.report(false);
    }
    if (this.active) chain.syncSettlement();
  }

  /** The batch after `position`, or undefined at the upstream's tips; its failure surfaces when awaited. */
  private fetch(tips: L2Tips, position: { block: number; checkpoint: number }): Promise<Batch | undefined> | undefined {
    const { upstream } = this.o;
    const upCheckpoint = tips.checkpointed.checkpoint.number;
    let p: Promise<Batch | undefined>;
    if (position.checkpoint < upCheckpoint) {
      const limit = Math.min(this.checkpointsPerCall, upCheckpoint - position.checkpoint);
      p = upstream.checkpoints(position.checkpoint + 1, limit).then((items) => ({ kind: 'checkpoints', items }));
    } else if (position.block < tips.proposed.number) {
      const limit = Math.min(BLOCKS_PER_CALL, tips.proposed.number - position.block);
      p = upstream.blocks(position.block + 1, limit).then((items) => ({ kind: 'blocks', items }));
    } else {
      return undefined;
    }
    // Awaited later (or dropped when the batch before it fails): never an unhandled rejection.
    p.catch(() => {});
    return p;
  }

  /**
   * Checkpoints come with all their blocks: ask for about BLOCKS_PER_CALL blocks' worth, so one answer stays
   * small enough to encode, send and decode while the previous batch is applied.
   */
  private sizeCheckpointBatches(items: readonly UpstreamCheckpoint[]): void {
    const blocks = items.reduce((n, c) => n + c.blocks.length, 0);
    if (items.length === 0 || blocks === 0) return;
    const perCheckpoint = blocks / items.length;
    this.checkpointsPerCall = Math.max(1, Math.min(CHECKPOINTS_PER_CALL, Math.round(BLOCKS_PER_CALL / perCheckpoint)));
  }

  private async applyCheckpoint(c: UpstreamCheckpoint): Promise<void> {
    const chain = this.o.chain();
    for (const b of c.blocks) {
      if (!this.active) return;
      await this.applyUpstreamBlock(b);
    }
    if (!this.active) return;
    const row = verifyUpstreamCheckpoint(c, chain.store);
    // The attestations are what makes a checkpoint final for its committee: a follower takes it only when
    // every signature recovers to its member and a quorum signed (spec part 4 validators; issue 9).
    const check = await verifyCheckpointAttestations({
      header: c.header,
      archiveRoot: c.archiveRoot.value,
      attestations: c.attestations,
    });
    if (!check.ok) {
      throw new SyncRefusedError(
        `checkpoint ${c.number}`,
        c.blocks[0]?.number ?? 0,
        `its attestations ${check.problem}`,
      );
    }
    chain.recordCheckpoint(row, c.attestations.length > 0 ? { attestations: c.attestations } : undefined);
  }

  /** Verifies and applies one block that extends the chain; one this node has must be the same block. */
  private async applyUpstreamBlock(block: L2Block): Promise<void> {
    const chain = this.o.chain();
    const ws = chain.worldState;
    const n = block.number;
    const ours = chain.latestBlockNumber;
    if (n <= ours) {
      if (chain.store.getBlockHash(n) !== block.hash().value) {
        throw new UpstreamReorgedError(`the upstream's block ${n} is ${block.hash()}, not this node's`);
      }
      return;
    }
    const subject = `block ${n}`;
    if (n !== ours + 1) {
      throw new SyncRefusedError(subject, ours + 1, `the upstream sent block ${n} after block ${ours}`);
    }
    if (!block.header.lastArchive.equals(ws.getArchiveSnapshot())) await this.parentCheck(block, ws);
    const g = block.header.globalVariables;
    if (
      g.chainId.value !== BigInt(this.o.config.l1ChainId) ||
      g.version.value !== BigInt(this.o.config.rollupVersion)
    ) {
      throw new SyncRefusedError(
        subject,
        n,
        `it is for chain id ${g.chainId.value} and rollup version ${g.version.value}, this chain is ${this.o.config.l1ChainId} version ${this.o.config.rollupVersion}`,
      );
    }
    const messages = await this.messagesOf(block, ws);
    const sponge = this.checkpointSponge.verify(block);
    try {
      chain.applyBlock({ block, l1ToL2Messages: messages });
    } catch (err) {
      throw new SyncRefusedError(subject, n, (err as Error).message);
    }
    this.checkpointSponge.advance(block, sponge);
    this.progress.record(n);
  }

  /** A block whose parent is not this node's tip: the upstream reorged, or the block is wrong. */
  private async parentCheck(block: L2Block, ws: WorldState): Promise<void> {
    const ours = block.number - 1;
    // Both chains start from the same genesis (checked at start): below block 1 the block itself is wrong.
    if (ours > 0 && (await this.o.upstream.blockHash(ours)) !== this.o.chain().store.getBlockHash(ours)) {
      throw new UpstreamReorgedError(`the upstream's block ${block.number} does not extend this node's block ${ours}`);
    }
    const have = ws.getArchiveSnapshot();
    throw new SyncRefusedError(
      `block ${block.number}`,
      block.number,
      `its last archive (${block.header.lastArchive.root}, ${block.header.lastArchive.nextAvailableLeafIndex}) is not ` +
        `the archive after block ${ours} (${have.root}, ${have.nextAvailableLeafIndex}), which the upstream also has`,
    );
  }

  /**
   * The L1-to-L2 messages a checkpoint's first block inserts. Appending zeros leaves an append-only tree's root
   * as it was, so an unchanged message tree root means none; otherwise they come from the upstream.
   */
  private async messagesOf(block: L2Block, ws: WorldState): Promise<readonly bigint[]> {
    if (block.indexWithinCheckpoint !== 0) return [];
    const before = ws.getStateReference('latest').l1ToL2MessageTree.root;
    if (block.header.state.l1ToL2MessageTree.root.equals(before)) return [];
    const messages = await this.o.upstream.l1ToL2Messages(block.checkpointNumber);
    if (messages === undefined) {
      throw new SyncRefusedError(
        `block ${block.number}`,
        block.number,
        `its checkpoint ${block.checkpointNumber} inserts L1-to-L2 messages and the upstream does not serve them ` +
          '(node_getL1ToL2Messages is an l2node extension; a 4.1.2 node reads them from L1, which a follower cannot)',
      );
    }
    return messages;
  }

  /** Unwinds to the highest block both chains hold, never below the finalized block. */
  private async unwindToCommonAncestor(high: number, why: string): Promise<void> {
    const chain = this.o.chain();
    const { upstream, log } = this.o;
    const finalized = chain.readTips().finalized.block.number;
    const agreesAt = async (n: number) => n === 0 || (await upstream.blockHash(n)) === chain.store.getBlockHash(n);
    if (!(await agreesAt(finalized))) {
      throw new SyncDivergedError(
        `the upstream ${upstream.url} no longer has this node's finalized block ${finalized} (${why}): ` +
          'finalized blocks are never unwound, so the sync stopped. Follow a node of this chain, or roll this node back ' +
          `below block ${finalized} with nodeAdmin_rollbackTo and force`,
      );
    }
    const ancestor = await findCommonAncestor(finalized, high, agreesAt);
    const from = chain.latestBlockNumber;
    chain.unwindTo(ancestor);
    this.checkpointSponge.reset();
    this.progress.resetRate();
    this.progress.record(ancestor);
    log.warn(
      { upstream: upstream.url, from, to: ancestor, removed: from - ancestor, reason: why },
      `the upstream reorganised (${why}): unwound ${from - ancestor} block${from - ancestor === 1 ? '' : 's'} to the common ancestor, block ${ancestor}`,
    );
  }

  // ---- state, problems and reports ----

  private onFailure(err: unknown): void {
    const { log, upstream } = this.o;
    // A full disk is the node's problem, not the upstream's: the storage health reports it (and not-ready).
    this.o.isStorageFailure?.(err);
    let subject: string;
    let state: SyncState;
    let message: string;
    if (err instanceof SyncRefusedError) {
      subject = err.subject;
      state = 'refused';
      message =
        `refused ${err.subject} from ${upstream.url}: ${err.reason}. Nothing of it was stored; the sync stays at ` +
        `block ${this.chainTip()} and checks again at every poll until the upstream serves one that verifies`;
    } else if (err instanceof SyncDivergedError) {
      subject = 'chain';
      state = 'diverged';
      message = err.message;
    } else if (err instanceof UpstreamUnavailableError || err instanceof UpstreamRpcError) {
      subject = 'upstream';
      state = 'unreachable';
      message = `the upstream ${upstream.url} failed: ${err.message}; retrying at every poll`;
    } else {
      subject = 'sync';
      state = 'refused';
      message = `sync step failed: ${(err as Error).message ?? String(err)}; retrying at every poll`;
    }
    const same = this.problem?.subject === subject && this.problem.message === message;
    if (!same) {
      this.problem = { subject, message, since: new Date(this.o.clock.now()).toISOString() };
      const fields = { upstream: upstream.url, blockNumber: this.chainTip(), subject };
      if (state === 'unreachable') log.warn(fields, message);
      else if (state === 'diverged') log.error(fields, `SYNC STOPPED: ${message}`);
      else if (err instanceof SyncRefusedError) log.error(fields, message);
      else log.error({ ...fields, err }, message);
    }
    this.setState(state);
  }

  private clearProblem(): void {
    if (!this.problem) return;
    this.o.log.info(
      { upstream: this.o.upstream.url, blockNumber: this.chainTip(), was: this.problem.subject },
      `sync from ${this.o.upstream.url} recovered at block ${this.chainTip()}`,
    );
    this.problem = undefined;
  }

  private setState(state: SyncState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit(true);
  }

  /** The status line every progressIntervalMs while behind, one line once caught up, and `sync` events. */
  private report(force: boolean): void {
    const now = this.o.clock.now();
    const s = this.status();
    const behind = (s.behind ?? 0) > 0;
    if (behind) {
      this.catchingUp = true;
      if (force || now - this.lastLineAt >= (this.o.progressIntervalMs ?? 5000)) {
        this.lastLineAt = now;
        this.o.log.info({ sync: s }, syncStatusLine(s));
        this.emit(true);
      }
    } else if (this.catchingUp && s.state === 'synced') {
      this.catchingUp = false;
      this.o.log.info({ sync: s }, `sync from ${s.upstream}: caught up at block ${s.blockNumber}`);
      this.emit(true);
    }
  }

  private emit(force: boolean): void {
    if (!this.started) return;
    const s = this.status();
    const key = `${s.state}:${s.blockNumber}:${s.targetBlockNumber}:${s.problem?.message}`;
    if (!force && key === this.lastEvent) return;
    this.lastEvent = key;
    this.o.chain().events.emit('sync', s);
  }

  private chainTip(): number {
    try {
      return this.o.chain().latestBlockNumber;
    } catch {
      return 0;
    }
  }

  private get checkpointSponge(): CheckpointSponge {
    if (!this.sponge) throw new Error('The block source is not started');
    return this.sponge;
  }
}

/** Where the chain will be once a batch is applied. */
function batchEnd(batch: Batch, from: { block: number; checkpoint: number }): { block: number; checkpoint: number } {
  if (batch.kind === 'blocks')
    return { block: Math.max(from.block, batch.items.at(-1)?.number ?? 0), checkpoint: from.checkpoint };
  const last = batch.items.at(-1);
  const lastBlock = last?.blocks.at(-1)?.number ?? from.block;
  return { block: Math.max(from.block, lastBlock), checkpoint: last?.number ?? from.checkpoint };
}
