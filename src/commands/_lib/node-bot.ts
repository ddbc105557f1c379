import { TxBot, type TxBotEvent } from '../../bot/tx-bot.js';
import type { AztecAddress } from '../../core/aztec-address.js';
import type { Logger } from '../../daemon/logging/logger.js';
import { NodeConnection } from './node-connection.js';

export interface NodeBotOptions {
  readonly publicUrl: string;
  readonly feePayer: AztecAddress;
  readonly intervalSeconds: number;
  readonly minFeePadding: number;
  readonly maxPendingTxs: number;
  readonly log: Logger;
}

/**
 * The tx bot of `l2node start --bot`: a client of the node's own public listener (as `l2node bot` is of any
 * node), its events in the node's log under module `bot`, its rate every 10 s.
 */
export async function startNodeBot(o: NodeBotOptions): Promise<TxBot> {
  const bot = new TxBot({
    rpc: new NodeConnection({ url: o.publicUrl, listener: 'public', timeoutMs: 30_000 }),
    feePayer: o.feePayer,
    intervalMs: o.intervalSeconds * 1000,
    minFeePadding: o.minFeePadding,
    maxPendingTxs: o.maxPendingTxs,
    onEvent: (e) => logEvent(o.log, e),
  });
  await bot.start();
  o.log.info(
    { feePayer: o.feePayer.toString(), intervalSeconds: o.intervalSeconds, minFeePadding: o.minFeePadding },
    `tx bot running: a tx every ${o.intervalSeconds} s from ${o.feePayer}, max fees = min fees x ${1 + o.minFeePadding}`,
  );
  return bot;
}

function logEvent(log: Logger, e: TxBotEvent): void {
  switch (e.kind) {
    case 'sent':
      log.debug({ txHash: e.txHash, maxFeePerL2Gas: e.maxFeePerL2Gas.toString() }, `bot sent ${e.txHash}`);
      break;
    case 'rejected':
      log.warn({ code: e.code }, `bot tx rejected: ${e.message}`);
      break;
    case 'failed':
      log.warn(`bot could not send: ${e.message}`);
      break;
    case 'skipped':
      log.debug({ pending: e.pending }, `bot skipped a turn: ${e.pending} txs pending`);
      break;
    case 'rate':
    case 'stopped':
      log.info(
        { ...e.stats },
        `tx bot ${e.kind === 'stopped' ? 'stopped' : 'rate'}: ${e.stats.sent} sent (${e.stats.txPerSecond.toFixed(2)} tx/s), ${e.stats.rejected} rejected, ${e.stats.failed} failed, ${e.stats.skipped} skipped`,
      );
      break;
  }
}
