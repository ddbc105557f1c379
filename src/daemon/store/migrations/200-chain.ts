import type { Migration } from './migration.js';

/**
 * Chain store tables (src/daemon/store, docs/architecture.md section 3.1): what the chain's blocks contain, indexed for the
 * queries of spec part 4. Rows are compact binary (the 4.1.2 binary layouts of headers and tx effects) and
 * integer-keyed where possible, so a block is a handful of inserts and block-range reads are rowid ranges.
 *
 * - chain_block: per block its header (440 B), hash and archive root (both indexed), checkpoint position, and
 *   counts that let log scans skip blocks without public or contract class logs.
 * - chain_tx: tx effects; id = block * 2^20 + index in block, so a block's txs are one rowid range. By hash
 *   through an index.
 * - chain_log_tag: the tag index: (tag, kind, block, position) for every private (kind 0) and public (kind 1)
 *   log; position = tx index * 2048 + log index. Key order is chain order per tag and kind.
 * - chain_contract_class / chain_contract_instance: taken from the registries' publication events.
 * - chain_l1_to_l2_message: messages that entered the tree: leaf index, message, checkpoint and block.
 * - chain_checkpoint: checkpoints published to L1 (header, block range, L1 publication data).
 * - chain_meta: proven and finalized checkpoints, genesis time of the slot clock.
 * - chain_function_signature: signatures registered by clients, by selector, to name functions in errors.
 * - dev_l1_inbox: the dev-mode L1 inbox stand-in: messages injected for a checkpoint not yet built.
 */
export const chainMigration: Migration = {
  version: 200,
  name: 'chain store',
  up(db) {
    db.exec(`
      CREATE TABLE chain_block (
        number INTEGER PRIMARY KEY,
        hash BLOB NOT NULL,
        archive_root BLOB NOT NULL,
        checkpoint INTEGER NOT NULL,
        index_in_checkpoint INTEGER NOT NULL,
        tx_count INTEGER NOT NULL,
        public_log_count INTEGER NOT NULL,
        class_log_count INTEGER NOT NULL,
        header BLOB NOT NULL
      );
      CREATE INDEX chain_block_by_hash ON chain_block (hash);
      CREATE INDEX chain_block_by_archive ON chain_block (archive_root);
      CREATE TABLE chain_tx (
        id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL,
        effect BLOB NOT NULL
      );
      CREATE INDEX chain_tx_by_hash ON chain_tx (hash);
      CREATE TABLE chain_log_tag (
        tag BLOB NOT NULL,
        kind INTEGER NOT NULL,
        block INTEGER NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (tag, kind, block, position)
      ) WITHOUT ROWID;
      CREATE TABLE chain_contract_class (
        id BLOB PRIMARY KEY,
        block INTEGER NOT NULL,
        data BLOB NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX chain_contract_class_by_block ON chain_contract_class (block);
      CREATE TABLE chain_contract_instance (
        address BLOB PRIMARY KEY,
        block INTEGER NOT NULL,
        data BLOB NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX chain_contract_instance_by_block ON chain_contract_instance (block);
      CREATE TABLE chain_l1_to_l2_message (
        idx INTEGER PRIMARY KEY,
        leaf BLOB NOT NULL,
        checkpoint INTEGER NOT NULL,
        block INTEGER NOT NULL
      );
      CREATE INDEX chain_l1_to_l2_message_by_leaf ON chain_l1_to_l2_message (leaf);
      CREATE TABLE chain_checkpoint (
        number INTEGER PRIMARY KEY,
        first_block INTEGER NOT NULL,
        last_block INTEGER NOT NULL,
        slot INTEGER NOT NULL,
        header BLOB NOT NULL,
        archive_root BLOB NOT NULL,
        l1_block_number INTEGER NOT NULL,
        l1_timestamp INTEGER NOT NULL,
        l1_block_hash BLOB NOT NULL
      );
      CREATE INDEX chain_checkpoint_by_slot ON chain_checkpoint (slot);
      CREATE TABLE chain_meta (
        name TEXT PRIMARY KEY,
        value NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE chain_function_signature (
        selector INTEGER PRIMARY KEY,
        signature TEXT NOT NULL
      );
      CREATE TABLE dev_l1_inbox (
        idx INTEGER PRIMARY KEY,
        leaf BLOB NOT NULL,
        checkpoint INTEGER NOT NULL
      );
      CREATE INDEX dev_l1_inbox_by_leaf ON dev_l1_inbox (leaf);
    `);
  },
};
