import { registerChecksumFunctions } from './checksum-function.js';
import type { Migration } from './migration.js';

/**
 * A checksum per chain record served or built on (docs/architecture.md section 4.12), checked on every read:
 * chain_block.crc covers (number, hash, archive_root, header); chain_tx.crc (id, hash, effect);
 * chain_contract_class.crc (block, id, data); chain_contract_instance.crc (block, address, data). Existing rows
 * get theirs here.
 */
export const chainChecksumsMigration: Migration = {
  version: 220,
  name: 'chain checksums',
  up(db) {
    registerChecksumFunctions(db);
    db.exec(`
      ALTER TABLE chain_block ADD COLUMN crc INTEGER;
      ALTER TABLE chain_tx ADD COLUMN crc INTEGER;
      ALTER TABLE chain_contract_class ADD COLUMN crc INTEGER;
      ALTER TABLE chain_contract_instance ADD COLUMN crc INTEGER;
      UPDATE chain_block SET crc = record_checksum(number, hash, archive_root, header);
      UPDATE chain_tx SET crc = record_checksum(id, hash, effect);
      UPDATE chain_contract_class SET crc = record_checksum(block, id, data);
      UPDATE chain_contract_instance SET crc = record_checksum(block, address, data);
    `);
  },
};
