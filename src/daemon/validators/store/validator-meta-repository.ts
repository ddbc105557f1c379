import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../../store/node-database.js';
import { statementOnFirstUse } from '../../store/statement-on-first-use.js';

export type ValidatorMetaKey =
  /** The first slot the sentinel watched (4.1.2 initialSlot); slots up to it are never processed. */
  | 'initialSlot'
  /** The last slot the sentinel classified. */
  | 'lastProcessedSlot'
  /** The last epoch whose proven performance was computed (and inactivity judged). */
  | 'lastEvaluatedEpoch';

/** validator_meta: a few named integers of the sentinel. */
export class ValidatorMetaRepository {
  private readonly getStmt: Statement<[string], { value: number }>;
  private readonly setStmt: Statement<[string, number]>;

  constructor(db: SqliteDatabase) {
    this.getStmt = statementOnFirstUse(db, 'SELECT value FROM validator_meta WHERE name = ?');
    this.setStmt = statementOnFirstUse(
      db,
      'INSERT INTO validator_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    );
  }

  get(key: ValidatorMetaKey): number | undefined {
    return this.getStmt.get(key)?.value;
  }

  set(key: ValidatorMetaKey, value: number): void {
    this.setStmt.run(key, value);
  }
}
