import type { GlobalVariables } from '../../core/block/global-variables.js';
import { Fr } from '../../core/fr.js';
import { computeL2ToL1MessageHash } from '../../core/hash/l2-to-l1-message-hash.js';
import type { PublicDataWrite } from '../../core/tx/public-data-write.js';
import { RevertCode } from '../../core/tx/revert-code.js';
import type { Tx } from '../../core/tx/tx.js';
import { TxEffect } from '../../core/tx/tx-effect.js';

/**
 * The effect of a tx without public calls, straight from its private kernel tail output (4.1.2
 * makeProcessedTxFromPrivateOnlyTx): its non-empty note hashes, nullifiers and private logs, its L2-to-L1
 * messages hashed with the block's chain id and rollup version, the fee payment as the only public data write,
 * and the contract class logs carried beside the tx.
 */
export function buildPrivateTxEffect(
  tx: Tx,
  transactionFee: Fr,
  feePayment: PublicDataWrite,
  globals: GlobalVariables,
): TxEffect {
  const end = tx.data.forRollup;
  if (!end) throw new Error(`Tx ${tx.txHash} has public calls: its effect needs public execution`);
  return new TxEffect(
    RevertCode.OK,
    tx.txHash,
    transactionFee,
    end.getNonEmptyNoteHashes(),
    end.getNonEmptyNullifiers(),
    end.l2ToL1Msgs
      .filter((m) => !m.contractAddress.isZero())
      .map(
        (m) =>
          new Fr(
            computeL2ToL1MessageHash({
              l2Sender: m.contractAddress,
              l1Recipient: m.recipient,
              content: m.content.value,
              rollupVersion: globals.version.value,
              chainId: globals.chainId.value,
            }),
          ),
      ),
    [feePayment],
    end.getNonEmptyPrivateLogs(),
    [],
    tx.getContractClassLogs(),
  );
}
