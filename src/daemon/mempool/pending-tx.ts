import { TxHash } from '../../core/tx-hash.js';
import type { TxMeta, TxMetaFields } from './tx-meta.js';

/** A pending tx as the pool's in-memory index holds it: the derived values, not the tx (that stays in SQLite). */
export interface PendingTx extends TxMetaFields {
  readonly txHash: TxHash;
  /** The hash as a number: the map key and the ordering tie-break. */
  readonly hashValue: bigint;
  /** When the pool first accepted it (ms since the epoch). */
  readonly receivedAt: number;
}

/** The JSON kept in mempool_tx.meta (bigints as decimal strings). */
interface PendingTxMetaJson {
  priorityFee: string;
  feeLimit: string;
  feePayer: string;
  claimAmount: string;
  nullifiers: string[];
  expirationTimestamp: string;
  anchorBlockHash: string;
  feePayerBalanceSlot: string;
  size: number;
}

export function pendingTxFromMeta(meta: TxMeta, receivedAt: number): PendingTx {
  return { ...meta.fields(), txHash: meta.txHash, hashValue: meta.txHash.value, receivedAt };
}

export function encodePendingTxMeta(p: PendingTx): string {
  const json: PendingTxMetaJson = {
    priorityFee: p.priorityFee.toString(),
    feeLimit: p.feeLimit.toString(),
    feePayer: p.feePayer.toString(),
    claimAmount: p.claimAmount.toString(),
    nullifiers: p.nullifiers.map((n) => n.toString()),
    expirationTimestamp: p.expirationTimestamp.toString(),
    anchorBlockHash: p.anchorBlockHash.toString(),
    feePayerBalanceSlot: p.feePayerBalanceSlot.toString(),
    size: p.size,
  };
  return JSON.stringify(json);
}

export function decodePendingTxMeta(hash: Buffer, meta: string, receivedAt: number): PendingTx {
  const j = JSON.parse(meta) as PendingTxMetaJson;
  const hashValue = BigInt(`0x${hash.toString('hex')}`);
  return {
    txHash: new TxHash(hashValue),
    hashValue,
    receivedAt,
    priorityFee: BigInt(j.priorityFee),
    feeLimit: BigInt(j.feeLimit),
    feePayer: BigInt(j.feePayer),
    claimAmount: BigInt(j.claimAmount),
    nullifiers: j.nullifiers.map((n) => BigInt(n)),
    expirationTimestamp: BigInt(j.expirationTimestamp),
    anchorBlockHash: BigInt(j.anchorBlockHash),
    feePayerBalanceSlot: BigInt(j.feePayerBalanceSlot),
    size: j.size,
  };
}

/**
 * Pool order (docs/aztec-facts.md section 5.3): higher priority fee first, ties broken by the higher tx hash.
 * Negative when `a` comes first.
 */
export function comparePriority(a: PendingTx, b: PendingTx): number {
  if (a.priorityFee !== b.priorityFee) return a.priorityFee > b.priorityFee ? -1 : 1;
  if (a.hashValue !== b.hashValue) return a.hashValue > b.hashValue ? -1 : 1;
  return 0;
}
