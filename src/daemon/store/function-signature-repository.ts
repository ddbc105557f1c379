import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';

/** chain_function_signature: function signatures registered by clients, by 4-byte selector. */
export class FunctionSignatureRepository {
  private readonly upsertStmt: Statement<[number, string]>;
  private readonly getStmt: Statement<[number], { signature: string }>;

  constructor(db: SqliteDatabase) {
    this.upsertStmt = db.prepare(
      'INSERT INTO chain_function_signature (selector, signature) VALUES (?, ?) ON CONFLICT (selector) DO UPDATE SET signature = excluded.signature',
    );
    this.getStmt = db.prepare('SELECT signature FROM chain_function_signature WHERE selector = ?');
  }

  put(selector: number, signature: string): void {
    this.upsertStmt.run(selector, signature);
  }

  get(selector: number): string | undefined {
    return this.getStmt.get(selector)?.signature;
  }
}
