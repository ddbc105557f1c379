import type { Migration } from './migration.js';

/**
 * The order in which function signatures were registered: the table is bounded, and the oldest registrations
 * make room for new ones (docs/rpc.md). Rows of before this step count as the oldest.
 */
export const functionSignatureOrderMigration: Migration = {
  version: 201,
  name: 'function signature order',
  up(db) {
    db.exec(`
      ALTER TABLE chain_function_signature ADD COLUMN registered INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX chain_function_signature_by_registered ON chain_function_signature (registered);
    `);
  },
};
