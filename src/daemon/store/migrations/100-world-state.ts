import type { Migration } from './migration.js';

/**
 * World-state tables (src/daemon/world-state). History is kept by versioning rows with the block that wrote
 * them: a read at block b takes, per key, the newest row with block <= b. Keys pack the tree id, level and
 * index into one integer (tree * 2^48 + level * 2^42 + index) so every lookup is one integer comparison.
 *
 * - ws_node: merkle node hashes of levels 0 (leaf values, append-only trees) or 1 (indexed trees) to height-1;
 *   roots live in ws_block. A node that was never written is the empty-subtree hash of its level.
 * - ws_leaf: preimages of indexed-tree leaves (nullifier and public data) with their leaf hashes, versioned like
 *   nodes; keeping the hash in the same row saves a second row per changed leaf.
 * - ws_key: key (nullifier, public-data slot, or an append-only leaf value) to leaf index, and the block that
 *   inserted it; serves low-leaf search (largest key <= x) and leaf index search.
 * - ws_block: per block, its hash (archive leaf) and every tree's root and size.
 * - ws_journal: per block and tree, the node and leaf keys it wrote, so unwinding deletes exactly those
 *   rows and pruning deletes the versions they superseded.
 * - ws_meta: finalized block, oldest retained block, genesis fingerprint, and a write token that lets an
 *   in-memory cache detect a rolled-back transaction.
 */
export const worldStateMigration: Migration = {
  version: 100,
  name: 'world state trees',
  up(db) {
    db.exec(`
      CREATE TABLE ws_node (
        k INTEGER NOT NULL,
        block INTEGER NOT NULL,
        hash BLOB NOT NULL,
        PRIMARY KEY (k, block)
      ) WITHOUT ROWID;
      CREATE TABLE ws_leaf (
        k INTEGER NOT NULL,
        block INTEGER NOT NULL,
        leaf BLOB NOT NULL,
        hash BLOB NOT NULL,
        PRIMARY KEY (k, block)
      ) WITHOUT ROWID;
      CREATE TABLE ws_key (
        tree INTEGER NOT NULL,
        key BLOB NOT NULL,
        idx INTEGER NOT NULL,
        block INTEGER NOT NULL,
        PRIMARY KEY (tree, key)
      ) WITHOUT ROWID;
      CREATE TABLE ws_block (
        block INTEGER PRIMARY KEY,
        hash BLOB NOT NULL,
        state BLOB NOT NULL
      );
      CREATE TABLE ws_journal (
        block INTEGER NOT NULL,
        tree INTEGER NOT NULL,
        nodes BLOB NOT NULL,
        leaves BLOB NOT NULL,
        PRIMARY KEY (block, tree)
      ) WITHOUT ROWID;
      CREATE TABLE ws_meta (
        name TEXT PRIMARY KEY,
        value NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
