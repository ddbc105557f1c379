import type { Statement } from 'better-sqlite3';
import { AztecAddress } from '../../core/aztec-address.js';
import { ContractInstanceWithAddress } from '../../core/contract/contract-instance-with-address.js';
import type { GrumpkinPoint } from '../../core/contract/grumpkin.js';
import { PublicKeys } from '../../core/contract/public-keys.js';
import { Fr } from '../../core/fr.js';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { SqliteDatabase } from './node-database.js';
import { recordChecksum, verifyRecord } from './record-checksum.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/**
 * chain_contract_instance: instances published through the instance registry, by address, with the block
 * that published them. Row data: salt, deployer, current and original class ids, initialization hash, then
 * the four public keys (x, y), 32 bytes each. Each row carries the checksum of its block, address and data
 * (migration 220), checked on every read.
 */
export class ContractInstanceRepository {
  private readonly insertStmt: Statement<[Buffer, number, Buffer, number]>;
  private readonly byAddress: Statement<[Buffer], { block: number; data: Buffer; crc: number | null }>;
  private readonly all: Statement<[], { address: Buffer; block: number; data: Buffer; crc: number | null }>;
  private readonly deleteAboveStmt: Statement<[number]>;

  constructor(private readonly db: SqliteDatabase) {
    // The first publication wins: the registry's nullifier makes a second one impossible on a valid chain.
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT OR IGNORE INTO chain_contract_instance (address, block, data, crc) VALUES (?, ?, ?, ?)',
    );
    this.byAddress = statementOnFirstUse(db, 'SELECT block, data, crc FROM chain_contract_instance WHERE address = ?');
    this.all = statementOnFirstUse(
      db,
      'SELECT address, block, data, crc FROM chain_contract_instance ORDER BY block, address',
    );
    this.deleteAboveStmt = statementOnFirstUse(db, 'DELETE FROM chain_contract_instance WHERE block > ?');
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
    const key = i.address.toBuffer();
    const data = Buffer.concat(values.map(bigIntToBuffer32));
    this.insertStmt.run(key, blockNumber, data, recordChecksum(blockNumber, key, data));
  }

  get(address: bigint): ContractInstanceWithAddress | undefined {
    const key = bigIntToBuffer32(address);
    const row = this.byAddress.get(key);
    if (!row) return undefined;
    verifyRecord(
      this.db.name,
      () => `contract instance ${key.toString('hex')} of block ${row.block} (chain_contract_instance)`,
      row.crc,
      row.block,
      key,
      row.data,
    );
    return decodeInstance(address, row.data);
  }

  /**
   * Every stored instance with the block that published it (`l2node db check --full`): `damaged` when its row
   * fails its checksum, else the decoded instance.
   */
  *everyInstance(): IterableIterator<{
    address: Buffer;
    block: number;
    instance?: ContractInstanceWithAddress;
    damaged: boolean;
  }> {
    for (const row of this.all.iterate()) {
      if (row.crc !== recordChecksum(row.block, row.address, row.data)) {
        yield { address: row.address, block: row.block, damaged: true };
        continue;
      }
      const address = readField32(row.address, 0);
      yield { address: row.address, block: row.block, instance: decodeInstance(address, row.data), damaged: false };
    }
  }

  deleteAbove(blockNumber: number): void {
    this.deleteAboveStmt.run(blockNumber);
  }
}

function decodeInstance(address: bigint, data: Buffer): ContractInstanceWithAddress {
  const f = (k: number) => readField32(data, 32 * k);
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
