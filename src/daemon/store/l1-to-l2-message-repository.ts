import type { Statement } from 'better-sqlite3';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/** An L1-to-L2 message that entered the message tree. */
export interface L1ToL2MessageRow {
  /** Leaf index in the L1-to-L2 message tree. */
  readonly index: bigint;
  readonly checkpoint: number;
  /** The block that inserted it: the first block of its checkpoint. */
  readonly blockNumber: number;
}

/** chain_l1_to_l2_message: messages that entered the tree, by leaf index and by message. */
export class L1ToL2MessageRepository {
  private readonly insertStmt: Statement<[number, Buffer, number, number]>;
  private readonly byLeaf: Statement<[Buffer], { idx: number; checkpoint: number; block: number }>;
  private readonly deleteAboveStmt: Statement<[number]>;
  private readonly rangeStmt: Statement<[number, number], { idx: number; leaf: Buffer }>;
  private readonly allStmt: Statement<[], { idx: number; leaf: Buffer; block: number }>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT INTO chain_l1_to_l2_message (idx, leaf, checkpoint, block) VALUES (?, ?, ?, ?)',
    );
    this.byLeaf = statementOnFirstUse(
      db,
      'SELECT idx, checkpoint, block FROM chain_l1_to_l2_message WHERE leaf = ? ORDER BY idx LIMIT 1',
    );
    this.deleteAboveStmt = statementOnFirstUse(db, 'DELETE FROM chain_l1_to_l2_message WHERE block > ?');
    this.allStmt = statementOnFirstUse(db, 'SELECT idx, leaf, block FROM chain_l1_to_l2_message ORDER BY idx');
    this.rangeStmt = statementOnFirstUse(
      db,
      'SELECT idx, leaf FROM chain_l1_to_l2_message WHERE idx >= ? AND idx < ? ORDER BY idx',
    );
  }

  insert(index: number, leaf: bigint, checkpoint: number, blockNumber: number): void {
    this.insertStmt.run(index, bigIntToBuffer32(leaf), checkpoint, blockNumber);
  }

  /** The first occurrence of a message in the tree. */
  find(leaf: bigint): L1ToL2MessageRow | undefined {
    const row = this.byLeaf.get(bigIntToBuffer32(leaf));
    return row ? { index: BigInt(row.idx), checkpoint: row.checkpoint, blockNumber: row.block } : undefined;
  }

  /**
   * The leaves of tree positions [start, end) up to the last message among them, zeros where no message is
   * (empty when there is none): a checkpoint's message list as its first block inserted it.
   */
  leavesInRange(start: number, end: number): bigint[] {
    const rows = this.rangeStmt.all(start, end);
    const last = rows.at(-1);
    if (!last) return [];
    const leaves = new Array<bigint>(last.idx - start + 1).fill(0n);
    for (const r of rows) leaves[r.idx - start] = readField32(r.leaf);
    return leaves;
  }

  /** Every stored message: tree leaf index, leaf and the block that inserted it (`l2node db check --full`). */
  *leavesWithBlocks(): IterableIterator<{ index: number; leaf: bigint; block: number }> {
    for (const r of this.allStmt.iterate()) yield { index: r.idx, leaf: readField32(r.leaf, 0), block: r.block };
  }

  deleteAbove(blockNumber: number): void {
    this.deleteAboveStmt.run(blockNumber);
  }
}
