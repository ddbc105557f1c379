import type { Statement } from 'better-sqlite3';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { PublicDataWrite } from '../world-state/world-state-fork.js';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/** A state override waiting for the next block, with its place in the queue. */
export interface PendingStateOverride extends PublicDataWrite {
  readonly seq: number;
}

/** Most overrides one block takes (the rest wait for the next), so no caller can make one block unbounded. */
export const MAX_STATE_OVERRIDES_PER_BLOCK = 1024;

/**
 * chain_pending_state_override: state overrides asked for and not yet applied, oldest first. Kept in the
 * database so snapshots, reverts and --dump-state carry them with the rest of the node.
 */
export class PendingStateOverrideRepository {
  private readonly insertStmt: Statement<[Buffer, Buffer]>;
  private readonly nextStmt: Statement<[number], { seq: number; leaf_slot: Buffer; value: Buffer }>;
  private readonly countStmt: Statement<[], number>;
  private readonly deleteThroughStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT INTO chain_pending_state_override (leaf_slot, value) VALUES (?, ?)',
    );
    this.nextStmt = statementOnFirstUse(
      db,
      'SELECT seq, leaf_slot, value FROM chain_pending_state_override ORDER BY seq LIMIT ?',
    );
    this.countStmt = statementOnFirstUse(db, 'SELECT COUNT(*) FROM chain_pending_state_override').pluck() as Statement<
      [],
      number
    >;
    this.deleteThroughStmt = statementOnFirstUse(db, 'DELETE FROM chain_pending_state_override WHERE seq <= ?');
  }

  add(write: PublicDataWrite): void {
    this.insertStmt.run(bigIntToBuffer32(write.leafSlot), bigIntToBuffer32(write.value));
  }

  /** What the next block applies: the oldest pending overrides, at most MAX_STATE_OVERRIDES_PER_BLOCK. */
  next(): PendingStateOverride[] {
    return this.nextStmt
      .all(MAX_STATE_OVERRIDES_PER_BLOCK)
      .map((r) => ({ seq: r.seq, leafSlot: readField32(r.leaf_slot), value: readField32(r.value) }));
  }

  count(): number {
    return this.countStmt.get() as number;
  }

  /** Drops the overrides a block applied (those up to `seq`). */
  deleteThrough(seq: number): void {
    this.deleteThroughStmt.run(seq);
  }
}
