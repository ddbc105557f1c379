import type { Statement } from 'better-sqlite3';
import { EthAddress } from '../../../core/eth-address.js';
import type { SqliteDatabase } from '../../store/node-database.js';
import { statementOnFirstUse } from '../../store/statement-on-first-use.js';
import { statusCode, statusOf, type ValidatorStatus } from '../validator-status.js';

/** One slot of a validator's history. */
export interface StatusInSlot {
  readonly slot: number;
  readonly status: ValidatorStatus;
}

/** sentinel_history: per validator and processed slot, what it did. */
export class SentinelHistoryRepository {
  private readonly insertStmt: Statement<[Buffer, number, number]>;
  private readonly byValidatorStmt: Statement<[Buffer], { slot: number; status: number }>;
  private readonly allStmt: Statement<[], { validator: Buffer; slot: number; status: number }>;
  private readonly pruneStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT INTO sentinel_history (validator, slot, status) VALUES (?, ?, ?) ON CONFLICT (validator, slot) DO UPDATE SET status = excluded.status',
    );
    this.byValidatorStmt = statementOnFirstUse(
      db,
      'SELECT slot, status FROM sentinel_history WHERE validator = ? ORDER BY slot',
    );
    this.allStmt = statementOnFirstUse(
      db,
      'SELECT validator, slot, status FROM sentinel_history ORDER BY validator, slot',
    );
    this.pruneStmt = statementOnFirstUse(db, 'DELETE FROM sentinel_history WHERE slot < ?');
  }

  record(validator: EthAddress, slot: number, status: ValidatorStatus): void {
    this.insertStmt.run(validator.bytes, slot, statusCode(status));
  }

  /** A validator's history, oldest first. */
  of(validator: EthAddress): StatusInSlot[] {
    return this.byValidatorStmt.all(validator.bytes).map((r) => ({ slot: r.slot, status: statusOf(r.status) }));
  }

  /** Every validator's history, by lowercase address. */
  all(): Map<string, StatusInSlot[]> {
    const out = new Map<string, StatusInSlot[]>();
    for (const r of this.allStmt.all()) {
      const key = EthAddress.fromBuffer(r.validator).toString();
      let list = out.get(key);
      if (!list) {
        list = [];
        out.set(key, list);
      }
      list.push({ slot: r.slot, status: statusOf(r.status) });
    }
    return out;
  }

  /** Keeps the history window: drops slots before `slot`. */
  pruneBefore(slot: number): void {
    this.pruneStmt.run(slot);
  }
}
