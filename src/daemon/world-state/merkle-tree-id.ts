import {
  ARCHIVE_HEIGHT,
  ARCHIVE_TREE_ID,
  L1_TO_L2_MESSAGE_TREE_ID,
  L1_TO_L2_MSG_TREE_HEIGHT,
  NOTE_HASH_TREE_HEIGHT,
  NOTE_HASH_TREE_ID,
  NULLIFIER_TREE_HEIGHT,
  NULLIFIER_TREE_ID,
  PUBLIC_DATA_TREE_HEIGHT,
  PUBLIC_DATA_TREE_ID,
} from '../../core/constants.js';
import { InvalidTreeIdError } from './world-state-errors.js';

/** The five trees of the world state, by their protocol ids (docs/aztec-facts.md section 2.6). */
export const MerkleTreeId = {
  NULLIFIER_TREE: NULLIFIER_TREE_ID,
  NOTE_HASH_TREE: NOTE_HASH_TREE_ID,
  PUBLIC_DATA_TREE: PUBLIC_DATA_TREE_ID,
  L1_TO_L2_MESSAGE_TREE: L1_TO_L2_MESSAGE_TREE_ID,
  ARCHIVE: ARCHIVE_TREE_ID,
} as const;

export type MerkleTreeId = (typeof MerkleTreeId)[keyof typeof MerkleTreeId];

/** How a tree takes leaves: raw values appended, or an indexed (sorted linked list) tree. */
export type TreeKind = 'append-only' | 'nullifier' | 'public-data';

export interface TreeInfo {
  readonly id: MerkleTreeId;
  readonly name: string;
  readonly height: number;
  readonly kind: TreeKind;
}

/** Every tree, indexed by id. */
export const TREES: readonly TreeInfo[] = [
  { id: MerkleTreeId.NULLIFIER_TREE, name: 'NULLIFIER_TREE', height: NULLIFIER_TREE_HEIGHT, kind: 'nullifier' },
  { id: MerkleTreeId.NOTE_HASH_TREE, name: 'NOTE_HASH_TREE', height: NOTE_HASH_TREE_HEIGHT, kind: 'append-only' },
  { id: MerkleTreeId.PUBLIC_DATA_TREE, name: 'PUBLIC_DATA_TREE', height: PUBLIC_DATA_TREE_HEIGHT, kind: 'public-data' },
  {
    id: MerkleTreeId.L1_TO_L2_MESSAGE_TREE,
    name: 'L1_TO_L2_MESSAGE_TREE',
    height: L1_TO_L2_MSG_TREE_HEIGHT,
    kind: 'append-only',
  },
  { id: MerkleTreeId.ARCHIVE, name: 'ARCHIVE', height: ARCHIVE_HEIGHT, kind: 'append-only' },
];

export const TREE_COUNT = TREES.length;

/**
 * The spec's tree table names id 5 BLOCKS_TREE, the tree whose leaves are block hashes: that is the archive
 * (id 4) in Aztec 4.x, so id 5 is read as the archive.
 */
export const SPEC_BLOCKS_TREE_ID = 5;

/**
 * Checks a tree id from a caller: 0 to 4, and the spec's 5 (BLOCKS_TREE) as the archive. The spec documents a
 * range up to 6 without saying what 6 is, and no Aztec version has such a tree: it is refused with a message
 * naming the valid ids (docs/compatibility.md).
 */
export function parseTreeId(id: unknown): MerkleTreeId {
  if (typeof id === 'number' && Number.isInteger(id) && id >= 0 && id < TREE_COUNT) return id as MerkleTreeId;
  if (id === SPEC_BLOCKS_TREE_ID) return MerkleTreeId.ARCHIVE;
  if (id === 6) {
    throw new InvalidTreeIdError(
      'treeId 6 is not a tree of this node: the world state has trees 0 (NULLIFIER_TREE), 1 (NOTE_HASH_TREE), ' +
        "2 (PUBLIC_DATA_TREE), 3 (L1_TO_L2_MESSAGE_TREE) and 4 (ARCHIVE), and 5 (the spec's BLOCKS_TREE) is the " +
        'archive; the spec gives no meaning to 6 and Aztec 4.x has no such tree',
    );
  }
  throw new InvalidTreeIdError(`treeId must be one of 0, 1, 2, 3, 4, 5, got ${JSON.stringify(id) ?? String(id)}`);
}

export function treeInfo(id: MerkleTreeId): TreeInfo {
  return TREES[id] as TreeInfo;
}
