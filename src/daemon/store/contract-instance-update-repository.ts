import type { Statement } from 'better-sqlite3';
import type { ContractInstanceUpdatedEvent } from '../../core/contract/contract-instance-updated-event.js';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/** Where an update was published: the block (and its timestamp) and its position among the block's updates. */
export interface UpdatePosition {
  readonly blockNumber: number;
  readonly blockTimestamp: bigint;
  readonly position: number;
}

/**
 * chain_contract_instance_update: contract upgrades scheduled through the instance registry, by address, in the
 * order 4.1.2's archiver keeps them (publishing block's timestamp, block, position).
 */
export class ContractInstanceUpdateRepository {
  private readonly insertStmt: Statement<[Buffer, number, number, number, Buffer, Buffer, number]>;
  private readonly latestStmt: Statement<
    [Buffer, number],
    { prev_class_id: Buffer; new_class_id: Buffer; timestamp_of_change: number }
  >;
  private readonly deleteAboveStmt: Statement<[number]>;

  constructor(db: SqliteDatabase) {
    this.insertStmt = statementOnFirstUse(
      db,
      'INSERT OR REPLACE INTO chain_contract_instance_update (address, block_timestamp, block, position, prev_class_id, new_class_id, timestamp_of_change) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.latestStmt = statementOnFirstUse(
      db,
      'SELECT prev_class_id, new_class_id, timestamp_of_change FROM chain_contract_instance_update WHERE address = ? AND block_timestamp <= ? ORDER BY block_timestamp DESC, block DESC, position DESC LIMIT 1',
    );
    this.deleteAboveStmt = statementOnFirstUse(db, 'DELETE FROM chain_contract_instance_update WHERE block > ?');
  }

  insert(e: ContractInstanceUpdatedEvent, at: UpdatePosition): void {
    this.insertStmt.run(
      e.address.toBuffer(),
      safeNumber(at.blockTimestamp, 'block timestamp'),
      at.blockNumber,
      at.position,
      bigIntToBuffer32(e.prevContractClassId),
      bigIntToBuffer32(e.newContractClassId),
      Number(e.timestampOfChange),
    );
  }

  /**
   * The class an instance runs at `timestamp` (4.1.2 archiver rule): the latest update published at or before
   * it decides; before its timestamp of change the previous class holds (0 meaning the original), from it on the
   * new one. No update: the original class.
   */
  currentClassId(address: bigint, timestamp: bigint, originalClassId: bigint): bigint {
    const ts = timestamp > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(timestamp);
    const row = this.latestStmt.get(bigIntToBuffer32(address), ts);
    if (!row) return originalClassId;
    if (timestamp < BigInt(row.timestamp_of_change)) {
      const prev = readField32(row.prev_class_id, 0);
      return prev === 0n ? originalClassId : prev;
    }
    return readField32(row.new_class_id, 0);
  }

  deleteAbove(blockNumber: number): void {
    this.deleteAboveStmt.run(blockNumber);
  }
}

function safeNumber(v: bigint, what: string): number {
  if (v < 0n || v > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${what} ${v} is out of range`);
  return Number(v);
}
