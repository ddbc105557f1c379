import type { Statement } from 'better-sqlite3';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { SqliteDatabase } from './node-database.js';

/** A message in the dev L1 inbox: its leaf index in the message tree and the checkpoint it is for. */
export interface InboxMessage {
  readonly index: bigint;
  readonly leaf: bigint;
  readonly checkpoint: number;
}

/**
 * dev_l1_inbox: the L1 inbox stand-in of dev mode. Every message sent, with the leaf index it was given
 * (checkpoint slot by slot, as the Inbox contract assigns them) and the checkpoint whose tree takes it.
 */
export class DevL1InboxRepository {
  private readonly insertStmt: Statement<[number, Buffer, number]>;
  private readonly ofCheckpoint: Statement<[number], { idx: number; leaf: Buffer; checkpoint: number }>;
  private readonly byLeaf: Statement<[Buffer], { idx: number; leaf: Buffer; checkpoint: number }>;
  private readonly maxStmt: Statement<[], { idx: number | null; checkpoint: number | null }>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = db.prepare('INSERT INTO dev_l1_inbox (idx, leaf, checkpoint) VALUES (?, ?, ?)');
    this.ofCheckpoint = db.prepare('SELECT idx, leaf, checkpoint FROM dev_l1_inbox WHERE checkpoint = ? ORDER BY idx');
    this.byLeaf = db.prepare('SELECT idx, leaf, checkpoint FROM dev_l1_inbox WHERE leaf = ? ORDER BY idx LIMIT 1');
    this.maxStmt = db.prepare(
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
