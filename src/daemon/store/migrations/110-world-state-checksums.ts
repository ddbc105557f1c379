import { registerChecksumFunctions } from './checksum-function.js';
import type { Migration } from './migration.js';

/**
 * A checksum per tree node and per indexed-tree leaf (docs/architecture.md section 4.12), checked on every read:
 * ws_node.crc covers (k, hash), ws_leaf.crc covers (k, leaf, hash). Stored as 4 bytes (not an integer) so the
 * batched reads return value and checksum as one blob from one scalar subquery. Existing rows get theirs here.
 */
export const worldStateChecksumsMigration: Migration = {
  version: 110,
  name: 'world state checksums',
  up(db) {
    registerChecksumFunctions(db);
    db.exec(`
      ALTER TABLE ws_node ADD COLUMN crc BLOB;
      ALTER TABLE ws_leaf ADD COLUMN crc BLOB;
      UPDATE ws_node SET crc = record_checksum_bytes(k, hash);
      UPDATE ws_leaf SET crc = record_checksum_bytes(k, leaf, hash);
    `);
  },
};
