import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/**
 * A lazy fork's upstream (chain_fork_upstream, chain_fork_upstream_block, chain_fork_upstream_tx): its URL, and
 * the upstream's blocks below the fork's first block fetched so far (their bytes as L2Block.toBuffer writes them,
 * by number) with where their txs are. Whoever
 * writes a block has checked it against the fork's archive; whoever reads one checks it again.
 */
export class ForkUpstreamRepository {
  private readonly urlStmt: Statement<[], { url: string }>;
  private readonly setUrlStmt: Statement<[string]>;
  private readonly blockStmt: Statement<[number], { block: Buffer }>;
  private readonly insertBlockStmt: Statement<[number, Buffer, Buffer]>;
  private readonly txStmt: Statement<[Buffer], { block: number; position: number }>;
  private readonly insertTxStmt: Statement<[Buffer, number, number]>;
  private readonly sizesStmt: Statement<[], { number: number; bytes: number }>;
  private readonly deleteBlockStmt: Statement<[number]>;
  private readonly deleteTxsStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.urlStmt = statementOnFirstUse(db, 'SELECT url FROM chain_fork_upstream WHERE id = 1');
    this.setUrlStmt = statementOnFirstUse(
      db,
      'INSERT INTO chain_fork_upstream (id, url) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET url = excluded.url',
    );
    this.blockStmt = statementOnFirstUse(db, 'SELECT block FROM chain_fork_upstream_block WHERE number = ?');
    this.insertBlockStmt = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO chain_fork_upstream_block (number, hash, block) VALUES (?, ?, ?)',
    );
    this.txStmt = statementOnFirstUse(db, 'SELECT block, position FROM chain_fork_upstream_tx WHERE hash = ?');
    this.insertTxStmt = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO chain_fork_upstream_tx (hash, block, position) VALUES (?, ?, ?)',
    );
    this.sizesStmt = statementOnFirstUse(
      db,
      'SELECT number, length(block) AS bytes FROM chain_fork_upstream_block ORDER BY number',
    );
    this.deleteBlockStmt = statementOnFirstUse(db, 'DELETE FROM chain_fork_upstream_block WHERE number = ?');
    this.deleteTxsStmt = statementOnFirstUse(db, 'DELETE FROM chain_fork_upstream_tx WHERE block = ?');
  }

  /** The upstream's URL the fork was made from (or last restarted on). */
  url(): string | undefined {
    return this.urlStmt.get()?.url;
  }

  setUrl(url: string): void {
    this.setUrlStmt.run(url);
  }

  /** The upstream's block `n` as fetched, if it was. */
  block(n: number): Buffer | undefined {
    return this.blockStmt.get(n)?.block;
  }

  /** Keeps block `n` and where each of its txs (by hash, in order) is. */
  insertBlock(n: number, hash: Buffer, block: Buffer, txHashes: readonly Buffer[]): void {
    this.insertBlockStmt.run(n, hash, block);
    for (const [position, tx] of txHashes.entries()) this.insertTxStmt.run(tx, n, position);
  }

  /**
   * Drops kept blocks, lowest numbers first and never one of `keep`, until the kept blocks take at most
   * `maxBytes` (an in-memory fork's bound: they are fetched again when asked for).
   */
  trim(maxBytes: number, keep: ReadonlySet<number>): void {
    const rows = this.sizesStmt.all();
    let total = rows.reduce((sum, r) => sum + r.bytes, 0);
    for (const r of rows) {
      if (total <= maxBytes) return;
      if (keep.has(r.number)) continue;
      this.deleteBlockStmt.run(r.number);
      this.deleteTxsStmt.run(r.number);
      total -= r.bytes;
    }
  }

  /** Where a tx of a kept upstream block is. */
  tx(hash: Buffer): { block: number; position: number } | undefined {
    return this.txStmt.get(hash);
  }
}
