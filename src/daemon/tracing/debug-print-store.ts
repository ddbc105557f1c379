import { DebugLog, type DebugLogJson } from '../../core/logs/debug-log.js';
import { TxReceipt } from '../../core/tx/tx-receipt.js';
import type { TxHash } from '../../core/tx-hash.js';
import type { Logger } from '../logging/logger.js';
import type { ProcessedPublicTx } from '../public-processor/public-tx-processor.js';
import type { PublishedContracts } from '../public-processor/tx-contract-source.js';
import type { TracingConfig } from './tracing-settings.js';

/** One debug print, with the name of the function that printed it when the node knows it. */
export interface DebugPrint {
  readonly log: DebugLog;
  readonly functionName: string | undefined;
}

/** A debug print as it crosses from the sequencer's worker to the main thread. */
export interface DebugPrintJson extends DebugLogJson {
  readonly functionName?: string;
}

/** The debug prints of one tx a block included. */
export interface TxDebugPrints {
  readonly txHash: TxHash;
  readonly prints: readonly DebugPrint[];
}

/** A processed tx's prints, named from the contracts it ran (registered signatures, protocol contracts). */
export function debugPrintsToJson(
  processed: Pick<ProcessedPublicTx, 'debugLogs' | 'debugLogSelectors'>,
  contracts: Pick<PublishedContracts, 'getFunctionName'>,
): DebugPrintJson[] {
  return processed.debugLogs.map((log, i) => {
    const selector = processed.debugLogSelectors[i];
    const functionName = selector === undefined ? undefined : contracts.getFunctionName(selector);
    return { ...log.toJSON(), ...(functionName ? { functionName } : {}) };
  });
}

export function debugPrintsFromJson(json: readonly DebugPrintJson[]): DebugPrint[] {
  return json.map((p) => ({ log: DebugLog.fromJSON(p), functionName: p.functionName }));
}

/** Txs whose prints are kept for receipts (the oldest go first), as 4.1.2's in-memory store keeps them. */
const KEPT_TXS = 1024;

/** 4.1.2's formatting of a debug_log message: `{0}`, `{1}`... stand for the fields. */
function formatPrint(log: DebugLog): string {
  const fields = log.fields.map((f) => f.toString());
  let used = false;
  const text = log.message.replace(/\{(\d+)\}/g, (whole, i: string) => {
    const v = fields[Number(i)];
    if (v === undefined) return whole;
    used = true;
    return v;
  });
  return used || fields.length === 0 ? text : `${text} ${fields.join(', ')}`;
}

function sizeOf(log: DebugLog): number {
  return log.message.length + 32 * log.fields.length;
}

/**
 * Debug prints of the blocks this node builds (docs/debugging.md): each printed to the node's log as it is
 * committed (contract, function where the node knows its name, tx hash), and kept in memory, bounded per tx
 * and in txs, for the receipts' `debugLogs` (4.1.2 attaches them in test mode). `--debug-logs false` turns
 * both off, and the block builder then runs DEBUGLOG without recording anything.
 */
export class DebugPrintStore {
  private readonly byTx = new Map<string, readonly DebugLog[]>();

  constructor(
    private readonly config: TracingConfig,
    private readonly log: Logger,
  ) {}

  /** Read at each block: nodeAdmin_setConfig turns prints on or off without a restart. */
  get enabled(): boolean {
    return this.config.debugLogs;
  }

  /** A committed block's prints: logged, and kept for receipts. */
  blockCommitted(blockNumber: number, prints: readonly TxDebugPrints[]): void {
    for (const p of prints) {
      if (p.prints.length === 0) continue;
      const txHash = p.txHash.toString();
      for (const { log, functionName: name } of p.prints) {
        const where = `${log.contractAddress}${name ? `:${name}` : ''}`;
        this.log.info(
          {
            txHash,
            blockNumber,
            contractAddress: log.contractAddress.toString(),
            functionName: name,
            level: log.level,
          },
          `debug_log ${where} (tx ${txHash}): ${formatPrint(log)}`,
        );
      }
      this.keep(
        txHash,
        p.prints.map((print) => print.log),
      );
    }
  }

  /** The receipt with the tx's prints when it is mined and printed something. */
  decorate(receipt: TxReceipt): TxReceipt {
    if (!receipt.isMined()) return receipt;
    const logs = this.byTx.get(receipt.txHash.toString());
    return logs ? new TxReceipt({ ...receipt, debugLogs: logs }) : receipt;
  }

  private keep(txHash: string, logs: readonly DebugLog[]): void {
    const limit = this.config.debugLogMaxBytesPerTx;
    const kept: DebugLog[] = [];
    let bytes = 0;
    for (const log of logs) {
      bytes += sizeOf(log);
      if (bytes > limit) break;
      kept.push(log);
    }
    if (kept.length < logs.length) {
      const first = logs[0] as DebugLog;
      kept.push(
        new DebugLog(
          first.contractAddress,
          'warn',
          `${logs.length - kept.length} more debug logs of this tx not kept (--debug-log-max-bytes-per-tx ${limit})`,
          [],
        ),
      );
    }
    this.byTx.delete(txHash);
    this.byTx.set(txHash, kept);
    if (this.byTx.size > KEPT_TXS) {
      const oldest = this.byTx.keys().next().value;
      if (oldest !== undefined) this.byTx.delete(oldest);
    }
  }
}
