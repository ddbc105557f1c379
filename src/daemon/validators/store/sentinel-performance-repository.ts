import type { Statement } from 'better-sqlite3';
import type { EthAddress } from '../../../core/eth-address.js';
import type { SqliteDatabase } from '../../store/node-database.js';
import { statementOnFirstUse } from '../../store/statement-on-first-use.js';

/** A validator's duties in one proven epoch. */
export interface EpochPerformance {
  readonly epoch: number;
  readonly missed: number;
  readonly total: number;
}

/** sentinel_performance: per validator and proven epoch, missed and total duties (4.1.2 allTimeProvenPerformance). */
export class SentinelPerformanceRepository {
  private readonly insertStmt: Statement<[Buffer, number, number, number]>;
  private readonly ofStmt: Statement<[Buffer], EpochPerformance>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT INTO sentinel_performance (validator, epoch, missed, total) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (validator, epoch) DO UPDATE SET missed = excluded.missed, total = excluded.total',
    );
    this.ofStmt = statementOnFirstUse(
      db,
      'SELECT epoch, missed, total FROM sentinel_performance WHERE validator = ? ORDER BY epoch',
    );
  }

  record(validator: EthAddress, p: EpochPerformance): void {
    this.insertStmt.run(validator.bytes, p.epoch, p.missed, p.total);
  }

  /** Oldest epoch first. */
  of(validator: EthAddress): EpochPerformance[] {
    return this.ofStmt.all(validator.bytes);
  }
}
