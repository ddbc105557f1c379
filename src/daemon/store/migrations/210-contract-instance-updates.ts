import type { Migration } from './migration.js';

/**
 * chain_contract_instance_update: upgrades scheduled through the instance registry (its public logs), so that an
 * instance's current class can be resolved at any timestamp. Ordered per address by the publishing block's
 * timestamp, then block, tx and log position, as 4.1.2's archiver orders them.
 */
export const contractInstanceUpdatesMigration: Migration = {
  version: 210,
  name: 'contract instance updates',
  up(db) {
    db.exec(`
      CREATE TABLE chain_contract_instance_update (
        address BLOB NOT NULL,
        block_timestamp INTEGER NOT NULL,
        block INTEGER NOT NULL,
        position INTEGER NOT NULL,
        prev_class_id BLOB NOT NULL,
        new_class_id BLOB NOT NULL,
        timestamp_of_change INTEGER NOT NULL,
        PRIMARY KEY (address, block_timestamp, block, position)
      ) WITHOUT ROWID;
      CREATE INDEX chain_contract_instance_update_by_block ON chain_contract_instance_update (block);
    `);
  },
};
