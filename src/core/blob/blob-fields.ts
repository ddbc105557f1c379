import type { BlockHeader } from '../block/block-header.js';
import {
  L1_TO_L2_MSG_TREE_HEIGHT,
  NOTE_HASH_TREE_HEIGHT,
  NULLIFIER_TREE_HEIGHT,
  PUBLIC_DATA_TREE_HEIGHT,
} from '../constants.js';
import type { TxEffect } from '../tx/tx-effect.js';

/**
 * The blob encoding of a checkpoint's data (4.1.2 @aztec/blob-lib encoding/*, which must match the rollup
 * circuits' blob_data/*.nr): each tx effect starts with a tx start marker, each block ends with a block end
 * marker and its end state, the checkpoint ends with a marker counting every field. These fields are what the
 * blob sponge absorbs, so a block header's spongeBlobHash depends on them bit for bit.
 */

/** Marker prefixes (4.1.2 constants TX_START_PREFIX, BLOCK_END_PREFIX, CHECKPOINT_END_PREFIX). */
export const TX_START_PREFIX = 2624615704n;
export const BLOCK_END_PREFIX = 3951939007n;
export const CHECKPOINT_END_PREFIX = 2355328067n;

/** Block end data: 6 fields, plus the L1-to-L2 message tree root on a checkpoint's first block. */
export const NUM_BLOCK_END_BLOB_FIELDS = 6;
export const NUM_FIRST_BLOCK_END_BLOB_FIELDS = 7;
export const NUM_CHECKPOINT_END_MARKER_FIELDS = 1;

const TOTAL_MANA_USED_BITS = 48n;

/** The counts a tx start marker packs (bit widths in packTxStartMarker). */
interface TxStartMarker {
  numBlobFields: number;
  revertCode: number;
  numNoteHashes: number;
  numNullifiers: number;
  numL2ToL1Msgs: number;
  numPublicDataWrites: number;
  numPrivateLogs: number;
  privateLogsLength: number;
  publicLogsLength: number;
  contractClassLogLength: number;
}

function txStartMarker(effect: TxEffect): TxStartMarker {
  let privateLogsLength = 0;
  for (const l of effect.privateLogs) privateLogsLength += l.emittedLength;
  let publicLogsLength = 0;
  for (const l of effect.publicLogs) publicLogsLength += l.sizeInFields();
  const contractClassLogLength = effect.contractClassLogs[0]?.emittedLength ?? 0;
  const numBlobFields =
    3 +
    effect.noteHashes.length +
    effect.nullifiers.length +
    effect.l2ToL1Msgs.length +
    2 * effect.publicDataWrites.length +
    effect.privateLogs.length +
    privateLogsLength +
    publicLogsLength +
    contractClassLogLength +
    (contractClassLogLength > 0 ? 1 : 0);
  return {
    numBlobFields,
    revertCode: effect.revertCode,
    numNoteHashes: effect.noteHashes.length,
    numNullifiers: effect.nullifiers.length,
    numL2ToL1Msgs: effect.l2ToL1Msgs.length,
    numPublicDataWrites: effect.publicDataWrites.length,
    numPrivateLogs: effect.privateLogs.length,
    privateLogsLength,
    publicLogsLength,
    contractClassLogLength,
  };
}

/** Most significant first: prefix, then each count in its bit width (4.1.2 encodeTxStartMarker). */
function packTxStartMarker(m: TxStartMarker): bigint {
  let v = TX_START_PREFIX;
  v = (v << 16n) + BigInt(m.numNoteHashes);
  v = (v << 16n) + BigInt(m.numNullifiers);
  v = (v << 16n) + BigInt(m.numL2ToL1Msgs);
  v = (v << 16n) + BigInt(m.numPublicDataWrites);
  v = (v << 16n) + BigInt(m.numPrivateLogs);
  v = (v << 16n) + BigInt(m.privateLogsLength);
  v = (v << 32n) + BigInt(m.publicLogsLength);
  v = (v << 16n) + BigInt(m.contractClassLogLength);
  v = (v << 8n) + BigInt(m.revertCode);
  v = (v << 32n) + BigInt(m.numBlobFields);
  return v;
}

/** How many blob fields a tx effect takes (what block builders budget against the checkpoint's blobs). */
export function txEffectBlobFieldCount(effect: TxEffect): number {
  return txStartMarker(effect).numBlobFields;
}

/**
 * A tx effect's blob fields: start marker, tx hash, fee, note hashes, nullifiers, L2-to-L1 messages, public
 * data writes (slot, value), each private log as its length then its emitted fields, the flat public log
 * payload (per log: length, contract, fields), the contract class log as contract then emitted fields.
 */
export function txEffectBlobFields(effect: TxEffect, out: bigint[] = []): bigint[] {
  out.push(packTxStartMarker(txStartMarker(effect)), effect.txHash.value, effect.transactionFee.value);
  for (const f of effect.noteHashes) out.push(f.value);
  for (const f of effect.nullifiers) out.push(f.value);
  for (const f of effect.l2ToL1Msgs) out.push(f.value);
  for (const w of effect.publicDataWrites) out.push(w.leafSlot.value, w.value.value);
  for (const l of effect.privateLogs) {
    out.push(BigInt(l.emittedLength));
    for (let i = 0; i < l.emittedLength; i++) out.push((l.fields[i] as { value: bigint }).value);
  }
  for (const l of effect.publicLogs) {
    out.push(BigInt(l.fields.length), l.contractAddress.value);
    for (const f of l.fields) out.push(f.value);
  }
  for (const l of effect.contractClassLogs) {
    out.push(l.contractAddress.value);
    for (const f of l.getEmittedFields()) out.push(f.value);
  }
  return out;
}

/**
 * A block's end data (4.1.2 encodeBlockEndBlobData): end marker (timestamp, block number, tx count), the end
 * state's tree sizes and mana used packed in one field, the last archive root, the note hash, nullifier and
 * public data roots, and on a checkpoint's first block the L1-to-L2 message tree root.
 */
export function blockEndBlobFields(
  header: BlockHeader,
  numTxs: number,
  firstInCheckpoint: boolean,
  out: bigint[] = [],
): bigint[] {
  const g = header.globalVariables;
  let marker = BLOCK_END_PREFIX;
  marker = (marker << 64n) + g.timestamp;
  marker = (marker << 32n) + BigInt(g.blockNumber);
  marker = (marker << 16n) + BigInt(numTxs);
  const s = header.state;
  let state = BigInt(s.l1ToL2MessageTree.nextAvailableLeafIndex);
  state = (state << BigInt(NOTE_HASH_TREE_HEIGHT)) + BigInt(s.partial.noteHashTree.nextAvailableLeafIndex);
  state = (state << BigInt(NULLIFIER_TREE_HEIGHT)) + BigInt(s.partial.nullifierTree.nextAvailableLeafIndex);
  state = (state << BigInt(PUBLIC_DATA_TREE_HEIGHT)) + BigInt(s.partial.publicDataTree.nextAvailableLeafIndex);
  state = (state << TOTAL_MANA_USED_BITS) + header.totalManaUsed.value;
  if (BigInt(s.l1ToL2MessageTree.nextAvailableLeafIndex) >= 1n << BigInt(L1_TO_L2_MSG_TREE_HEIGHT)) {
    throw new RangeError('L1-to-L2 message tree size does not fit the block end state field');
  }
  out.push(
    marker,
    state,
    header.lastArchive.root.value,
    s.partial.noteHashTree.root.value,
    s.partial.nullifierTree.root.value,
    s.partial.publicDataTree.root.value,
  );
  if (firstInCheckpoint) out.push(s.l1ToL2MessageTree.root.value);
  return out;
}

/** A block's blob fields: its tx effects, then its end data (4.1.2 L2Block.toBlobFields). */
export function blockBlobFields(
  header: BlockHeader,
  txEffects: readonly TxEffect[],
  firstInCheckpoint: boolean,
): bigint[] {
  const out: bigint[] = [];
  for (const e of txEffects) txEffectBlobFields(e, out);
  return blockEndBlobFields(header, txEffects.length, firstInCheckpoint, out);
}

/** The last field of a checkpoint's blob data: the total field count, itself included. */
export function checkpointEndMarker(numBlobFields: number): bigint {
  return (CHECKPOINT_END_PREFIX << 32n) + BigInt(numBlobFields);
}
