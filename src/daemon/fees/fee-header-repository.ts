import type Database from 'better-sqlite3';
import type { SqliteDatabase } from '../store/node-database.js';
import { statementOnFirstUse } from '../store/statement-on-first-use.js';
import type { FeeHeader } from './fee-lib.js';

interface Row {
  block: number;
  excess_mana: string;
  mana_used: string;
  eth_per_fee_asset: string;
}

/** The fee_header table (migration 301): one fee header per block. */
export class FeeHeaderRepository {
  private readonly latestStmt: Database.Statement<[], Row>;
  private readonly getStmt: Database.Statement<[number], Row>;
  private readonly putStmt: Database.Statement<[number, string, string, string]>;
  private readonly deleteAboveStmt: Database.Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.latestStmt = statementOnFirstUse(db, 'SELECT * FROM fee_header ORDER BY block DESC LIMIT 1');
    this.getStmt = statementOnFirstUse(db, 'SELECT * FROM fee_header WHERE block = ?');
    this.putStmt = statementOnFirstUse(
      db,
      'INSERT OR REPLACE INTO fee_header (block, excess_mana, mana_used, eth_per_fee_asset) VALUES (?, ?, ?, ?)',
    );
    this.deleteAboveStmt = statementOnFirstUse(db, 'DELETE FROM fee_header WHERE block > ?');
  }

  latest(): { block: number; header: FeeHeader } | undefined {
    const row = this.latestStmt.get();
    return row && { block: row.block, header: toHeader(row) };
  }

  get(block: number): FeeHeader | undefined {
    const row = this.getStmt.get(block);
    return row && toHeader(row);
  }

  put(block: number, h: FeeHeader): void {
    this.putStmt.run(block, h.excessMana.toString(), h.manaUsed.toString(), h.ethPerFeeAsset.toString());
  }

  deleteAbove(block: number): void {
    this.deleteAboveStmt.run(block);
  }
}

function toHeader(row: Row): FeeHeader {
  return {
    excessMana: BigInt(row.excess_mana),
    manaUsed: BigInt(row.mana_used),
    ethPerFeeAsset: BigInt(row.eth_per_fee_asset),
  };
}
