import type { Statement } from 'better-sqlite3';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { PublicDataWrite } from '../world-state/world-state-fork.js';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/**
 * chain_state_override: the public data writes a block applied before its txs by a state cheat code
 * (docs/cheat-codes.md), in order. Their block's header commits to the resulting root while its body does not
 * carry them, so they are kept beside the block for followers (node_getStateOverrides) and re-derivation.
 */
export class StateOverrideRepository {
  private readonly insertStmt: Statement<[number, number, Buffer, Buffer]>;
  private readonly ofBlockStmt: Statement<[number], { leaf_slot: Buffer; value: Buffer }>;
  private readonly deleteAboveStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT INTO chain_state_override (block, position, leaf_slot, value) VALUES (?, ?, ?, ?)',
    );
    this.ofBlockStmt = statementOnFirstUse(
      db,
      'SELECT leaf_slot, value FROM chain_state_override WHERE block = ? ORDER BY position',
    );
    this.deleteAboveStmt = statementOnFirstUse(db, 'DELETE FROM chain_state_override WHERE block > ?');
  }

  insert(blockNumber: number, writes: readonly PublicDataWrite[]): void {
    writes.forEach((w, i) => {
      this.insertStmt.run(blockNumber, i, bigIntToBuffer32(w.leafSlot), bigIntToBuffer32(w.value));
    });
  }

  /** The overrides block `blockNumber` applied, in order; empty when it applied none. */
  ofBlock(blockNumber: number): PublicDataWrite[] {
    return this.ofBlockStmt
      .all(blockNumber)
      .map((r) => ({ leafSlot: readField32(r.leaf_slot), value: readField32(r.value) }));
  }

  deleteAbove(blockNumber: number): void {
    this.deleteAboveStmt.run(blockNumber);
  }
}
