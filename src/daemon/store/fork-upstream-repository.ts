import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';

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

  constructor(db: SqliteDatabase) {
    this.urlStmt = db.prepare('SELECT url FROM chain_fork_upstream WHERE id = 1');
    this.setUrlStmt = db.prepare(
      'INSERT INTO chain_fork_upstream (id, url) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET url = excluded.url',
    );
    this.blockStmt = db.prepare('SELECT block FROM chain_fork_upstream_block WHERE number = ?');
    this.insertBlockStmt = db.prepare(
      'INSERT OR IGNORE INTO chain_fork_upstream_block (number, hash, block) VALUES (?, ?, ?)',
    );
    this.txStmt = db.prepare('SELECT block, position FROM chain_fork_upstream_tx WHERE hash = ?');
    this.insertTxStmt = db.prepare(
      'INSERT OR IGNORE INTO chain_fork_upstream_tx (hash, block, position) VALUES (?, ?, ?)',
    );
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

  /** Where a tx of a kept upstream block is. */
  tx(hash: Buffer): { block: number; position: number } | undefined {
    return this.txStmt.get(hash);
  }
}
