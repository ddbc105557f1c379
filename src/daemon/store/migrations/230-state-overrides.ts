import type { Migration } from './migration.js';

/**
 * State overrides of the dev chain's state cheat codes (nodeDev_setPublicStorage, nodeDev_setFeeJuiceBalance):
 * chain_state_override holds the public data writes each block applied before its txs (written by applyBlock,
 * removed by the unwind), so followers and a forced rollback re-derive the same roots; chain_pending_state_override
 * holds the ones waiting for the next block, in the order they were asked for.
 */
export const stateOverridesMigration: Migration = {
  version: 230,
  name: 'state overrides',
  up(db) {
    db.exec(`
      CREATE TABLE chain_state_override (
        block INTEGER NOT NULL,
        position INTEGER NOT NULL,
        leaf_slot BLOB NOT NULL,
        value BLOB NOT NULL,
        PRIMARY KEY (block, position)
      ) WITHOUT ROWID;
      CREATE TABLE chain_pending_state_override (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        leaf_slot BLOB NOT NULL,
        value BLOB NOT NULL
      );
    `);
  },
};
