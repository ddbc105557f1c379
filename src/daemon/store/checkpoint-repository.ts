import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/** Where and when a checkpoint was published on L1 (4.1.2 L1PublishedData). */
export interface L1PublishedData {
  readonly blockNumber: bigint;
  readonly timestamp: bigint;
  /** 0x + 64 hex. */
  readonly blockHash: string;
}

/** One row of chain_checkpoint. */
export interface CheckpointRow {
  readonly number: number;
  readonly firstBlock: number;
  readonly lastBlock: number;
  readonly slot: number;
  /** The 316-byte binary CheckpointHeader. */
  readonly header: Buffer;
  /** Archive root after the checkpoint's last block. */
  readonly archiveRoot: Buffer;
  readonly l1: L1PublishedData;
}

interface Raw {
  number: number;
  first_block: number;
  last_block: number;
  slot: number;
  header: Buffer;
  archive_root: Buffer;
  l1_block_number: number;
  l1_timestamp: number;
  l1_block_hash: Buffer;
}

const COLUMNS =
  'number, first_block, last_block, slot, header, archive_root, l1_block_number, l1_timestamp, l1_block_hash';

/** chain_checkpoint: checkpoints published to L1, by number and by block. */
export class CheckpointRepository {
  private readonly insertStmt: Statement;
  private readonly byNumber: Statement<[number], Raw>;
  private readonly range: Statement<[number, number], Raw>;
  private readonly byBlock: Statement<[number], Raw>;
  private readonly latestStmt: Statement<[], Raw>;
  private readonly upToSlotStmt: Statement<[number], { number: number | null }>;
  private readonly publishedByStmt: Statement<[number], { number: number | null }>;
  private readonly slotRangeStmt: Statement<[number, number], Raw>;
  private readonly deleteStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      `INSERT INTO chain_checkpoint (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.byNumber = statementOnFirstUse(db, `SELECT ${COLUMNS} FROM chain_checkpoint WHERE number = ?`);
    this.range = statementOnFirstUse(
      db,
      `SELECT ${COLUMNS} FROM chain_checkpoint WHERE number >= ? ORDER BY number LIMIT ?`,
    );
    this.byBlock = statementOnFirstUse(
      db,
      `SELECT ${COLUMNS} FROM chain_checkpoint WHERE last_block >= ? ORDER BY number LIMIT 1`,
    );
    this.latestStmt = statementOnFirstUse(db, `SELECT ${COLUMNS} FROM chain_checkpoint ORDER BY number DESC LIMIT 1`);
    this.upToSlotStmt = statementOnFirstUse(db, 'SELECT max(number) AS number FROM chain_checkpoint WHERE slot <= ?');
    this.publishedByStmt = statementOnFirstUse(
      db,
      'SELECT max(number) AS number FROM chain_checkpoint WHERE l1_timestamp <= ?',
    );
    this.slotRangeStmt = statementOnFirstUse(
      db,
      `SELECT ${COLUMNS} FROM chain_checkpoint WHERE slot >= ? AND slot < ? ORDER BY number`,
    );
    this.deleteStmt = statementOnFirstUse(db, 'DELETE FROM chain_checkpoint WHERE last_block > ?');
  }

  insert(r: CheckpointRow): void {
    this.insertStmt.run(
      r.number,
      r.firstBlock,
      r.lastBlock,
      r.slot,
      r.header,
      r.archiveRoot,
      r.l1.blockNumber,
      r.l1.timestamp,
      Buffer.from(r.l1.blockHash.slice(2), 'hex'),
    );
  }

  get(number: number): CheckpointRow | undefined {
    return toRow(this.byNumber.get(number));
  }

  /** Up to `limit` checkpoints from `from`, in order. */
  getRange(from: number, limit: number): CheckpointRow[] {
    return this.range.all(from, limit).map((r) => toRow(r) as CheckpointRow);
  }

  /** The checkpoint holding a block, if it has been published. */
  containing(blockNumber: number): CheckpointRow | undefined {
    const row = toRow(this.byBlock.get(blockNumber));
    return row && row.firstBlock <= blockNumber ? row : undefined;
  }

  latest(): CheckpointRow | undefined {
    return toRow(this.latestStmt.get());
  }

  /** The highest checkpoint published for a slot at or before `slot`; 0 when none. */
  latestUpToSlot(slot: number): number {
    return this.upToSlotStmt.get(slot)?.number ?? 0;
  }

  /** The highest checkpoint published to L1 at or before `timestamp` (Unix seconds); 0 when none. */
  latestPublishedBy(timestamp: number): number {
    return this.publishedByStmt.get(timestamp)?.number ?? 0;
  }

  /** Checkpoints of slots in [fromSlot, toSlot), in order. */
  inSlotRange(fromSlot: number, toSlot: number): CheckpointRow[] {
    return this.slotRangeStmt.all(fromSlot, toSlot).map((r) => toRow(r) as CheckpointRow);
  }

  /** Drops the checkpoints that end above a block (they lost blocks in an unwind). */
  deleteEndingAbove(blockNumber: number): void {
    this.deleteStmt.run(blockNumber);
  }
}

function toRow(r: Raw | undefined): CheckpointRow | undefined {
  if (!r) return undefined;
  return {
    number: r.number,
    firstBlock: r.first_block,
    lastBlock: r.last_block,
    slot: r.slot,
    header: r.header,
    archiveRoot: r.archive_root,
    l1: {
      blockNumber: BigInt(r.l1_block_number),
      timestamp: BigInt(r.l1_timestamp),
      blockHash: `0x${r.l1_block_hash.toString('hex')}`,
    },
  };
}
