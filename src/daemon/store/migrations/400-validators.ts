import type { Migration } from './migration.js';

/**
 * Validator tables (src/daemon/validators, docs/validators.md).
 *
 * - chain_checkpoint_attestation: per published checkpoint, the committee's attestations (4.1.2
 *   CommitteeAttestation list, committee order: 20-byte address + 65-byte signature each, zero signature for a
 *   member that did not sign), and when this node proposed it, the proposer, its proposal signature and the L1
 *   publisher. Deleted with its checkpoint (an unwind drops both).
 * - validator_committee: the committee of each slot as this node saw it (sorted 20-byte addresses), and whether
 *   a proposer with its key here was ready to build (a slot it then left empty had nothing to build).
 * - validator_signature: every proposal (kind 0) and attestation (kind 1) signature seen, by slot and signer:
 *   the sentinel's evidence, the signer's protection against signing two payloads for one slot, and where
 *   duplicate proposals and attestations show.
 * - sentinel_history: per validator and processed slot, its 4.1.2 status (0 checkpoint-mined, 1
 *   checkpoint-proposed, 2 checkpoint-missed, 3 blocks-missed, 4 attestation-sent, 5 attestation-missed).
 * - sentinel_performance: per validator and proven epoch, missed and total duties (allTimeProvenPerformance).
 * - slash_offense: offenses detected, with the amount (decimal text) and the round they belong to.
 * - slash_vote: per round, the slots whose proposer voted for the round's slash payload.
 * - validator_meta: the sentinel's initial and last processed slots, the last epoch evaluated.
 */
export const validatorsMigration: Migration = {
  version: 400,
  name: 'validators, sentinel and slashing',
  up(db) {
    db.exec(`
      CREATE TABLE chain_checkpoint_attestation (
        checkpoint INTEGER PRIMARY KEY REFERENCES chain_checkpoint (number) ON DELETE CASCADE,
        attestations BLOB NOT NULL,
        proposer BLOB,
        proposer_signature BLOB,
        publisher BLOB
      );
      CREATE TABLE validator_committee (
        slot INTEGER PRIMARY KEY,
        members BLOB NOT NULL,
        proposer_ready INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE validator_signature (
        slot INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        signer BLOB NOT NULL,
        digest BLOB NOT NULL,
        signature BLOB NOT NULL,
        PRIMARY KEY (slot, kind, signer, digest)
      ) WITHOUT ROWID;
      CREATE TABLE sentinel_history (
        validator BLOB NOT NULL,
        slot INTEGER NOT NULL,
        status INTEGER NOT NULL,
        PRIMARY KEY (validator, slot)
      ) WITHOUT ROWID;
      CREATE INDEX sentinel_history_by_slot ON sentinel_history (slot);
      CREATE TABLE sentinel_performance (
        validator BLOB NOT NULL,
        epoch INTEGER NOT NULL,
        missed INTEGER NOT NULL,
        total INTEGER NOT NULL,
        PRIMARY KEY (validator, epoch)
      ) WITHOUT ROWID;
      CREATE TABLE slash_offense (
        validator BLOB NOT NULL,
        offense_type INTEGER NOT NULL,
        epoch_or_slot INTEGER NOT NULL,
        amount TEXT NOT NULL,
        round INTEGER NOT NULL,
        detected_at INTEGER NOT NULL,
        PRIMARY KEY (validator, offense_type, epoch_or_slot)
      ) WITHOUT ROWID;
      CREATE INDEX slash_offense_by_round ON slash_offense (round);
      CREATE TABLE slash_vote (
        round INTEGER NOT NULL,
        slot INTEGER NOT NULL,
        voter BLOB NOT NULL,
        PRIMARY KEY (round, slot)
      ) WITHOUT ROWID;
      CREATE TABLE validator_meta (
        name TEXT PRIMARY KEY,
        value NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
