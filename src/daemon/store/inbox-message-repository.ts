import type { Statement } from 'better-sqlite3';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/** A message of the L1 Inbox: its leaf index in the message tree and the checkpoint it is for. */
export interface InboxMessage {
  readonly index: bigint;
  readonly leaf: bigint;
  readonly checkpoint: number;
}

/**
 * dev_l1_inbox (its name from when only the dev stand-in had an inbox): the L1 Inbox's messages as the node knows
 * them. In dev mode the stand-in's own (DevL1 assigns their indexes as the Inbox contract does); on a real L1 the
 * Inbox's `MessageSent` events as read (L1Settlement). Each with its leaf index and the checkpoint whose tree takes it.
 */
export class InboxMessageRepository {
  private readonly insertStmt: Statement<[number, Buffer, number]>;
  private readonly ofCheckpoint: Statement<[number], { idx: number; leaf: Buffer; checkpoint: number }>;
  private readonly byLeaf: Statement<[Buffer], { idx: number; leaf: Buffer; checkpoint: number }>;
  private readonly allStmt: Statement<[], { idx: number; leaf: Buffer; checkpoint: number }>;
  private readonly clearStmt: Statement<[]>;
  private readonly countStmt: Statement<[], { n: number }>;
  private readonly maxStmt: Statement<[], { idx: number | null; checkpoint: number | null }>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(db, 'INSERT INTO dev_l1_inbox (idx, leaf, checkpoint) VALUES (?, ?, ?)');
    this.ofCheckpoint = statementOnFirstUse(
      db,
      'SELECT idx, leaf, checkpoint FROM dev_l1_inbox WHERE checkpoint = ? ORDER BY idx',
    );
    this.byLeaf = statementOnFirstUse(
      db,
      'SELECT idx, leaf, checkpoint FROM dev_l1_inbox WHERE leaf = ? ORDER BY idx LIMIT 1',
    );
    this.allStmt = statementOnFirstUse(db, 'SELECT idx, leaf, checkpoint FROM dev_l1_inbox ORDER BY idx');
    this.clearStmt = statementOnFirstUse(db, 'DELETE FROM dev_l1_inbox');
    this.countStmt = statementOnFirstUse(db, 'SELECT count(*) AS n FROM dev_l1_inbox');
    this.maxStmt = statementOnFirstUse(
      db,
      'SELECT idx, checkpoint FROM dev_l1_inbox WHERE idx = (SELECT max(idx) FROM dev_l1_inbox)',
    );
  }

  insert(m: InboxMessage): void {
    this.insertStmt.run(Number(m.index), bigIntToBuffer32(m.leaf), m.checkpoint);
  }

  /** The messages of a checkpoint, in leaf order. */
  forCheckpoint(checkpoint: number): InboxMessage[] {
    return this.ofCheckpoint.all(checkpoint).map(toMessage);
  }

  find(leaf: bigint): InboxMessage | undefined {
    const row = this.byLeaf.get(bigIntToBuffer32(leaf));
    return row ? toMessage(row) : undefined;
  }

  /** Every message, in leaf order (the L1 Inbox's rolling hash is over them in this order). */
  all(): InboxMessage[] {
    return this.allStmt.all().map(toMessage);
  }

  count(): number {
    return this.countStmt.get()?.n ?? 0;
  }

  /** Forgets every message (an L1 reorg changed the Inbox: they are read again). */
  clear(): void {
    this.clearStmt.run();
  }

  /** Leaf index and checkpoint of the last message sent, if any. */
  lastPosition(): { index: bigint; checkpoint: number } | undefined {
    const row = this.maxStmt.get();
    return row && row.idx !== null && row.checkpoint !== null
      ? { index: BigInt(row.idx), checkpoint: row.checkpoint }
      : undefined;
  }
}

function toMessage(r: { idx: number; leaf: Buffer; checkpoint: number }): InboxMessage {
  return { index: BigInt(r.idx), leaf: readField32(r.leaf), checkpoint: r.checkpoint };
}
