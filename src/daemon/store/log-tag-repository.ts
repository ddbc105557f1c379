import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/** Which log list a tag index entry points into. */
export type TaggedLogKind = 'private' | 'public';

/** A tagged log's place: block, tx within the block, kind and index within the tx's list of that kind. */
export interface TaggedLogPosition {
  readonly blockNumber: number;
  readonly txIndex: number;
  readonly kind: TaggedLogKind;
  readonly logIndex: number;
}

/** A tx has at most 2048 public logs (4096 payload fields, 2 of header each) and 64 private ones. */
const TX_SPAN = 2048;
const KIND = { private: 0, public: 1 } as const;

interface Raw {
  kind: number;
  block: number;
  position: number;
}

/**
 * chain_log_tag: the tag index over private and public logs. The key (tag, kind, block, position) keeps
 * one tag's logs of one kind in chain order, so a page of them is one index range read.
 */
export class LogTagRepository {
  private readonly insertStmt: Statement<[Buffer, number, number, number]>;
  private readonly deleteStmt: Statement<[Buffer, number, number, number]>;
  private readonly byTagKind: Statement<[Buffer, number, number, number], Raw>;
  private readonly byTagKindAll: Statement<[Buffer, number], Raw>;
  private readonly byTag: Statement<[Buffer, number, number], Raw>;
  private readonly hasStmt: Statement<[Buffer, number, number, number]>;
  private readonly countStmt: Statement<[]>;
  private readonly clearStmt: Statement<[]>;
  private readonly deleteBlockStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO chain_log_tag (tag, kind, block, position) VALUES (?, ?, ?, ?)',
    );
    this.deleteStmt = statementOnFirstUse(
      db,
      'DELETE FROM chain_log_tag WHERE tag = ? AND kind = ? AND block = ? AND position = ?',
    );
    this.hasStmt = statementOnFirstUse(
      db,
      'SELECT 1 FROM chain_log_tag WHERE tag = ? AND kind = ? AND block = ? AND position = ?',
    );
    this.countStmt = statementOnFirstUse(db, 'SELECT COUNT(*) FROM chain_log_tag').pluck();
    this.clearStmt = statementOnFirstUse(db, 'DELETE FROM chain_log_tag');
    this.deleteBlockStmt = statementOnFirstUse(db, 'DELETE FROM chain_log_tag WHERE block = ?');
    const cols = 'SELECT kind, block, position FROM chain_log_tag';
    this.byTagKind = statementOnFirstUse(
      db,
      `${cols} WHERE tag = ? AND kind = ? ORDER BY block, position LIMIT ? OFFSET ?`,
    );
    this.byTagKindAll = statementOnFirstUse(db, `${cols} WHERE tag = ? AND kind = ? ORDER BY block, position`);
    this.byTag = statementOnFirstUse(
      db,
      `${cols} WHERE tag = ? ORDER BY block, position / ${TX_SPAN}, kind, position LIMIT ? OFFSET ?`,
    );
  }

  has(tag: Buffer, p: TaggedLogPosition): boolean {
    return this.hasStmt.get(tag, KIND[p.kind], p.blockNumber, encode(p)) !== undefined;
  }

  clear(): void {
    this.clearStmt.run();
  }

  count(): number {
    return this.countStmt.get() as number;
  }

  /** Every entry of one block, without knowing its tags: a scan of the index (for a damaged block only). */
  deleteBlock(blockNumber: number): void {
    this.deleteBlockStmt.run(blockNumber);
  }

  insert(tag: Buffer, p: TaggedLogPosition): void {
    this.insertStmt.run(tag, KIND[p.kind], p.blockNumber, encode(p));
  }

  delete(tag: Buffer, p: TaggedLogPosition): void {
    this.deleteStmt.run(tag, KIND[p.kind], p.blockNumber, encode(p));
  }

  /** A tag's logs of one kind in chain order: `limit` of them after skipping `offset`. */
  find(tag: Buffer, kind: TaggedLogKind, limit: number, offset = 0): TaggedLogPosition[] {
    return this.byTagKind.all(tag, KIND[kind], limit, offset).map(decode);
  }

  /** Every log of one kind with a tag, in chain order, read lazily (for filters the index cannot apply). */
  *iterate(tag: Buffer, kind: TaggedLogKind): IterableIterator<TaggedLogPosition> {
    for (const r of this.byTagKindAll.iterate(tag, KIND[kind])) yield decode(r);
  }

  /** A tag's logs of both kinds in chain order (private before public within a tx). */
  findAnyKind(tag: Buffer, limit: number, offset = 0): TaggedLogPosition[] {
    return this.byTag.all(tag, limit, offset).map(decode);
  }
}

function encode(p: TaggedLogPosition): number {
  if (p.logIndex >= TX_SPAN) throw new RangeError(`Log index ${p.logIndex} does not fit the tag index`);
  return p.txIndex * TX_SPAN + p.logIndex;
}

function decode(r: Raw): TaggedLogPosition {
  return {
    blockNumber: r.block,
    txIndex: Math.floor(r.position / TX_SPAN),
    kind: r.kind === KIND.public ? 'public' : 'private',
    logIndex: r.position % TX_SPAN,
  };
}
