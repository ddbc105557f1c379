import type { TxHash } from '../../core/tx-hash.js';
import type { ChainTipNumbers, MinedTx, MinedTxLookup } from '../mempool/mined-tx-lookup.js';
import type { Chain } from './chain.js';

/** The mempool's receipts read mined txs and tips from the chain store (its MinedTxLookup). */
export function chainMinedTxLookup(chain: Chain): MinedTxLookup {
  return {
    findMinedTx(txHash: TxHash): MinedTx | undefined {
      const found = chain.store.getTxEffect(txHash.value);
      if (!found) return undefined;
      return {
        blockNumber: found.l2BlockNumber,
        blockHash: found.l2BlockHash,
        txIndex: found.txIndexInBlock,
        revertCode: found.data.revertCode,
        transactionFee: found.data.transactionFee.value,
        slotNumber: chain.store.getHeader(found.l2BlockNumber)?.slotNumber ?? 0,
      };
    },
    tips(): ChainTipNumbers {
      const t = chain.readTips();
      return {
        proposed: t.proposed.number,
        checkpointed: t.checkpointed.block.number,
        proven: t.proven.block.number,
        finalized: t.finalized.block.number,
      };
    },
  };
}
