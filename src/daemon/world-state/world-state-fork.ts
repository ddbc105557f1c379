import {
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX,
  NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP,
} from '../../core/constants.js';
import { checkedFieldBuffer } from './field-buffer.js';
import { ZERO32 } from './indexed-leaf.js';
import { MerkleTreeId } from './merkle-tree-id.js';
import type { PublicDataLeafWrite, TreeOverlay } from './tree-overlay.js';
import { InvalidWorldStateArgumentError, WorldStateStateError } from './world-state-errors.js';
import type { TreeSource } from './world-state-view.js';
import { WorldStateView } from './world-state-view.js';

/** A write to the public data tree: the leaf slot (already siloed) and the new value. */
export interface PublicDataWrite {
  readonly leafSlot: bigint;
  readonly value: bigint;
}

/** What one tx changes in the trees (the tree-relevant part of a TxEffect). */
export interface TxTreeEffects {
  readonly noteHashes: readonly bigint[];
  readonly nullifiers: readonly bigint[];
  readonly publicDataWrites: readonly PublicDataWrite[];
}

/**
 * A writable copy of the world state on top of a block, held in memory: the sequencer builds a block in it,
 * validation and simulation try effects in it. It is discarded (close) or committed as the next block by
 * WorldState.commitFork, as a whole.
 */
export class WorldStateFork extends WorldStateView {
  #closed = false;

  constructor(blockNumber: number, source: TreeSource, guard: () => void) {
    super(blockNumber, source, () => {
      if (this.#closed) throw new WorldStateStateError(`The fork on block ${blockNumber} was closed or committed`);
      guard();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Drops the fork's changes; any further use fails. */
  close(): void {
    this.#closed = true;
  }

  /** The five overlays, by tree id, for WorldState.commitFork. */
  overlays(): readonly TreeOverlay[] {
    return [0, 1, 2, 3, 4].map((id) => this.tree(id as MerkleTreeId));
  }

  appendNoteHashes(values: readonly bigint[]): void {
    this.tree(MerkleTreeId.NOTE_HASH_TREE).appendLeaves(fields(values, 'note hash'));
  }

  /** One batch, in order; zeros take an index (docs/aztec-facts.md section 3.4). Refused whole on a duplicate. */
  insertNullifiers(values: readonly bigint[]): void {
    this.tree(MerkleTreeId.NULLIFIER_TREE).insertNullifiers(fields(values, 'nullifier'));
  }

  /** Sequential writes: an existing slot is updated in place, a new one appended. */
  writePublicData(writes: readonly PublicDataWrite[]): void {
    this.tree(MerkleTreeId.PUBLIC_DATA_TREE).writePublicData(publicDataWrites(writes));
  }

  appendL1ToL2Messages(values: readonly bigint[]): void {
    this.tree(MerkleTreeId.L1_TO_L2_MESSAGE_TREE).appendLeaves(fields(values, 'L1-to-L2 message'));
  }

  /** Appends a block hash to the archive (WorldState.commitFork does this for the committed block). */
  appendArchive(blockHash: bigint): void {
    this.tree(MerkleTreeId.ARCHIVE).appendLeaves([checkedFieldBuffer(blockHash, 'block hash')]);
  }

  /**
   * Applies one tx the way a block does (docs/aztec-facts.md section 3.4): 64 note hashes and 64 nullifiers,
   * zero-padded, then its public data writes in order. Every check runs before any tree changes, so a
   * refused tx leaves the fork as it was.
   */
  applyTxEffects(tx: TxTreeEffects): void {
    checkCount(tx.noteHashes.length, MAX_NOTE_HASHES_PER_TX, 'note hashes');
    checkCount(tx.nullifiers.length, MAX_NULLIFIERS_PER_TX, 'nullifiers');
    checkCount(tx.publicDataWrites.length, MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX, 'public data writes');
    const noteHashes = padded(fields(tx.noteHashes, 'note hash'), MAX_NOTE_HASHES_PER_TX);
    const nullifiers = padded(fields(tx.nullifiers, 'nullifier'), MAX_NULLIFIERS_PER_TX);
    const writes = publicDataWrites(tx.publicDataWrites);
    for (let i = 0; i < writes.length; i++) {
      const w = writes[i] as PublicDataLeafWrite;
      if (w.slot.equals(ZERO32) && w.value.equals(ZERO32)) {
        throw new InvalidWorldStateArgumentError(`Public data write ${i} is empty (slot 0, value 0)`);
      }
    }
    // The nullifier insert validates everything before it changes anything, so it goes first.
    this.tree(MerkleTreeId.NULLIFIER_TREE).insertNullifiers(nullifiers);
    this.tree(MerkleTreeId.NOTE_HASH_TREE).appendLeaves(noteHashes);
    if (writes.length > 0) this.tree(MerkleTreeId.PUBLIC_DATA_TREE).writePublicData(writes);
  }

  /** The L1-to-L2 messages of a checkpoint, appended by its first block and padded with zeros to 1024. */
  appendCheckpointMessages(messages: readonly bigint[]): void {
    checkCount(messages.length, NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP, 'L1-to-L2 messages');
    this.appendL1ToL2Messages([
      ...messages,
      ...new Array<bigint>(NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP - messages.length).fill(0n),
    ]);
  }

  /** Marks the fork used up without dropping the guard's view of it (after a commit). */
  markCommitted(): void {
    this.#closed = true;
  }
}

function fields(values: readonly bigint[], what: string): Buffer[] {
  return values.map((v, i) => checkedFieldBuffer(v, `${what} ${i}`));
}

function publicDataWrites(writes: readonly PublicDataWrite[]): PublicDataLeafWrite[] {
  return writes.map((w, i) => ({
    slot: checkedFieldBuffer(w.leafSlot, `public data write ${i} leaf slot`),
    value: checkedFieldBuffer(w.value, `public data write ${i} value`),
  }));
}

function padded(values: Buffer[], length: number): Buffer[] {
  while (values.length < length) values.push(ZERO32);
  return values;
}

function checkCount(n: number, max: number, what: string): void {
  if (n > max) throw new InvalidWorldStateArgumentError(`A tx carries at most ${max} ${what}, got ${n}`);
}
