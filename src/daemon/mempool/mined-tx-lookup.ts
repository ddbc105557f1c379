import type { BlockHash } from '../../core/block-hash.js';
import type { RevertCode } from '../../core/tx/revert-code.js';
import type { TxHash } from '../../core/tx-hash.js';

/** Where a mined tx is and how it ended: what a receipt reports beyond its status. */
export interface MinedTx {
  readonly blockNumber: number;
  readonly blockHash: BlockHash;
  readonly txIndex: number;
  readonly revertCode: RevertCode;
  /** Fee paid, in fee juice. */
  readonly transactionFee: bigint;
  /** The block's slot (its epoch is slot / epoch duration). */
  readonly slotNumber: number;
}

/** Block numbers of the chain tips a receipt status is derived from (spec part 3). */
export interface ChainTipNumbers {
  readonly proposed: number;
  readonly checkpointed: number;
  readonly proven: number;
  readonly finalized: number;
}

/**
 * How the receipt builder finds mined txs: the chain store (tx effects by hash) and its tips. node.ts wires
 * it to the chain store; until then the pool's own record of the txs it saw mined answers.
 */
export interface MinedTxLookup {
  findMinedTx(txHash: TxHash): MinedTx | undefined;
  tips(): ChainTipNumbers;
}
