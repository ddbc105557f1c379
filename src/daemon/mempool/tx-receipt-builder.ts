import { executionResultFromRevertCode, TX_DROPPED_ERROR, TxReceipt, type TxStatus } from '../../core/tx/tx-receipt.js';
import type { TxHash } from '../../core/tx-hash.js';
import type { ChainTipNumbers, MinedTx, MinedTxLookup } from './mined-tx-lookup.js';
import type { TxDropReason, TxPool } from './tx-pool.js';

/**
 * Why a receipt says `dropped` (Aztec issue #25018): `unknown` when this node never saw the hash (behind a
 * load balancer another node may well have it), else why the pool let go of it.
 */
export type TxDropReasonCode = 'unknown' | TxDropReason;

/** Aztec's network default epoch length, in slots. */
const DEFAULT_EPOCH_DURATION = 32;

/**
 * Builds node_getTxReceipt answers (docs/aztec-facts.md sections 5.4 and 2.2): a tx in a block gets
 * the status of the most advanced tip at or above its block (finalized, proven, checkpointed, else
 * proposed; the spec's `mined` is any of these) with its execution result, fee, block and epoch; a pending
 * tx gets `pending`; anything else `dropped` with 4.1.2's error text (followed by the drop detail when the pool knows why) and
 * the drop reason.
 */
export class TxReceiptBuilder {
  constructor(
    private readonly pool: TxPool,
    private readonly minedTxLookup: MinedTxLookup | undefined,
    private readonly epochDuration: number = DEFAULT_EPOCH_DURATION,
  ) {}

  receipt(txHash: TxHash): TxReceipt {
    const lookup = this.minedTxLookup;
    const mined = lookup?.findMinedTx(txHash);
    if (mined) return this.minedReceipt(txHash, mined, lookup?.tips());
    const record = this.pool.record(txHash);
    if (record?.status === 'pending') return new TxReceipt({ txHash, status: 'pending' });
    // Mined as far as the pool saw, but the chain store does not say so (not wired yet): the pool's record.
    if (record?.status === 'mined') return this.minedReceipt(txHash, record.mined, lookup?.tips());
    if (record?.status !== 'dropped') {
      return new TxReceipt({ txHash, status: 'dropped', error: TX_DROPPED_ERROR, dropReason: 'unknown' });
    }
    // The official client's receipt schema strips dropReason and dropDetail but keeps `error`: the detail
    // goes there too, so a wallet user sees why.
    return new TxReceipt({
      txHash,
      status: 'dropped',
      error: `${TX_DROPPED_ERROR}: ${record.detail}`,
      dropReason: record.reason,
      dropDetail: record.detail,
    });
  }

  /** The receipt of a tx mined as `m` says (status from `tips`). */
  minedReceipt(txHash: TxHash, m: MinedTx, tips: ChainTipNumbers | undefined): TxReceipt {
    return new TxReceipt({
      txHash,
      status: statusOf(m.blockNumber, tips),
      executionResult: executionResultFromRevertCode(m.revertCode),
      transactionFee: m.transactionFee,
      blockHash: m.blockHash,
      blockNumber: m.blockNumber,
      epochNumber: Math.floor(m.slotNumber / this.epochDuration),
    });
  }
}

function statusOf(blockNumber: number, tips: ChainTipNumbers | undefined): TxStatus {
  if (!tips) return 'proposed';
  if (blockNumber <= tips.finalized) return 'finalized';
  if (blockNumber <= tips.proven) return 'proven';
  if (blockNumber <= tips.checkpointed) return 'checkpointed';
  return 'proposed';
}
