import type { AvmPublicDataWrite, AvmSideEffects } from '../../core/avm/index.js';
import { AztecAddress } from '../../core/aztec-address.js';
import type { GlobalVariables } from '../../core/block/global-variables.js';
import { EthAddress } from '../../core/eth-address.js';
import { Fr } from '../../core/fr.js';
import { computeL2ToL1MessageHash } from '../../core/hash/l2-to-l1-message-hash.js';
import { PublicLog } from '../../core/logs/public-log.js';
import { PublicDataWrite } from '../../core/tx/public-data-write.js';
import { RevertCode } from '../../core/tx/revert-code.js';
import type { Tx } from '../../core/tx/tx.js';
import { TxEffect } from '../../core/tx/tx-effect.js';

/** An L2-to-L1 message's recipient is an Ethereum address: the low 20 bytes of the field. */
const ETH_ADDRESS_MASK = (1n << 160n) - 1n;

/**
 * Public data writes as the tx effect carries them (4.1.2 generateAvmCircuitPublicInputs): one per leaf slot, at
 * the position of the slot's first write, with the value of its last. Only writes that survived reverts are in
 * the journal, the fee payment included.
 */
export function squashPublicDataWrites(writes: readonly AvmPublicDataWrite[]): PublicDataWrite[] {
  const bySlot = new Map<bigint, bigint>();
  for (const w of writes) bySlot.set(w.leafSlot, w.value);
  const out: PublicDataWrite[] = [];
  for (const [leafSlot, value] of bySlot) {
    if (leafSlot !== 0n || value !== 0n) out.push(new PublicDataWrite(new Fr(leafSlot), new Fr(value)));
  }
  return out;
}

/**
 * The TxEffect of a tx with public calls (4.1.2 makeProcessedTxFromTxWithPublicCalls): note hashes, nullifiers,
 * messages and public logs as the journal holds them at the end (private ones included), messages hashed with
 * the block's chain id and rollup version, squashed public data writes; private logs and contract class logs from
 * the tx, the revertible ones only when nothing reverted.
 */
export function buildPublicTxEffect(
  tx: Tx,
  globals: GlobalVariables,
  revertCode: RevertCode,
  transactionFee: bigint,
  effects: AvmSideEffects,
): TxEffect {
  const forPublic = tx.data.forPublic;
  if (!forPublic) throw new Error(`Tx ${tx.txHash} has no public calls`);
  const ok = revertCode === RevertCode.OK;
  const privateLogs = [
    ...forPublic.nonRevertibleAccumulatedData.getNonEmptyPrivateLogs(),
    ...(ok ? forPublic.revertibleAccumulatedData.getNonEmptyPrivateLogs() : []),
  ];
  const classLogs = tx.getContractClassLogs();
  const contractClassLogs = ok
    ? classLogs
    : classLogs.slice(0, forPublic.nonRevertibleAccumulatedData.getNonEmptyContractClassLogsHashes().length);
  return new TxEffect(
    revertCode,
    tx.txHash,
    new Fr(transactionFee),
    effects.noteHashes.map((v) => new Fr(v)),
    effects.nullifiers.map((v) => new Fr(v)),
    effects.l2ToL1Messages
      .filter((m) => m.contractAddress !== 0n)
      .map(
        (m) =>
          new Fr(
            computeL2ToL1MessageHash({
              l2Sender: new AztecAddress(m.contractAddress),
              l1Recipient: EthAddress.fromBigInt(m.recipient & ETH_ADDRESS_MASK),
              content: m.content,
              rollupVersion: globals.version.value,
              chainId: globals.chainId.value,
            }),
          ),
      ),
    squashPublicDataWrites(effects.publicDataWrites),
    privateLogs,
    effects.publicLogs.map(
      (l) =>
        new PublicLog(
          new AztecAddress(l.contractAddress),
          l.fields.map((v) => new Fr(v)),
        ),
    ),
    contractClassLogs,
  );
}
