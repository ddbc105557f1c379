import type { TxReceipt } from '../../core/tx/tx-receipt.js';
import { CliError } from './cli-error.js';
import { EXIT_CODES } from './exit-codes.js';
import type { NodeConnection } from './node-connection.js';
import { wireOf } from './wire-json.js';

/** The statuses a tx goes through, in order (4.x receipts; `dropped` is the way out). */
export const TX_PROGRESS = ['pending', 'proposed', 'checkpointed', 'proven', 'finalized'] as const;
export type TxProgress = (typeof TX_PROGRESS)[number];

/** What 4.1.2 (and this node) says for a hash it never saw: the receipt reads dropped with this error. */
const UNKNOWN_TX_ERROR = 'Tx dropped by P2P node';

export interface WaitOptions {
  readonly until: TxProgress;
  readonly maxWaitMs: number;
  readonly pollMs: number;
  /** Called when the status changes (for the spinner). */
  readonly onStatus?: (status: string) => void;
}

/**
 * Polls node_getTxReceipt until the tx reaches `until` (or a later status), and returns that receipt. A dropped
 * tx fails with its reason (exit 1), a hash the node never saw with exit 4, running out of time with exit 1.
 */
export async function waitForReceipt(node: NodeConnection, txHash: string, o: WaitOptions): Promise<TxReceipt> {
  const target = TX_PROGRESS.indexOf(o.until);
  const deadline = Date.now() + o.maxWaitMs;
  let last = '';
  for (;;) {
    const receipt = await node.call('node_getTxReceipt', txHash);
    if (receipt.status !== last) {
      last = receipt.status;
      o.onStatus?.(last);
    }
    if (receipt.status === 'dropped') {
      if (receipt.error === UNKNOWN_TX_ERROR) {
        throw CliError.notFound(`the node does not know tx ${txHash}`, ['send it first: l2node tx send <file>']);
      }
      throw new CliError(`tx ${txHash} was dropped: ${receipt.error ?? 'no reason given'}`, {
        exitCode: EXIT_CODES.error,
        code: 'TX_DROPPED',
        data: wireOf('node_getTxReceipt', receipt),
      });
    }
    if ((TX_PROGRESS as readonly string[]).indexOf(receipt.status) >= target) return receipt;
    if (Date.now() >= deadline) {
      throw new CliError(
        `tx ${txHash} is still ${receipt.status} after ${Math.round(o.maxWaitMs / 1000)} s (waiting for ${o.until})`,
        {
          exitCode: EXIT_CODES.error,
          code: 'WAIT_TIMEOUT',
          actions: ['wait longer: --max-wait <seconds>', 'see the chain: l2node query tips'],
          data: wireOf('node_getTxReceipt', receipt),
        },
      );
    }
    await new Promise((r) => setTimeout(r, Math.min(o.pollMs, Math.max(1, deadline - Date.now()))));
  }
}
