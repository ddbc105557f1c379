import type { StreamL1Tx } from './node-stream-event.js';

/**
 * One publisher tx in words, as `l2node status`, the dashboard and the node's log write it: "checkpoint 12 in L1 block 345
 * (0xabcd…)", "epoch 3 (checkpoints 9 to 12) in L1 block 350 (0x…)", or "checkpoint 12 FAILED: reason". `hex`
 * shortens the hash (each caller has its own rule for that).
 */
export function describeL1Tx(tx: StreamL1Tx, hex: (value: string) => string): string {
  const what = l1TxSubject(tx);
  const hash = tx.txHash ? ` (${hex(tx.txHash)})` : '';
  if (!tx.ok) return `${what} FAILED${hash}: ${tx.error ?? 'no reason given'}`;
  return `${what} in L1 block ${tx.l1BlockNumber ?? '?'}${hash}`;
}

/** What a tx is about: "checkpoint 12", "epoch 3 (checkpoints 9 to 12)". */
export function l1TxSubject(tx: StreamL1Tx): string {
  if (tx.kind === 'propose') return `checkpoint ${tx.checkpoint ?? '?'}`;
  const range =
    tx.fromCheckpoint !== undefined && tx.toCheckpoint !== undefined
      ? ` (checkpoints ${tx.fromCheckpoint} to ${tx.toCheckpoint})`
      : '';
  return `epoch ${tx.epoch ?? '?'}${range}`;
}
