import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/**
 * Most signatures kept; past it the oldest registrations are dropped. With signatures of at most 1,024
 * characters, the table stays near 10 MB however many calls register them.
 */
export const FUNCTION_SIGNATURE_CAPACITY = 10_000;

/**
 * chain_function_signature: function signatures registered by clients, by 4-byte selector, in registration
 * order. The first signature registered for a selector keeps it; the table holds at most `capacity` rows, the
 * oldest registrations dropped first.
 */
export class FunctionSignatureRepository {
  private readonly insertStmt: Statement<[number, string]>;
  private readonly getStmt: Statement<[number], { signature: string }>;
  private readonly countStmt: Statement<[], { n: number }>;
  private readonly evictStmt: Statement<[number]>;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly capacity = FUNCTION_SIGNATURE_CAPACITY,
  ) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT INTO chain_function_signature (selector, signature, registered) ' +
        'SELECT ?, ?, COALESCE(MAX(registered), 0) + 1 FROM chain_function_signature WHERE true ' +
        'ON CONFLICT (selector) DO NOTHING',
    );
    this.getStmt = statementOnFirstUse(db, 'SELECT signature FROM chain_function_signature WHERE selector = ?');
    this.countStmt = statementOnFirstUse(db, 'SELECT COUNT(*) AS n FROM chain_function_signature');
    this.evictStmt = statementOnFirstUse(
      db,
      'DELETE FROM chain_function_signature WHERE selector IN ' +
        '(SELECT selector FROM chain_function_signature ORDER BY registered LIMIT ?)',
    );
  }

  /** Adds the signatures not yet known by selector, then drops the oldest past the capacity; one transaction. */
  putAll(entries: readonly (readonly [number, string])[]): void {
    this.db.transaction(() => {
      for (const [selector, signature] of entries) this.insertStmt.run(selector, signature);
      const over = (this.countStmt.get()?.n ?? 0) - this.capacity;
      if (over > 0) this.evictStmt.run(over);
    })();
  }

  get(selector: number): string | undefined {
    return this.getStmt.get(selector)?.signature;
  }

  count(): number {
    return this.countStmt.get()?.n ?? 0;
  }
}
