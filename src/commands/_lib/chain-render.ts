import { BlockHeader } from '../../core/block/block-header.js';
import { formatTimestamp, keyValues, shortHex, table } from './human-format.js';
import { at, listAt, textAt } from './wire-json.js';

/**
 * Human views of the node's answers (blocks, headers, tx effects, receipts, tips), read from the wire JSON
 * (docs/aztec-facts.md section 2) so that `--json` and the human output come from the same answer.
 */

/** The hash of a header given as wire JSON: the archive leaf of its block. */
export function headerHash(header: unknown): string {
  return BlockHeader.fromJSON(header).hash().toString();
}

/** The slot number of global variables (the wire has it as a hex field). */
function slotOf(header: unknown): string {
  const slot = at(header, 'globalVariables.slotNumber');
  return typeof slot === 'string' && slot.startsWith('0x')
    ? BigInt(slot).toString()
    : textAt(header, 'globalVariables.slotNumber');
}

export function renderHeader(header: unknown, full: boolean): string {
  const h = (path: string) => shortHex(textAt(header, path), full);
  return keyValues([
    ['block', textAt(header, 'globalVariables.blockNumber')],
    ['hash', shortHex(headerHash(header), full)],
    ['slot', slotOf(header)],
    ['timestamp', formatTimestamp(textAt(header, 'globalVariables.timestamp'))],
    ['chain id', BigInt(textAt(header, 'globalVariables.chainId')).toString()],
    ['rollup version', BigInt(textAt(header, 'globalVariables.version')).toString()],
    ['coinbase', h('globalVariables.coinbase')],
    ['fee recipient', h('globalVariables.feeRecipient')],
    [
      'gas fees',
      `${textAt(header, 'globalVariables.gasFees.feePerL2Gas')} per L2 gas, ${textAt(header, 'globalVariables.gasFees.feePerDaGas')} per DA gas`,
    ],
    ['total fees', BigInt(textAt(header, 'totalFees')).toString()],
    ['mana used', BigInt(textAt(header, 'totalManaUsed')).toString()],
    ['last archive', `${h('lastArchive.root')} (${textAt(header, 'lastArchive.nextAvailableLeafIndex')} leaves)`],
    [
      'note hash tree',
      `${h('state.partial.noteHashTree.root')} (${textAt(header, 'state.partial.noteHashTree.nextAvailableLeafIndex')} leaves)`,
    ],
    [
      'nullifier tree',
      `${h('state.partial.nullifierTree.root')} (${textAt(header, 'state.partial.nullifierTree.nextAvailableLeafIndex')} leaves)`,
    ],
    [
      'public data tree',
      `${h('state.partial.publicDataTree.root')} (${textAt(header, 'state.partial.publicDataTree.nextAvailableLeafIndex')} leaves)`,
    ],
    [
      'l1-to-l2 tree',
      `${h('state.l1ToL2MessageTree.root')} (${textAt(header, 'state.l1ToL2MessageTree.nextAvailableLeafIndex')} leaves)`,
    ],
  ]);
}

export function renderBlock(block: unknown, full: boolean): string {
  const effects = listAt(block, 'body.txEffects');
  const lines = [
    renderHeader(at(block, 'header'), full),
    keyValues([
      ['archive', shortHex(textAt(block, 'archive.root'), full)],
      ['checkpoint', `${textAt(block, 'checkpointNumber')} (block ${textAt(block, 'indexWithinCheckpoint')} of it)`],
      ['txs', effects.length],
    ]),
  ];
  if (effects.length > 0) lines.push('', renderEffectsTable(effects, full));
  return lines.join('\n');
}

/** One row per tx effect of a block. */
export function renderEffectsTable(effects: readonly unknown[], full: boolean): string {
  return table(
    ['#', 'TX HASH', 'FEE', 'NOTE HASHES', 'NULLIFIERS', 'L2->L1', 'LOGS (PRIV/PUB/CLASS)', 'REVERT'],
    effects.map((e, i) => [
      String(i),
      shortHex(textAt(e, 'txHash'), full),
      BigInt(textAt(e, 'transactionFee')).toString(),
      String(listAt(e, 'noteHashes').length),
      String(listAt(e, 'nullifiers').length),
      String(listAt(e, 'l2ToL1Msgs').length),
      `${listAt(e, 'privateLogs').length}/${listAt(e, 'publicLogs').length}/${listAt(e, 'contractClassLogs').length}`,
      textAt(e, 'revertCode'),
    ]),
  );
}

/** A tx effect with where it was mined (IndexedTxEffect). */
export function renderIndexedEffect(indexed: unknown, full: boolean): string {
  const e = at(indexed, 'data');
  const list = (path: string) => {
    const items = listAt(e, path).map((v) => (typeof v === 'string' ? shortHex(v, full) : JSON.stringify(v)));
    return items.length === 0 ? '-' : items.join(', ');
  };
  return keyValues([
    ['tx', shortHex(textAt(e, 'txHash'), full)],
    [
      'block',
      `${textAt(indexed, 'l2BlockNumber')} (${shortHex(textAt(indexed, 'l2BlockHash'), full)}), tx ${textAt(indexed, 'txIndexInBlock')} in it`,
    ],
    ['revert code', textAt(e, 'revertCode')],
    ['fee paid', BigInt(textAt(e, 'transactionFee')).toString()],
    ['note hashes', list('noteHashes')],
    ['nullifiers', list('nullifiers')],
    ['l2-to-l1 messages', list('l2ToL1Msgs')],
    ['public data writes', String(listAt(e, 'publicDataWrites').length)],
    ['private logs', String(listAt(e, 'privateLogs').length)],
    ['public logs', String(listAt(e, 'publicLogs').length)],
    ['contract class logs', String(listAt(e, 'contractClassLogs').length)],
  ]);
}

export function renderReceipt(receipt: unknown, full: boolean): string {
  return keyValues([
    ['tx', shortHex(textAt(receipt, 'txHash'), full)],
    ['status', textAt(receipt, 'status')],
    ['execution', at(receipt, 'executionResult') === undefined ? undefined : textAt(receipt, 'executionResult')],
    ['error', at(receipt, 'error') === undefined ? undefined : textAt(receipt, 'error')],
    ['fee paid', at(receipt, 'transactionFee') === undefined ? undefined : textAt(receipt, 'transactionFee')],
    ['block', at(receipt, 'blockNumber') === undefined ? undefined : textAt(receipt, 'blockNumber')],
    ['block hash', at(receipt, 'blockHash') === undefined ? undefined : shortHex(textAt(receipt, 'blockHash'), full)],
    ['epoch', at(receipt, 'epochNumber') === undefined ? undefined : textAt(receipt, 'epochNumber')],
  ]);
}

/** The four tips of spec part 2 (v4 shape). */
export function renderTips(tips: unknown, full: boolean): string {
  const row = (name: string, blockPath: string, checkpointPath?: string) => [
    name,
    textAt(tips, `${blockPath}.number`),
    shortHex(textAt(tips, `${blockPath}.hash`), full),
    checkpointPath ? textAt(tips, `${checkpointPath}.number`) : '-',
  ];
  return table(
    ['TIP', 'BLOCK', 'HASH', 'CHECKPOINT'],
    [
      row('proposed', 'proposed'),
      row('checkpointed', 'checkpointed.block', 'checkpointed.checkpoint'),
      row('proven', 'proven.block', 'proven.checkpoint'),
      row('finalized', 'finalized.block', 'finalized.checkpoint'),
    ],
  );
}
