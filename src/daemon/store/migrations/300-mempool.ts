import type { Migration } from './migration.js';

/**
 * Mempool tables (src/daemon/mempool).
 *
 * - mempool_tx: every tx the pool holds, pending (mined_block NULL) or mined and kept a while for
 *   node_getTxByHash and receipts. `tx` is the 4.1.2 binary form (Tx.toBuffer, hash included, so a restart
 *   does not rehash); `meta` the derived values the in-memory index is rebuilt from (JSON, bigints as
 *   decimal strings); `mined` where it was mined (JSON).
 * - mempool_dropped: txs the pool dropped (evicted, replaced, expired...) with why, newest kept, so a receipt
 *   can tell "dropped" from "never seen" (Aztec issue #25018).
 * - mempool_meta: a write token every pool write changes; an in-memory index that holds another token was
 *   built from a state a rolled-back transaction discarded, and is rebuilt.
 */
export const mempoolMigration: Migration = {
  version: 300,
  name: 'mempool',
  up(db) {
    db.exec(`
      CREATE TABLE mempool_tx (
        id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL UNIQUE,
        tx BLOB NOT NULL,
        meta TEXT NOT NULL,
        received_at INTEGER NOT NULL,
        mined_block INTEGER,
        mined TEXT
      );
      CREATE INDEX mempool_tx_mined_block ON mempool_tx (mined_block) WHERE mined_block IS NOT NULL;
      CREATE TABLE mempool_dropped (
        id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL UNIQUE,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL,
        dropped_at INTEGER NOT NULL
      );
      CREATE TABLE mempool_meta (
        name TEXT PRIMARY KEY,
        value NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
