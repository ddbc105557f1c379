import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';

/** A block's txs are ids block * TX_ID_SPAN + index: one rowid range per block. */
export const TX_ID_SPAN = 2 ** 20;

/** Where a tx sits in the chain. */
export interface TxLocation {
  readonly blockNumber: number;
  readonly txIndex: number;
}

export function txId(blockNumber: number, txIndex: number): number {
  return blockNumber * TX_ID_SPAN + txIndex;
}

/** chain_tx: tx effects (binary) by block position and by tx hash. */
export class TxEffectRepository {
  private readonly insertStmt: Statement<[number, Buffer, Buffer]>;
  private readonly byId: Statement<[number], { effect: Buffer }>;
  private readonly byHash: Statement<[Buffer], { id: number; effect: Buffer }>;
  private readonly idByHash: Statement<[Buffer], { id: number }>;
  private readonly ofBlocks: Statement<[number, number], { id: number; effect: Buffer }>;
  private readonly deleteFromStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = db.prepare('INSERT INTO chain_tx (id, hash, effect) VALUES (?, ?, ?)');
    this.byId = db.prepare('SELECT effect FROM chain_tx WHERE id = ?');
    this.byHash = db.prepare('SELECT id, effect FROM chain_tx WHERE hash = ? ORDER BY id LIMIT 1');
    this.idByHash = db.prepare('SELECT id FROM chain_tx WHERE hash = ? ORDER BY id LIMIT 1');
    this.ofBlocks = db.prepare('SELECT id, effect FROM chain_tx WHERE id >= ? AND id < ? ORDER BY id');
    this.deleteFromStmt = db.prepare('DELETE FROM chain_tx WHERE id >= ?');
  }

  insert(blockNumber: number, txIndex: number, hash: Buffer, effect: Buffer): void {
    this.insertStmt.run(txId(blockNumber, txIndex), hash, effect);
  }

  get(blockNumber: number, txIndex: number): Buffer | undefined {
    return this.byId.get(txId(blockNumber, txIndex))?.effect;
  }

  getByHash(hash: Buffer): { location: TxLocation; effect: Buffer } | undefined {
    const row = this.byHash.get(hash);
    return row ? { location: location(row.id), effect: row.effect } : undefined;
  }

  locate(hash: Buffer): TxLocation | undefined {
    const row = this.idByHash.get(hash);
    return row ? location(row.id) : undefined;
  }

  /** Effects of the blocks in [from, to), in chain order. */
  *ofBlockRange(from: number, to: number): IterableIterator<{ location: TxLocation; effect: Buffer }> {
    for (const row of this.ofBlocks.iterate(txId(from, 0), txId(to, 0))) {
      yield { location: location(row.id), effect: row.effect };
    }
  }

  /** Effects of one block, in order. */
  ofBlock(blockNumber: number): Buffer[] {
    return this.ofBlocks.all(txId(blockNumber, 0), txId(blockNumber + 1, 0)).map((r) => r.effect);
  }

  deleteAbove(blockNumber: number): void {
    this.deleteFromStmt.run(txId(blockNumber + 1, 0));
  }
}

function location(id: number): TxLocation {
  return { blockNumber: Math.floor(id / TX_ID_SPAN), txIndex: id % TX_ID_SPAN };
}
