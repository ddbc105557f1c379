import type { AztecAddress } from '../core/aztec-address.js';
import { paddedFees } from '../core/gas/padded-fees.js';
import { TxBuilder } from '../core/tx/tx-builder.js';
import { fetchTxChainContext, latestHeader, type TxNodeRpc } from './tx-chain-context.js';

export interface TxBotOptions {
  /** The node's public listener. */
  readonly rpc: TxNodeRpc;
  /** Whose FeeJuice pays: a prefunded account (txs carry no signature on a dev chain with fake proofs). */
  readonly feePayer: AztecAddress;
  /** Time between two txs. */
  readonly intervalMs: number;
  /** Spec part 9 (--bot.minFeePadding): the bot offers max fees of minFee * (1 + padding). */
  readonly minFeePadding: number;
  /** A round is skipped while the pool holds at least this many txs (the bot never floods a stalled node). */
  readonly maxPendingTxs: number;
  /** Stop after sending this many (default: run until stopped). */
  readonly count?: number;
  /** How often a `rate` event reports the figures (default 10 s). */
  readonly reportEveryMs?: number;
  readonly onEvent: (event: TxBotEvent) => void;
}

/** What the bot has done since it started. */
export interface TxBotStats {
  readonly sent: number;
  readonly rejected: number;
  readonly failed: number;
  readonly skipped: number;
  readonly seconds: number;
  /** Sent txs per second since the start. */
  readonly txPerSecond: number;
}

export type TxBotEvent =
  | { readonly kind: 'sent'; readonly txHash: string; readonly maxFeePerL2Gas: bigint; readonly maxFeePerDaGas: bigint }
  | { readonly kind: 'rejected'; readonly code: string; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'skipped'; readonly pending: number }
  | { readonly kind: 'rate'; readonly stats: TxBotStats }
  | { readonly kind: 'stopped'; readonly stats: TxBotStats };

/**
 * The transaction bot (spec part 9): sends a valid tx to a node at a set interval, priced at the node's current
 * minimum fees times (1 + padding), and reports its rate. Each tx is a rollup-only tx from the tx builder with
 * a fresh first nullifier, anchored to the latest block. `stop()` lets the tx in flight finish, then resolves
 * with the final figures; `done` resolves the same way when `count` txs were sent.
 */
export class TxBot {
  private builder: TxBuilder | undefined;
  private counts = { sent: 0, rejected: 0, failed: 0, skipped: 0 };
  private startedAt = 0;
  private stopping = false;
  private wake: (() => void) | undefined;
  private loop: Promise<TxBotStats> | undefined;

  constructor(private readonly o: TxBotOptions) {}

  /** Starts sending; resolves once the chain context is known (fails when the node cannot be read). */
  async start(): Promise<void> {
    if (this.loop) throw new Error('the bot is already running');
    this.builder = new TxBuilder(await fetchTxChainContext(this.o.rpc));
    this.startedAt = performance.now();
    this.loop = this.run();
  }

  /** Resolves with the final figures once the bot stopped (on stop() or after `count` txs). */
  get done(): Promise<TxBotStats> {
    if (!this.loop) throw new Error('the bot was not started');
    return this.loop;
  }

  async stop(): Promise<TxBotStats> {
    this.stopping = true;
    this.wake?.();
    return this.loop ?? this.stats();
  }

  stats(): TxBotStats {
    const seconds = this.startedAt === 0 ? 0 : (performance.now() - this.startedAt) / 1000;
    return { ...this.counts, seconds, txPerSecond: seconds > 0 ? this.counts.sent / seconds : 0 };
  }

  private async run(): Promise<TxBotStats> {
    const reportEvery = this.o.reportEveryMs ?? 10_000;
    let lastReport = performance.now();
    while (!this.stopping && (this.o.count === undefined || this.counts.sent < this.o.count)) {
      const started = performance.now();
      await this.sendOne();
      if (performance.now() - lastReport >= reportEvery) {
        lastReport = performance.now();
        this.o.onEvent({ kind: 'rate', stats: this.stats() });
      }
      if (this.o.count !== undefined && this.counts.sent >= this.o.count) break;
      await this.sleep(Math.max(0, this.o.intervalMs - (performance.now() - started)));
    }
    const stats = this.stats();
    this.o.onEvent({ kind: 'stopped', stats });
    return stats;
  }

  private async sendOne(): Promise<void> {
    const { rpc } = this.o;
    try {
      const pending = await rpc.call('node_getPendingTxCount');
      if (pending >= this.o.maxPendingTxs) {
        this.counts.skipped++;
        this.o.onEvent({ kind: 'skipped', pending });
        return;
      }
      const minFees = await rpc.call('node_getCurrentMinFees');
      const maxFees = paddedFees(minFees, this.o.minFeePadding);
      const builder = (this.builder as TxBuilder).withAnchor(await latestHeader(rpc));
      const tx = builder.build({ feePayer: this.o.feePayer, maxFeesPerGas: maxFees });
      await rpc.call('node_sendTx', tx.toJSON());
      this.counts.sent++;
      this.o.onEvent({
        kind: 'sent',
        txHash: tx.txHash.toString(),
        maxFeePerL2Gas: maxFees.feePerL2Gas,
        maxFeePerDaGas: maxFees.feePerDaGas,
      });
    } catch (err) {
      const { code, message } = describeFailure(err);
      if (REJECTION_CODES.has(code)) {
        this.counts.rejected++;
        this.o.onEvent({ kind: 'rejected', code, message });
      } else {
        this.counts.failed++;
        this.o.onEvent({ kind: 'failed', message });
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

/** The node refused the tx itself (spec part 7 rejection codes, or validation): counted apart from outages. */
const REJECTION_CODES = new Set([
  'LOW_PRIORITY_FEE',
  'INSUFFICIENT_FEE_PAYER_BALANCE',
  'NULLIFIER_CONFLICT',
  'TX_REJECTED',
  'TX_INVALID',
]);

/** A failure's stable code (the command error's, which is the node's data.code) and message. */
function describeFailure(err: unknown): { code: string; message: string } {
  const e = err as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const code = typeof e?.code === 'string' ? e.code : 'ERROR';
  return { code, message };
}
