/** Mempool rejection codes of spec part 7, as `data.code` of a TX_REJECTED error. */
export type TxRejectionCode = 'LOW_PRIORITY_FEE' | 'INSUFFICIENT_FEE_PAYER_BALANCE' | 'NULLIFIER_CONFLICT';

/**
 * The `data` object of a TX_REJECTED error: exactly the rejection object of docs/aztec-facts.md section 1.7 (the
 * code, the human message, and the figures as decimal strings or hex hashes).
 */
export type TxRejection =
  | { code: 'LOW_PRIORITY_FEE'; message: string; minimumPriorityFee: string; txPriorityFee: string }
  | {
      code: 'INSUFFICIENT_FEE_PAYER_BALANCE';
      message: string;
      currentBalance: string;
      availableBalance: string;
      feeLimit: string;
    }
  | {
      code: 'NULLIFIER_CONFLICT';
      message: string;
      conflictingTxHash: string;
      minimumPriceBumpFee?: string;
      txPriorityFee?: string;
    };
