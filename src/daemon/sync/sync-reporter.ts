import type { Chain } from '../chain/chain.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Logger } from '../logging/logger.js';
import { L1ReadError } from './l1-checkpoint-errors.js';
import { SyncProgress, syncStatusLine } from './sync-progress.js';
import { SyncRefusedError } from './sync-refused-error.js';
import type { SyncStage } from './sync-stage.js';
import type { SyncProblem, SyncState, SyncStatus } from './sync-status.js';
import { UpstreamHistoryPrunedError, UpstreamRpcError, UpstreamUnavailableError } from './upstream.js';
import type { UpstreamLatencyReading } from './upstream-latency.js';
import { SyncDivergedError } from './upstream-reorg.js';

/**
 * What a follower tells its operator: its state, the problem it is stuck on, the progress figures (GET /status,
 * the `sync` event) and the log lines (a status line every progressIntervalMs while behind, one line once caught
 * up, one line per new problem). Its unwind forgets the rate: the old samples say nothing about the pace.
 */
export class SyncReporter implements SyncStage {
  readonly progress: SyncProgress;
  private started = false;
  private state: SyncState = 'starting';
  private problem: SyncProblem | undefined;
  private lastPollAt: number | undefined;
  private lastLineAt = 0;
  private lastEvent: string | undefined;
  /** Behind since the last "caught up" line. */
  private catchingUp = false;
  /** Whether the upstream was last reported slow. */
  private slowReported = false;

  constructor(
    private readonly o: {
      readonly upstream: string;
      readonly chain: () => Chain;
      readonly clock: Clock;
      readonly log: Logger;
      /** How often the status line is printed while behind; default 5 s. */
      readonly progressIntervalMs?: number;
      /** How long the upstream's calls take lately (RpcUpstream times them). */
      readonly latency?: () => UpstreamLatencyReading | undefined;
    },
  ) {
    this.progress = new SyncProgress(() => o.clock.now());
  }

  /** The sync started at the chain's tip: events are emitted from now on. */
  start(): void {
    this.progress.record(this.chainTip());
    this.started = true;
  }

  get current(): SyncState {
    return this.state;
  }

  /** The figures of the status line, GET /status and the `sync` event. */
  status(): SyncStatus {
    const s = this.progress.status({ state: this.state, upstream: this.o.upstream, blockNumber: this.chainTip() });
    const extra: { lastPollAt?: string; problem?: SyncProblem; upstreamLatency?: UpstreamLatencyReading } = {};
    if (this.lastPollAt !== undefined) extra.lastPollAt = new Date(this.lastPollAt).toISOString();
    if (this.problem) extra.problem = this.problem;
    const latency = this.o.latency?.();
    if (latency) extra.upstreamLatency = latency;
    return { ...s, ...extra };
  }

  /** A slow upstream is said once when it becomes slow and once when it is fast again, never per call. */
  private reportLatency(): void {
    const latency = this.o.latency?.();
    if (!latency || latency.slow === this.slowReported) return;
    this.slowReported = latency.slow;
    const fields = { upstream: this.o.upstream, upstreamLatency: latency };
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    if (latency.slow) {
      this.o.log.warn(
        fields,
        `the upstream ${this.o.upstream} is slow: its answers take ${seconds(latency.averageMs)} on average ` +
          `(the last one ${seconds(latency.lastMs)}); the follower keeps up only as fast as it answers`,
      );
    } else {
      this.o.log.info(fields, `the upstream ${this.o.upstream} answers in ${seconds(latency.averageMs)} again`);
    }
  }

  /** The upstream answered a poll with its tips. */
  polled(target: number): void {
    this.lastPollAt = this.o.clock.now();
    this.progress.setTarget(target);
  }

  unwind(blockNumber: number): void {
    this.progress.resetRate();
    this.progress.record(blockNumber);
  }

  setState(state: SyncState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit(true);
  }

  /** A poll failed: the state and problem it means, logged once per new problem. */
  fail(err: unknown): void {
    const { log, upstream } = this.o;
    let subject: string;
    let state: SyncState;
    let message: string;
    if (err instanceof SyncRefusedError) {
      subject = err.subject;
      state = 'refused';
      message =
        `refused ${err.subject} from ${upstream}: ${err.reason}. Nothing of it was stored; the sync stays at ` +
        `block ${this.chainTip()} and checks again at every poll until the upstream serves one that verifies`;
    } else if (err instanceof SyncDivergedError) {
      subject = 'chain';
      state = 'diverged';
      message = err.message;
    } else if (err instanceof L1ReadError) {
      // A follower with an L1 checks its checkpoints there: an L1 that does not answer stalls it like an upstream.
      subject = 'l1';
      state = 'unreachable';
      message = `${err.message}; retrying at every poll`;
    } else if (err instanceof UpstreamHistoryPrunedError) {
      subject = 'upstream history';
      state = 'refused';
      message =
        `the upstream ${upstream} cannot serve block ${this.chainTip() + 1}: ${err.message}. The sync stays at ` +
        `block ${this.chainTip()} and asks again at every poll`;
    } else if (err instanceof UpstreamUnavailableError || err instanceof UpstreamRpcError) {
      subject = 'upstream';
      state = 'unreachable';
      message = `the upstream ${upstream} failed: ${err.message}; retrying at every poll`;
    } else {
      subject = 'sync';
      state = 'refused';
      message = `sync step failed: ${(err as Error).message ?? String(err)}; retrying at every poll`;
    }
    // The upstream's oldest available block moves on at every block: one line for its pruned history, not one a poll.
    const moved = err instanceof UpstreamHistoryPrunedError && this.problem?.subject === subject;
    if (moved && this.problem) this.problem = { ...this.problem, message };
    const same = moved || (this.problem?.subject === subject && this.problem.message === message);
    if (!same) {
      this.problem = { subject, message, since: new Date(this.o.clock.now()).toISOString() };
      const fields = { upstream, blockNumber: this.chainTip(), subject };
      if (state === 'unreachable') log.warn(fields, message);
      else if (state === 'diverged') log.error(fields, `SYNC STOPPED: ${message}`);
      else if (err instanceof SyncRefusedError) log.error(fields, message);
      else log.error({ ...fields, err }, message);
    }
    this.setState(state);
  }

  /** A poll went through: the problem, if any, is over. */
  recover(): void {
    if (!this.problem) return;
    this.o.log.info(
      { upstream: this.o.upstream, blockNumber: this.chainTip(), was: this.problem.subject },
      `sync from ${this.o.upstream} recovered at block ${this.chainTip()}`,
    );
    this.problem = undefined;
  }

  /** The status line every progressIntervalMs while behind, one line once caught up, and `sync` events. */
  report(force: boolean): void {
    this.reportLatency();
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

  emit(force: boolean): void {
    if (!this.started) return;
    const s = this.status();
    const key = `${s.state}:${s.blockNumber}:${s.targetBlockNumber}:${s.problem?.message}`;
    if (!force && key === this.lastEvent) return;
    this.lastEvent = key;
    this.o.chain().events.emit('sync', s);
  }

  /** The chain's latest block; 0 before the chain is open. */
  chainTip(): number {
    try {
      return this.o.chain().latestBlockNumber;
    } catch {
      return 0;
    }
  }
}
