import type { Statement } from 'better-sqlite3';
import { ContractClassPublic } from '../../core/contract/contract-class-public.js';
import { Fr } from '../../core/fr.js';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import type { SqliteDatabase } from './node-database.js';

/**
 * chain_contract_class: classes published through the class registry, by id, with the block that published
 * them. Row data: artifact hash (32 B), private functions root (32 B), packed public bytecode.
 */
export class ContractClassRepository {
  private readonly insertStmt: Statement<[Buffer, number, Buffer]>;
  private readonly byId: Statement<[Buffer], { data: Buffer }>;
  private readonly deleteAboveStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    // The first publication wins: the registry's nullifier makes a second one impossible on a valid chain.
    this.insertStmt = db.prepare('INSERT OR IGNORE INTO chain_contract_class (id, block, data) VALUES (?, ?, ?)');
    this.byId = db.prepare('SELECT data FROM chain_contract_class WHERE id = ?');
    this.deleteAboveStmt = db.prepare('DELETE FROM chain_contract_class WHERE block > ?');
  }

  insert(c: ContractClassPublic, blockNumber: number): void {
    const data = Buffer.concat([c.artifactHash.toBuffer(), c.privateFunctionsRoot.toBuffer(), c.packedBytecode]);
    this.insertStmt.run(c.id.toBuffer(), blockNumber, data);
  }

  get(id: bigint): ContractClassPublic | undefined {
    const row = this.byId.get(bigIntToBuffer32(id));
    if (!row) return undefined;
    return new ContractClassPublic(
      new Fr(id),
      Fr.fromBuffer(row.data, 0),
      Buffer.from(row.data.subarray(64)),
      Fr.fromBuffer(row.data, 32),
    );
  }

  deleteAbove(blockNumber: number): void {
    this.deleteAboveStmt.run(blockNumber);
  }
}
