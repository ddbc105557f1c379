import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';
import { recordChecksum, verifyRecord } from './record-checksum.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

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

interface TxRow {
  id: number;
  hash: Buffer;
  effect: Buffer;
  crc: number | null;
}

/**
 * chain_tx: tx effects (binary) by block position and by tx hash. Each row carries the checksum of its id, hash
 * and effect (migration 220), checked on every read of the effect (docs/architecture.md section 4.12).
 */
export class TxEffectRepository {
  private readonly insertStmt: Statement<[number, Buffer, Buffer, number]>;
  private readonly byId: Statement<[number], TxRow>;
  private readonly byHash: Statement<[Buffer], TxRow>;
  private readonly idByHash: Statement<[Buffer], { id: number }>;
  private readonly ofBlocks: Statement<[number, number], TxRow>;
  private readonly deleteFromStmt: Statement<[number]>;
  private readonly idsOfBlocks: Statement<[number, number], { id: number; hash: Buffer }>;
  private readonly stripStmt: Statement<[number, number]>;

  constructor(private readonly db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(db, 'INSERT INTO chain_tx (id, hash, effect, crc) VALUES (?, ?, ?, ?)');
    this.byId = statementOnFirstUse(db, 'SELECT id, hash, effect, crc FROM chain_tx WHERE id = ?');
    this.byHash = statementOnFirstUse(
      db,
      'SELECT id, hash, effect, crc FROM chain_tx WHERE hash = ? ORDER BY id LIMIT 1',
    );
    this.idByHash = statementOnFirstUse(db, 'SELECT id FROM chain_tx WHERE hash = ? ORDER BY id LIMIT 1');
    this.ofBlocks = statementOnFirstUse(
      db,
      'SELECT id, hash, effect, crc FROM chain_tx WHERE id >= ? AND id < ? ORDER BY id',
    );
    this.deleteFromStmt = statementOnFirstUse(db, 'DELETE FROM chain_tx WHERE id >= ?');
    this.idsOfBlocks = statementOnFirstUse(db, 'SELECT id, hash FROM chain_tx WHERE id >= ? AND id < ? ORDER BY id');
    this.stripStmt = statementOnFirstUse(db, "UPDATE chain_tx SET effect = x'', crc = ? WHERE id = ?");
  }

  insert(blockNumber: number, txIndex: number, hash: Buffer, effect: Buffer): void {
    const id = txId(blockNumber, txIndex);
    this.insertStmt.run(id, hash, effect, recordChecksum(id, hash, effect));
  }

  get(blockNumber: number, txIndex: number): Buffer | undefined {
    const row = this.byId.get(txId(blockNumber, txIndex));
    return row && this.checked(row).effect;
  }

  getByHash(hash: Buffer): { location: TxLocation; effect: Buffer } | undefined {
    const row = this.byHash.get(hash);
    return row ? { location: location(row.id), effect: this.checked(row).effect } : undefined;
  }

  locate(hash: Buffer): TxLocation | undefined {
    const row = this.idByHash.get(hash);
    return row ? location(row.id) : undefined;
  }

  /** Effects of the blocks in [from, to), in chain order. */
  *ofBlockRange(from: number, to: number): IterableIterator<{ location: TxLocation; effect: Buffer }> {
    for (const row of this.ofBlocks.iterate(txId(from, 0), txId(to, 0))) {
      yield { location: location(row.id), effect: this.checked(row).effect };
    }
  }

  /** Effects of one block, in order. */
  ofBlock(blockNumber: number): Buffer[] {
    return this.ofBlocks.all(txId(blockNumber, 0), txId(blockNumber + 1, 0)).map((r) => this.checked(r).effect);
  }

  /** Every effect with its checksum verified (`l2node db check --full`): the damaged ones as well, named. */
  *verifyAll(): IterableIterator<{ location: TxLocation; ok: boolean }> {
    for (const row of this.ofBlocks.iterate(0, Number.MAX_SAFE_INTEGER)) {
      yield { location: location(row.id), ok: row.crc === recordChecksum(row.id, row.hash, row.effect) };
    }
  }

  private checked(row: TxRow): TxRow {
    verifyRecord(
      this.db.name,
      () => {
        const at = location(row.id);
        return `tx effect ${at.txIndex} of block ${at.blockNumber} (chain_tx)`;
      },
      row.crc,
      row.id,
      row.hash,
      row.effect,
    );
    return row;
  }

  /**
   * Block history pruning: the block's effects go, each row keeping its tx hash (so a tx of a pruned block is
   * still located, and answered as pruned rather than unknown) with its checksum over the empty effect.
   */
  stripEffects(blockNumber: number): void {
    for (const { id, hash } of this.idsOfBlocks.all(txId(blockNumber, 0), txId(blockNumber + 1, 0))) {
      this.stripStmt.run(recordChecksum(id, hash, EMPTY), id);
    }
  }

  deleteAbove(blockNumber: number): void {
    this.deleteFromStmt.run(txId(blockNumber + 1, 0));
  }
}

const EMPTY = Buffer.alloc(0);

function location(id: number): TxLocation {
  return { blockNumber: Math.floor(id / TX_ID_SPAN), txIndex: id % TX_ID_SPAN };
}
