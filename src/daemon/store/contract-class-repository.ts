import type { Statement } from 'better-sqlite3';
import { ContractClassPublic } from '../../core/contract/contract-class-public.js';
import { Fr } from '../../core/fr.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import type { SqliteDatabase } from './node-database.js';
import { recordChecksum, verifyRecord } from './record-checksum.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/**
 * chain_contract_class: classes published through the class registry, by id, with the block that published
 * them. Row data: artifact hash (32 B), private functions root (32 B), packed public bytecode. Each row
 * carries the checksum of its block, id and data (migration 220), checked on every read.
 */
export class ContractClassRepository {
  private readonly insertStmt: Statement<[Buffer, number, Buffer, number]>;
  private readonly byId: Statement<[Buffer], { block: number; data: Buffer; crc: number | null }>;
  private readonly all: Statement<[], { id: Buffer; block: number; data: Buffer; crc: number | null }>;
  private readonly deleteAboveStmt: Statement<[number]>;

  constructor(private readonly db: SqliteDatabase) {
    // The first publication wins: the registry's nullifier makes a second one impossible on a valid chain.
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO chain_contract_class (id, block, data, crc) VALUES (?, ?, ?, ?)',
    );
    this.byId = statementOnFirstUse(db, 'SELECT block, data, crc FROM chain_contract_class WHERE id = ?');
    this.all = statementOnFirstUse(db, 'SELECT id, block, data, crc FROM chain_contract_class ORDER BY block, id');
    this.deleteAboveStmt = statementOnFirstUse(db, 'DELETE FROM chain_contract_class WHERE block > ?');
  }

  insert(c: ContractClassPublic, blockNumber: number): void {
    const data = Buffer.concat([c.artifactHash.toBuffer(), c.privateFunctionsRoot.toBuffer(), c.packedBytecode]);
    const id = c.id.toBuffer();
    this.insertStmt.run(id, blockNumber, data, recordChecksum(blockNumber, id, data));
  }

  get(id: bigint): ContractClassPublic | undefined {
    const key = bigIntToBuffer32(id);
    const row = this.byId.get(key);
    if (!row) return undefined;
    verifyRecord(
      this.db.name,
      () => `contract class ${key.toString('hex')} of block ${row.block} (chain_contract_class)`,
      row.crc,
      row.block,
      key,
      row.data,
    );
    return decodeClass(id, row.data);
  }

  /**
   * Every stored class with the block that published it (`l2node db check --full`): `damaged` when its row fails
   * its checksum, else the decoded class.
   */
  *everyClass(): IterableIterator<{ id: Buffer; block: number; cls?: ContractClassPublic; damaged: boolean }> {
    for (const row of this.all.iterate()) {
      if (row.crc !== recordChecksum(row.block, row.id, row.data)) {
        yield { id: row.id, block: row.block, damaged: true };
        continue;
      }
      yield { id: row.id, block: row.block, cls: decodeClass(readId(row.id), row.data), damaged: false };
    }
  }

  deleteAbove(blockNumber: number): void {
    this.deleteAboveStmt.run(blockNumber);
  }
}

function readId(id: Buffer): bigint {
  return BigInt(`0x${id.toString('hex')}`);
}

function decodeClass(id: bigint, data: Buffer): ContractClassPublic {
  return new ContractClassPublic(
    new Fr(id),
    Fr.fromBuffer(data, 0),
    Buffer.from(data.subarray(64)),
    Fr.fromBuffer(data, 32),
  );
}
