import type { AppendOnlyTreeSnapshot } from '../../core/block/append-only-tree-snapshot.js';
import type { BlockHeader } from '../../core/block/block-header.js';
import type { L2Block } from '../../core/block/l2-block.js';
import type { IndexedTxEffect } from '../../core/tx/indexed-tx-effect.js';
import type { TxEffect } from '../../core/tx/tx-effect.js';
import type { TxReceipt } from '../../core/tx/tx-receipt.js';
import { formatTimestamp, keyValues, shortHex, table } from './human-format.js';
import type { AnswerOf } from './wire-json.js';

/**
 * Human views of the node's answers (blocks, headers, tx effects, receipts, tips), from the objects the method
 * table's codecs decoded them into, the same answer `--json` prints encoded back (docs/aztec-facts.md section 2).
 * Fee and total fields are field elements on the wire; the views show them as decimal numbers.
 */

export function renderHeader(header: BlockHeader, full: boolean): string {
  const g = header.globalVariables;
  const { partial } = header.state;
  const tree = ({ root, nextAvailableLeafIndex }: AppendOnlyTreeSnapshot) =>
    `${shortHex(root.toString(), full)} (${nextAvailableLeafIndex} leaves)`;
  return keyValues([
    ['block', g.blockNumber],
    ['hash', shortHex(header.hash().toString(), full)],
    ['slot', g.slotNumber],
    ['timestamp', formatTimestamp(g.timestamp)],
    ['chain id', g.chainId.value.toString()],
    ['rollup version', g.version.value.toString()],
    ['coinbase', shortHex(g.coinbase.toString(), full)],
    ['fee recipient', shortHex(g.feeRecipient.toString(), full)],
    ['gas fees', `${g.gasFees.feePerL2Gas} per L2 gas, ${g.gasFees.feePerDaGas} per DA gas`],
    ['total fees', header.totalFees.value.toString()],
    ['mana used', header.totalManaUsed.value.toString()],
    ['last archive', tree(header.lastArchive)],
    ['note hash tree', tree(partial.noteHashTree)],
    ['nullifier tree', tree(partial.nullifierTree)],
    ['public data tree', tree(partial.publicDataTree)],
    ['l1-to-l2 tree', tree(header.state.l1ToL2MessageTree)],
  ]);
}

export function renderBlock(block: L2Block, full: boolean): string {
  const effects = block.body.txEffects;
  const lines = [
    renderHeader(block.header, full),
    keyValues([
      ['archive', shortHex(block.archive.root.toString(), full)],
      ['checkpoint', `${block.checkpointNumber} (block ${block.indexWithinCheckpoint} of it)`],
      ['txs', effects.length],
    ]),
  ];
  if (effects.length > 0) lines.push('', renderEffectsTable(effects, full));
  return lines.join('\n');
}

/** One row per tx effect of a block. */
export function renderEffectsTable(effects: readonly TxEffect[], full: boolean): string {
  return table(
    ['#', 'TX HASH', 'FEE', 'NOTE HASHES', 'NULLIFIERS', 'L2->L1', 'LOGS (PRIV/PUB/CLASS)', 'REVERT'],
    effects.map((e, i) => [
      String(i),
      shortHex(e.txHash.toString(), full),
      e.transactionFee.value.toString(),
      String(e.noteHashes.length),
      String(e.nullifiers.length),
      String(e.l2ToL1Msgs.length),
      `${e.privateLogs.length}/${e.publicLogs.length}/${e.contractClassLogs.length}`,
      String(e.revertCode),
    ]),
  );
}

/** A tx effect with where it was mined. */
export function renderIndexedEffect(indexed: IndexedTxEffect, full: boolean): string {
  const e = indexed.data;
  const list = (fields: readonly { toString(): string }[]) =>
    fields.length === 0 ? '-' : fields.map((f) => shortHex(f.toString(), full)).join(', ');
  return keyValues([
    ['tx', shortHex(e.txHash.toString(), full)],
    [
      'block',
      `${indexed.l2BlockNumber} (${shortHex(indexed.l2BlockHash.toString(), full)}), tx ${indexed.txIndexInBlock} in it`,
    ],
    ['revert code', e.revertCode],
    ['fee paid', e.transactionFee.value.toString()],
    ['note hashes', list(e.noteHashes)],
    ['nullifiers', list(e.nullifiers)],
    ['l2-to-l1 messages', list(e.l2ToL1Msgs)],
    ['public data writes', String(e.publicDataWrites.length)],
    ['private logs', String(e.privateLogs.length)],
    ['public logs', String(e.publicLogs.length)],
    ['contract class logs', String(e.contractClassLogs.length)],
  ]);
}

/** A receipt's fields as the node gave them; those a status does not have are left out. */
export function renderReceipt(receipt: TxReceipt, full: boolean): string {
  return keyValues([
    ['tx', shortHex(receipt.txHash.toString(), full)],
    ['status', receipt.status],
    ['execution', receipt.executionResult],
    ['error', receipt.error],
    ['fee paid', receipt.transactionFee?.toString()],
    ['block', receipt.blockNumber],
    ['block hash', receipt.blockHash === undefined ? undefined : shortHex(receipt.blockHash.toString(), full)],
    ['epoch', receipt.epochNumber],
  ]);
}

/** The four tips of spec part 2 (v4 shape). */
export function renderTips(tips: AnswerOf<'node_getL2Tips'>, full: boolean): string {
  type Id = { readonly number: number; readonly hash: string };
  const row = (name: string, block: Id, checkpoint?: Id) => [
    name,
    String(block.number),
    shortHex(block.hash, full),
    checkpoint ? String(checkpoint.number) : '-',
  ];
  return table(
    ['TIP', 'BLOCK', 'HASH', 'CHECKPOINT'],
    [
      row('proposed', tips.proposed),
      row('checkpointed', tips.checkpointed.block, tips.checkpointed.checkpoint),
      row('proven', tips.proven.block, tips.proven.checkpoint),
      row('finalized', tips.finalized.block, tips.finalized.checkpoint),
    ],
  );
}
