import type { StreamL1Tx } from '../rpc/node-stream-event.js';

/**
 * One publisher tx in words, as `l2node status` and the dashboard write it: "checkpoint 12 in L1 block 345
 * (0xabcd…)", "epoch 3 (checkpoints 9 to 12) in L1 block 350 (0x…)", or "checkpoint 12 FAILED: reason". `hex`
 * shortens the hash (each caller has its own rule for that).
 */
export function describeL1Tx(tx: StreamL1Tx, hex: (value: string) => string): string {
  const what =
    tx.kind === 'propose'
      ? `checkpoint ${tx.checkpoint ?? '?'}`
      : `epoch ${tx.epoch ?? '?'}${
          tx.fromCheckpoint !== undefined && tx.toCheckpoint !== undefined
            ? ` (checkpoints ${tx.fromCheckpoint} to ${tx.toCheckpoint})`
            : ''
        }`;
  const hash = tx.txHash ? ` (${hex(tx.txHash)})` : '';
  if (!tx.ok) return `${what} FAILED${hash}: ${tx.error ?? 'no reason given'}`;
  return `${what} in L1 block ${tx.l1BlockNumber ?? '?'}${hash}`;
}
