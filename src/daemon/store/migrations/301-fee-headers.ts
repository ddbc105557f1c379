import type { Migration } from './migration.js';

/**
 * Fee headers (src/daemon/fees): per block, the excess mana it starts from, the mana it used and the fee
 * asset price, from which the fee model derives the next block's min fees. Written by the fee model's
 * block observer inside applyBlock's transaction, so fees and chain never disagree. Bigints are decimal text.
 */
export const feeHeadersMigration: Migration = {
  version: 301,
  name: 'fee headers',
  up(db) {
    db.exec(`
      CREATE TABLE fee_header (
        block INTEGER PRIMARY KEY,
        excess_mana TEXT NOT NULL,
        mana_used TEXT NOT NULL,
        eth_per_fee_asset TEXT NOT NULL
      );
    `);
  },
};
