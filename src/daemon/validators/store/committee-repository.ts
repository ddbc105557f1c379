import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../../store/node-database.js';
import { statementOnFirstUse } from '../../store/statement-on-first-use.js';
import { Committee } from '../committee.js';

/** validator_committee: the committee of each slot as seen here, and whether its proposer was ready to build. */
export class CommitteeRepository {
  private readonly insertStmt: Statement<[number, Buffer]>;
  private readonly getStmt: Statement<[number], { members: Buffer; proposer_ready: number }>;
  private readonly readyStmt: Statement<[number]>;
  private readonly pruneStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO validator_committee (slot, members) VALUES (?, ?)',
    );
    this.getStmt = statementOnFirstUse(db, 'SELECT members, proposer_ready FROM validator_committee WHERE slot = ?');
    this.readyStmt = statementOnFirstUse(db, 'UPDATE validator_committee SET proposer_ready = 1 WHERE slot = ?');
    this.pruneStmt = statementOnFirstUse(db, 'DELETE FROM validator_committee WHERE slot < ?');
  }

  /** Records a slot's committee unless it already has one (a slot's committee never changes once seen). */
  record(slot: number, committee: Committee): void {
    this.insertStmt.run(slot, committee.encode());
  }

  get(slot: number): { committee: Committee; proposerReady: boolean } | undefined {
    const r = this.getStmt.get(slot);
    return r ? { committee: Committee.decode(r.members), proposerReady: r.proposer_ready === 1 } : undefined;
  }

  markProposerReady(slot: number): void {
    this.readyStmt.run(slot);
  }

  pruneBefore(slot: number): void {
    this.pruneStmt.run(slot);
  }
}
