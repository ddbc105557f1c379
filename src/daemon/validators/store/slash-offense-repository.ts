import type { Statement } from 'better-sqlite3';
import { EthAddress } from '../../../core/eth-address.js';
import type { SqliteDatabase } from '../../store/node-database.js';
import { statementOnFirstUse } from '../../store/statement-on-first-use.js';
import type { OffenseType } from '../offense-type.js';

/** An offense detected here (4.1.2 Offense, with the round it belongs to). */
export interface OffenseRecord {
  readonly validator: EthAddress;
  readonly offenseType: OffenseType;
  readonly epochOrSlot: number;
  readonly amount: bigint;
  /** The slashing round of the offense's slot (for an epoch offense, of the epoch's first slot). */
  readonly round: number;
}

interface Raw {
  validator: Buffer;
  offense_type: number;
  epoch_or_slot: number;
  amount: string;
  round: number;
}

const COLUMNS = 'validator, offense_type, epoch_or_slot, amount, round';

/** slash_offense: offenses detected, one per (validator, type, epoch or slot). */
export class SlashOffenseRepository {
  private readonly insertStmt: Statement<[Buffer, number, number, string, number, number]>;
  private readonly roundStmt: Statement<[number], Raw>;
  private readonly fromRoundStmt: Statement<[number], Raw>;
  private readonly pruneStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      `INSERT OR IGNORE INTO slash_offense (${COLUMNS}, detected_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.roundStmt = statementOnFirstUse(
      db,
      `SELECT ${COLUMNS} FROM slash_offense WHERE round = ? ORDER BY epoch_or_slot, validator`,
    );
    this.fromRoundStmt = statementOnFirstUse(
      db,
      `SELECT ${COLUMNS} FROM slash_offense WHERE round >= ? ORDER BY round, epoch_or_slot, validator`,
    );
    this.pruneStmt = statementOnFirstUse(db, 'DELETE FROM slash_offense WHERE round < ?');
  }

  /** Records an offense; false when it was already known (offenses are detected once). */
  insert(o: OffenseRecord, detectedAtMs: number): boolean {
    return (
      this.insertStmt.run(o.validator.bytes, o.offenseType, o.epochOrSlot, o.amount.toString(), o.round, detectedAtMs)
        .changes > 0
    );
  }

  inRound(round: number): OffenseRecord[] {
    return this.roundStmt.all(round).map(toRecord);
  }

  fromRound(round: number): OffenseRecord[] {
    return this.fromRoundStmt.all(round).map(toRecord);
  }

  /** Drops offenses of rounds before `round` (expired). */
  pruneBefore(round: number): void {
    this.pruneStmt.run(round);
  }
}

function toRecord(r: Raw): OffenseRecord {
  return {
    validator: EthAddress.fromBuffer(r.validator),
    offenseType: r.offense_type as OffenseType,
    epochOrSlot: r.epoch_or_slot,
    amount: BigInt(r.amount),
    round: r.round,
  };
}
