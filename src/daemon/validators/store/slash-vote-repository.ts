import type { Statement } from 'better-sqlite3';
import type { EthAddress } from '../../../core/eth-address.js';
import type { SqliteDatabase } from '../../store/node-database.js';
import { statementOnFirstUse } from '../../store/statement-on-first-use.js';

/** slash_vote: per round, the slots whose proposer voted for the round's slash payload. */
export class SlashVoteRepository {
  private readonly insertStmt: Statement<[number, number, Buffer]>;
  private readonly countStmt: Statement<[number], { n: number }>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(db, 'INSERT OR IGNORE INTO slash_vote (round, slot, voter) VALUES (?, ?, ?)');
    this.countStmt = statementOnFirstUse(db, 'SELECT count(*) AS n FROM slash_vote WHERE round = ?');
  }

  /** One vote per slot: a proposer votes with its checkpoint. */
  record(round: number, slot: number, voter: EthAddress): void {
    this.insertStmt.run(round, slot, voter.bytes);
  }

  count(round: number): number {
    return this.countStmt.get(round)?.n ?? 0;
  }
}
