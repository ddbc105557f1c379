import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * Per-record checksums (docs/architecture.md section 4.12): every record the node builds on or serves carries a
 * CRC-32 of its key and its bytes, written in the same statement as the record and checked on every read, so a
 * byte changed on disk (or by hand) is found before it is served or built on. The key is mixed in so a record
 * moved to another key fails too. CRC-32 (zlib's, in Node itself) detects every burst of up to 32 bits and any
 * other damage but one in 2^32; it is no defence against a deliberate forger, which is what `l2node db check
 * --full` (every commitment recomputed) is for.
 */
export function recordChecksum(key: number, ...parts: readonly Buffer[]): number {
  // Keys reach 2^52 (tree * 2^48 + ...): both 32-bit halves seed the sum.
  let sum = ((key % 0x1_0000_0000) ^ Math.floor(key / 0x1_0000_0000)) >>> 0;
  // An empty part adds nothing, and is skipped: zlib.crc32 answers 0, not the running sum, for the empty
  // Buffer better-sqlite3 reads back from a zero-length BLOB (a pruned tx effect), unlike for Buffer.alloc(0).
  for (const part of parts) if (part.length > 0) sum = crc32(part, sum);
  return sum;
}

/** The checksum as the 4 bytes the world-state tables store (concatenated to the value in batched reads). */
export function checksumBytes(sum: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(sum, 0);
  return b;
}

/**
 * A stored record that fails its checksum (or cannot be decoded): the data directory holds damaged bytes. The
 * node answers it as DATA_DAMAGED, stops producing blocks, and names the check to run.
 */
export class StoredDataDamagedError extends Error {
  override name = 'StoredDataDamagedError';
  readonly dataDirectory: string;

  constructor(
    /** The database file (better-sqlite3's `db.name`). */
    databaseFile: string,
    /** What was read: table and key, e.g. `tx effect 3:0 (chain_tx)`. */
    readonly record: string,
  ) {
    const dataDirectory =
      databaseFile === ':memory:' || databaseFile === '' ? 'the in-memory database' : dirname(databaseFile);
    super(
      `stored data is damaged: ${record} fails its checksum in the data directory ${dataDirectory}; the node serves none of it and builds no block on it. Stop the node and run \`l2node db check --full --data-directory ${dataDirectory}\` (then \`l2node db repair\`)`,
    );
    this.dataDirectory = dataDirectory;
  }
}

/** Throws StoredDataDamagedError unless `stored` is the checksum of `key` and `parts`. */
export function verifyRecord(
  databaseFile: string,
  record: () => string,
  stored: number | null | undefined,
  key: number,
  ...parts: readonly Buffer[]
): void {
  if (stored === null || stored === undefined || stored !== recordChecksum(key, ...parts)) {
    throw new StoredDataDamagedError(databaseFile, record());
  }
}
