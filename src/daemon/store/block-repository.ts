import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';
import { recordChecksum, verifyRecord } from './record-checksum.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/** One row of chain_block. */
export interface BlockRow {
  readonly number: number;
  /** Header hash (the block hash, archive leaf). */
  readonly hash: Buffer;
  /** Archive root after the block. */
  readonly archiveRoot: Buffer;
  readonly checkpoint: number;
  readonly indexInCheckpoint: number;
  readonly txCount: number;
  readonly publicLogCount: number;
  readonly classLogCount: number;
  /** The 440-byte binary header. */
  readonly header: Buffer;
}

interface RawBlockRow {
  number: number;
  hash: Buffer;
  archive_root: Buffer;
  checkpoint: number;
  index_in_checkpoint: number;
  tx_count: number;
  public_log_count: number;
  class_log_count: number;
  header: Buffer;
  crc: number | null;
}

const COLUMNS =
  'number, hash, archive_root, checkpoint, index_in_checkpoint, tx_count, public_log_count, class_log_count, header, crc';

/**
 * chain_block: blocks by number, hash and archive root. Each row carries the checksum of its number, hash,
 * archive root and header (migration 220), checked on every read (docs/architecture.md section 4.12).
 */
export class BlockRepository {
  private readonly insertStmt: Statement;
  private readonly byNumber: Statement<[number], RawBlockRow>;
  private readonly byHash: Statement<[Buffer], RawBlockRow>;
  private readonly byArchive: Statement<[Buffer], RawBlockRow>;
  private readonly range: Statement<[number, number], RawBlockRow>;
  private readonly latestStmt: Statement<[], { number: number | null }>;
  private readonly withLogsStmt: Statement<[number, number], { number: number }>;
  private readonly withClassLogsStmt: Statement<[number, number], { number: number }>;
  private readonly deleteAboveStmt: Statement<[number]>;

  constructor(private readonly db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      `INSERT INTO chain_block (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.byNumber = statementOnFirstUse(db, `SELECT ${COLUMNS} FROM chain_block WHERE number = ?`);
    this.byHash = statementOnFirstUse(db, `SELECT ${COLUMNS} FROM chain_block WHERE hash = ?`);
    this.byArchive = statementOnFirstUse(db, `SELECT ${COLUMNS} FROM chain_block WHERE archive_root = ?`);
    this.range = statementOnFirstUse(
      db,
      `SELECT ${COLUMNS} FROM chain_block WHERE number >= ? AND number < ? ORDER BY number`,
    );
    this.latestStmt = statementOnFirstUse(db, 'SELECT max(number) AS number FROM chain_block');
    this.withLogsStmt = statementOnFirstUse(
      db,
      'SELECT number FROM chain_block WHERE number >= ? AND number < ? AND public_log_count > 0 ORDER BY number',
    );
    this.withClassLogsStmt = statementOnFirstUse(
      db,
      'SELECT number FROM chain_block WHERE number >= ? AND number < ? AND class_log_count > 0 ORDER BY number',
    );
    this.deleteAboveStmt = statementOnFirstUse(db, 'DELETE FROM chain_block WHERE number > ?');
  }

  insert(r: BlockRow): void {
    this.insertStmt.run(
      r.number,
      r.hash,
      r.archiveRoot,
      r.checkpoint,
      r.indexInCheckpoint,
      r.txCount,
      r.publicLogCount,
      r.classLogCount,
      r.header,
      recordChecksum(r.number, r.hash, r.archiveRoot, r.header),
    );
  }

  get(number: number): BlockRow | undefined {
    return this.toRow(this.byNumber.get(number));
  }

  getByHash(hash: Buffer): BlockRow | undefined {
    return this.toRow(this.byHash.get(hash));
  }

  getByArchiveRoot(root: Buffer): BlockRow | undefined {
    return this.toRow(this.byArchive.get(root));
  }

  /** Blocks from `from` (inclusive) to `to` (exclusive), in order. */
  getRange(from: number, to: number): BlockRow[] {
    return this.range.all(from, to).map((r) => this.toRow(r) as BlockRow);
  }

  /** Numbers of the blocks in [from, to) whose row fails its checksum (`l2node db check`, start-up). */
  damagedIn(from: number, to: number): number[] {
    const bad: number[] = [];
    for (const r of this.range.iterate(from, to)) {
      if (r.crc !== recordChecksum(r.number, r.hash, r.archive_root, r.header)) bad.push(r.number);
    }
    return bad;
  }

  /** The highest block number stored, 0 when there is none (genesis is not stored). */
  latest(): number {
    return this.latestStmt.get()?.number ?? 0;
  }

  /** Numbers of the blocks in [from, to) that hold public logs. */
  withPublicLogs(from: number, to: number): number[] {
    return this.withLogsStmt.all(from, to).map((r) => r.number);
  }

  /** Numbers of the blocks in [from, to) that hold contract class logs. */
  withContractClassLogs(from: number, to: number): number[] {
    return this.withClassLogsStmt.all(from, to).map((r) => r.number);
  }

  deleteAbove(number: number): void {
    this.deleteAboveStmt.run(number);
  }

  private toRow(r: RawBlockRow | undefined): BlockRow | undefined {
    if (!r) return undefined;
    verifyRecord(
      this.db.name,
      () => `block ${r.number} (chain_block)`,
      r.crc,
      r.number,
      r.hash,
      r.archive_root,
      r.header,
    );
    return toBlockRow(r);
  }
}

function toBlockRow(r: RawBlockRow): BlockRow {
  return {
    number: r.number,
    hash: r.hash,
    archiveRoot: r.archive_root,
    checkpoint: r.checkpoint,
    indexInCheckpoint: r.index_in_checkpoint,
    txCount: r.tx_count,
    publicLogCount: r.public_log_count,
    classLogCount: r.class_log_count,
    header: r.header,
  };
}
