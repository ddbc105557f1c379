import type Database from 'better-sqlite3';
import { checksumBytes, recordChecksum } from '../record-checksum.js';

/**
 * Registers `record_checksum(key, part...)` (the integer sum) and `record_checksum_bytes(key, part...)` (its 4
 * bytes) on a connection, so a migration fills the checksum column of existing rows in one UPDATE.
 */
export function registerChecksumFunctions(db: Database.Database): void {
  const sum = (key: unknown, parts: unknown[]) =>
    recordChecksum(Number(key), ...parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.alloc(0))));
  db.function('record_checksum', { deterministic: true, varargs: true }, (key, ...parts) => sum(key, parts));
  db.function('record_checksum_bytes', { deterministic: true, varargs: true }, (key, ...parts) =>
    checksumBytes(sum(key, parts)),
  );
}
