import type Database from 'better-sqlite3';
import { randomToken48 } from '../../core/crypto/secure-random-bytes.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { statementOnFirstUse } from '../store/statement-on-first-use.js';

/** A pending row as the index is rebuilt from it. */
export interface PendingTxRow {
  readonly hash: Buffer;
  readonly meta: string;
  readonly received_at: number;
}

export interface TxRow {
  readonly tx: Buffer;
  readonly mined_block: number | null;
  readonly mined: string | null;
}

export interface DroppedTxRow {
  readonly reason: string;
  readonly detail: string;
  readonly dropped_at: number;
}

/**
 * The mempool tables (migration 300): one class for the three, as they change together. Every write goes
 * through a caller's transaction and changes the write token (see TxPool).
 */
export class TxPoolRepository {
  private readonly s: {
    insert: Database.Statement<[Buffer, Buffer, string, number]>;
    delete: Database.Statement<[Buffer]>;
    getTx: Database.Statement<[Buffer], TxRow>;
    pending: Database.Statement<[], PendingTxRow>;
    markMined: Database.Statement<[number, string, Buffer]>;
    unmarkMined: Database.Statement<[Buffer]>;
    minedAbove: Database.Statement<[number], { hash: Buffer }>;
    pruneMined: Database.Statement<[number]>;
    putDropped: Database.Statement<[Buffer, string, string, number]>;
    getDropped: Database.Statement<[Buffer], DroppedTxRow>;
    deleteDropped: Database.Statement<[Buffer]>;
    trimDropped: Database.Statement<[number]>;
    getToken: Database.Statement<[], { value: number }>;
    setToken: Database.Statement<[number]>;
  };

  constructor(readonly db: SqliteDatabase) {
    this.s = {
      insert: statementOnFirstUse(
        db,
        'INSERT OR REPLACE INTO mempool_tx (hash, tx, meta, received_at, mined_block, mined) VALUES (?, ?, ?, ?, NULL, NULL)',
      ),
      delete: statementOnFirstUse(db, 'DELETE FROM mempool_tx WHERE hash = ?'),
      getTx: statementOnFirstUse(db, 'SELECT tx, mined_block, mined FROM mempool_tx WHERE hash = ?'),
      pending: statementOnFirstUse(db, 'SELECT hash, meta, received_at FROM mempool_tx WHERE mined_block IS NULL'),
      markMined: statementOnFirstUse(db, 'UPDATE mempool_tx SET mined_block = ?, mined = ? WHERE hash = ?'),
      unmarkMined: statementOnFirstUse(db, 'UPDATE mempool_tx SET mined_block = NULL, mined = NULL WHERE hash = ?'),
      minedAbove: statementOnFirstUse(db, 'SELECT hash FROM mempool_tx WHERE mined_block > ?'),
      pruneMined: statementOnFirstUse(db, 'DELETE FROM mempool_tx WHERE mined_block IS NOT NULL AND mined_block <= ?'),
      putDropped: statementOnFirstUse(
        db,
        'INSERT OR REPLACE INTO mempool_dropped (hash, reason, detail, dropped_at) VALUES (?, ?, ?, ?)',
      ),
      getDropped: statementOnFirstUse(db, 'SELECT reason, detail, dropped_at FROM mempool_dropped WHERE hash = ?'),
      deleteDropped: statementOnFirstUse(db, 'DELETE FROM mempool_dropped WHERE hash = ?'),
      trimDropped: statementOnFirstUse(
        db,
        'DELETE FROM mempool_dropped WHERE id <= (SELECT MAX(id) FROM mempool_dropped) - ?',
      ),
      getToken: statementOnFirstUse(db, "SELECT value FROM mempool_meta WHERE name = 'token'"),
      setToken: statementOnFirstUse(db, "INSERT OR REPLACE INTO mempool_meta (name, value) VALUES ('token', ?)"),
    };
  }

  insert(hash: Buffer, tx: Buffer, meta: string, receivedAt: number): void {
    this.s.insert.run(hash, tx, meta, receivedAt);
    this.s.deleteDropped.run(hash);
  }

  delete(hash: Buffer): void {
    this.s.delete.run(hash);
  }

  getTx(hash: Buffer): TxRow | undefined {
    return this.s.getTx.get(hash);
  }

  pendingRows(): PendingTxRow[] {
    return this.s.pending.all();
  }

  markMined(hash: Buffer, blockNumber: number, mined: string): void {
    this.s.markMined.run(blockNumber, mined, hash);
  }

  unmarkMined(hash: Buffer): void {
    this.s.unmarkMined.run(hash);
  }

  minedAbove(blockNumber: number): Buffer[] {
    return this.s.minedAbove.all(blockNumber).map((r) => r.hash);
  }

  /** Forgets mined txs of blocks up to `blockNumber`. */
  pruneMined(blockNumber: number): void {
    this.s.pruneMined.run(blockNumber);
  }

  putDropped(hash: Buffer, reason: string, detail: string, at: number, keep: number): void {
    this.s.putDropped.run(hash, reason, detail, at);
    this.s.trimDropped.run(keep);
  }

  getDropped(hash: Buffer): DroppedTxRow | undefined {
    return this.s.getDropped.get(hash);
  }

  /** Forgets every tx, pending, mined or dropped (a forced rollback re-derives the chain; a restored snapshot). */
  clear(): void {
    this.db.exec('DELETE FROM mempool_tx; DELETE FROM mempool_dropped;');
  }

  getToken(): number | undefined {
    return this.s.getToken.get()?.value;
  }

  /** Sets a new random token and returns it. */
  bumpToken(): number {
    const token = randomToken48();
    this.s.setToken.run(token);
    return token;
  }
}
