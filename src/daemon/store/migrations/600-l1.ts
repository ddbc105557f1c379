import type { Migration } from './migration.js';

/**
 * The node's L1 (src/daemon/l1): the Aztec L1 deployment it settles on, one row, written when the node deployed
 * the contracts or attached to them, so a restart neither redeploys nor asks the registry again.
 */
export const l1Migration: Migration = {
  version: 600,
  name: 'L1 deployment',
  up(db) {
    db.exec(`
      CREATE TABLE l1_deployment (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        chain_id INTEGER NOT NULL,
        registry_address TEXT NOT NULL,
        rollup_address TEXT NOT NULL,
        rollup_version INTEGER NOT NULL,
        l1_block_at_genesis INTEGER NOT NULL,
        genesis_time INTEGER NOT NULL,
        slot_duration INTEGER NOT NULL,
        epoch_duration INTEGER NOT NULL,
        deployed_by_node INTEGER NOT NULL,
        addresses TEXT NOT NULL
      );
    `);
  },
};
