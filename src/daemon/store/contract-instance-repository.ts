import type { Statement } from 'better-sqlite3';
import { AztecAddress } from '../../core/aztec-address.js';
import { ContractInstanceWithAddress } from '../../core/contract/contract-instance-with-address.js';
import type { GrumpkinPoint } from '../../core/contract/grumpkin.js';
import { PublicKeys } from '../../core/contract/public-keys.js';
import { Fr } from '../../core/fr.js';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { SqliteDatabase } from './node-database.js';

/**
 * chain_contract_instance: instances published through the instance registry, by address, with the block
 * that published them. Row data: salt, deployer, current and original class ids, initialization hash, then
 * the four public keys (x, y), 32 bytes each.
 */
export class ContractInstanceRepository {
  private readonly insertStmt: Statement<[Buffer, number, Buffer]>;
  private readonly byAddress: Statement<[Buffer], { data: Buffer }>;
  private readonly deleteAboveStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    // The first publication wins: the registry's nullifier makes a second one impossible on a valid chain.
    this.insertStmt = db.prepare(
      'INSERT OR IGNORE INTO chain_contract_instance (address, block, data) VALUES (?, ?, ?)',
    );
    this.byAddress = db.prepare('SELECT data FROM chain_contract_instance WHERE address = ?');
    this.deleteAboveStmt = db.prepare('DELETE FROM chain_contract_instance WHERE block > ?');
  }

  insert(i: ContractInstanceWithAddress, blockNumber: number): void {
    const values = [
      i.salt.value,
      i.deployer.value,
      i.currentContractClassId.value,
      i.originalContractClassId.value,
      i.initializationHash.value,
      ...i.publicKeys.points.flatMap((p) => [p.x, p.y]),
    ];
    this.insertStmt.run(i.address.toBuffer(), blockNumber, Buffer.concat(values.map(bigIntToBuffer32)));
  }

  get(address: bigint): ContractInstanceWithAddress | undefined {
    const row = this.byAddress.get(bigIntToBuffer32(address));
    if (!row) return undefined;
    const f = (k: number) => readField32(row.data, 32 * k);
    const point = (k: number): GrumpkinPoint => ({ x: f(k), y: f(k + 1), isInfinite: false });
    return new ContractInstanceWithAddress(
      new Fr(f(0)),
      new AztecAddress(f(1)),
      new Fr(f(2)),
      new Fr(f(3)),
      new Fr(f(4)),
      new PublicKeys(point(5), point(7), point(9), point(11)),
      new AztecAddress(address),
    );
  }

  deleteAbove(blockNumber: number): void {
    this.deleteAboveStmt.run(blockNumber);
  }
}
