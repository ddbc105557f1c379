import { BlockHash } from '../../core/block-hash.js';
import type { TxHash } from '../../core/tx-hash.js';
import type { Chain } from '../chain/chain.js';
import { StoredTxEffect } from '../store/stored-tx-effect.js';
import type { ChainTipNumbers, MinedTx, MinedTxLookup } from './mined-tx-lookup.js';

/** Receipts' view of the chain store: a mined tx by hash (its effect, block and slot) and the tips' blocks. */
export function chainMinedTxLookup(chain: Chain): MinedTxLookup {
  return {
    findMinedTx(txHash: TxHash): MinedTx | undefined {
      const store = chain.store;
      const found = store.txs.getByHash(txHash.toBuffer());
      if (!found) return undefined;
      const { blockNumber, txIndex } = found.location;
      const header = store.getHeader(blockNumber);
      const hash = store.getBlockHash(blockNumber);
      if (!header || hash === undefined) return undefined;
      const effect = new StoredTxEffect(found.effect).decode();
      return {
        blockNumber,
        blockHash: new BlockHash(hash),
        txIndex,
        revertCode: effect.revertCode,
        transactionFee: effect.transactionFee.value,
        slotNumber: header.slotNumber,
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

/** The current class of a contract the chain has seen deployed, for allow-list entries by class. */
export function chainContractClassIdOf(chain: Chain): (address: bigint) => bigint | undefined {
  return (address) => chain.store.contractInstances.get(address)?.currentContractClassId.value;
}
