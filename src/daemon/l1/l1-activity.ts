import { l1TxSubject } from '../../rpc/l1-tx-text.js';
import type { StreamL1Tx } from '../../rpc/node-stream-event.js';
import type { Logger } from '../logging/logger.js';

/** What the node sends to the rollup: a checkpoint proposal, or an epoch's root proof. */
export type L1TxKind = 'propose' | 'proof';

export const L1_TX_KINDS: readonly L1TxKind[] = ['propose', 'proof'];

/** How one L1 tx of the publisher ended, as the publisher tells it. */
export interface L1TxOutcome {
  readonly kind: L1TxKind;
  /** Undefined when the tx could not be sent. */
  readonly txHash: `0x${string}` | undefined;
  /** False: reverted, dropped, or not sent. */
  readonly ok: boolean;
  /** propose: the checkpoint number. */
  readonly checkpoint?: number;
  /** proof: the epoch, and the checkpoints it proves. */
  readonly epoch?: number;
  readonly fromCheckpoint?: number;
  readonly toCheckpoint?: number;
  readonly l1BlockNumber?: bigint;
  readonly gasUsed?: bigint;
  readonly blobGasUsed?: bigint;
  readonly effectiveGasPriceWei?: bigint;
  /** Why it failed: one line, no stack, no secrets. */
  readonly error?: string;
  /** From building the tx to its receipt (or its failure). */
  readonly seconds: number;
}

/**
 * An outcome as GET /status and the event stream show it: plain JSON, bigints as decimal strings, `txHash` null
 * when the tx was not sent, `at` the time the node recorded it (ISO 8601).
 */
export type L1TxReport = StreamL1Tx;

export interface L1ActivityOptions {
  readonly log: Logger;
  /** The time a report carries; the wall clock by default. */
  readonly now?: () => Date;
}

/** An error text longer than this is cut: a revert's data or a node's message can run to kilobytes. */
const MAX_ERROR_CHARS = 300;

/**
 * The publisher's L1 txs as operators see them: each outcome is logged (info when it landed, a warning naming
 * what failed and that the publisher retries), kept as the last proposal or proof for GET /status, `l2node
 * status` and the dashboard, and passed to whoever listens (the metrics count txs, gas and time from it).
 */
export class L1Activity {
  private readonly last = new Map<L1TxKind, L1TxReport>();
  private readonly listeners = new Set<(outcome: L1TxOutcome) => void>();

  constructor(private readonly o: L1ActivityOptions) {}

  record(outcome: L1TxOutcome): void {
    const report = toReport(outcome, (this.o.now?.() ?? new Date()).toISOString());
    this.last.set(outcome.kind, report);
    const { log } = this.o;
    const what = `${l1TxSubject(report)} ${report.kind === 'propose' ? 'proposal' : 'proof'}`;
    if (report.ok) {
      log.info(
        report,
        `${what} landed on L1 in block ${report.l1BlockNumber ?? '?'} (${report.txHash}), ` +
          `${report.gasUsed ?? '?'} gas, ${report.seconds.toFixed(1)} s`,
      );
    } else {
      log.warn(
        report,
        `${what} failed on L1${report.txHash ? ` (${report.txHash})` : ', not sent'}: ${report.error ?? 'no reason given'}; will retry`,
      );
    }
    for (const listener of this.listeners) listener(outcome);
  }

  /** The last checkpoint proposal sent (or tried) since the node started. */
  lastProposal(): L1TxReport | undefined {
    return this.last.get('propose');
  }

  /** The last epoch proof sent (or tried) since the node started. */
  lastProof(): L1TxReport | undefined {
    return this.last.get('proof');
  }

  /** Tells `listener` of every outcome recorded from now on (metrics, the event stream); returns the unsubscribe. */
  onRecord(listener: (outcome: L1TxOutcome) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function toReport(o: L1TxOutcome, at: string): L1TxReport {
  const decimal = (v: bigint | undefined) => (v === undefined ? undefined : v.toString());
  const fields: Record<string, unknown> = {
    kind: o.kind,
    ok: o.ok,
    txHash: o.txHash ?? null,
    checkpoint: o.checkpoint,
    epoch: o.epoch,
    fromCheckpoint: o.fromCheckpoint,
    toCheckpoint: o.toCheckpoint,
    l1BlockNumber: decimal(o.l1BlockNumber),
    gasUsed: decimal(o.gasUsed),
    blobGasUsed: decimal(o.blobGasUsed),
    effectiveGasPriceWei: decimal(o.effectiveGasPriceWei),
    error: o.error === undefined ? undefined : oneLine(o.error),
    seconds: Math.round(o.seconds * 1000) / 1000,
    at,
  };
  // Absent rather than undefined: the report is compared and serialised as it is.
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return fields as unknown as L1TxReport;
}

/** The first line of an error text, cut to a bounded length: what a status line and a log line can carry. */
export function oneLine(text: string): string {
  const first = (text.split('\n')[0] as string).trim();
  return first.length > MAX_ERROR_CHARS ? `${first.slice(0, MAX_ERROR_CHARS - 1)}…` : first;
}
