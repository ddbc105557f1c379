import type { Migration } from './migration.js';

/**
 * A lazy fork's record of its upstream (--fork-url, docs/dev-chain.md "Lazy mode"): chain_fork_upstream holds the
 * upstream's URL (without credentials), so a data directory or a --dump-state file of a lazy fork can say which
 * node it needs; chain_fork_upstream_block holds the upstream's blocks below the fork's first block that a read
 * fetched, each checked against the fork's archive, so they are fetched once per data directory, and
 * chain_fork_upstream_tx where each of their txs is.
 */
export const forkUpstreamMigration: Migration = {
  version: 240,
  name: 'fork upstream',
  up(db) {
    db.exec(`
      CREATE TABLE chain_fork_upstream (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        url TEXT NOT NULL
      );
      CREATE TABLE chain_fork_upstream_block (
        number INTEGER PRIMARY KEY,
        hash BLOB NOT NULL,
        block BLOB NOT NULL
      );
      CREATE TABLE chain_fork_upstream_tx (
        hash BLOB PRIMARY KEY,
        block INTEGER NOT NULL,
        position INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
