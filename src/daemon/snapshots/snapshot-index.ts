/**
 * The index.json of a snapshot location, as 4.1.2 writes it (docs/aztec-facts.md section 6.2): the chain it belongs to
 * and the snapshots it holds, newest first. l2node keeps one database, so each snapshot has one data file
 * (`dataUrls.database`), and it records what a node needs to tell whether it can start from it.
 */
export interface SnapshotIndex {
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  readonly rollupAddress: string;
  readonly snapshots: readonly SnapshotEntry[];
}

export interface SnapshotEntry {
  readonly l2BlockNumber: number;
  readonly l2BlockHash: string;
  /** L1 block of the latest checkpoint in the snapshot (0 when none was published). */
  readonly l1BlockNumber: number;
  /** When it was taken, ms since the epoch. */
  readonly timestamp: number;
  /** The database's schema: its highest step and every step applied (a node must know them all). */
  readonly schemaVersions: { readonly database: number; readonly migrations: readonly number[] };
  /** The chain's genesis block hash (another genesis is another chain). */
  readonly genesisBlockHash: string;
  readonly dataUrls: { readonly database: string };
  /** SHA-256 (hex) and size of the compressed data file, checked after download. */
  readonly sha256: { readonly database: string };
  readonly sizes: { readonly database: number };
}

export class SnapshotIndexError extends Error {
  override name = 'SnapshotIndexError';
}

/** The folder of a chain's snapshots inside a location (4.1.2's `aztec-<chain>-<version>-<rollup>`). */
export function snapshotFolder(l1ChainId: number, rollupVersion: number): string {
  return `l2node-${l1ChainId}-${rollupVersion}`;
}

/** Reads an index.json, checking every field a node relies on; throws SnapshotIndexError naming the first bad one. */
export function parseSnapshotIndex(text: string, source: string): SnapshotIndex {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SnapshotIndexError(`${source} is not JSON: ${(err as Error).message}`);
  }
  const at = (path: string) => `${source}: ${path}`;
  const o = object(json, at('the index'));
  const snapshots = o.snapshots;
  if (!Array.isArray(snapshots)) throw new SnapshotIndexError(`${at('snapshots')} must be an array`);
  return {
    l1ChainId: integer(o.l1ChainId, at('l1ChainId')),
    rollupVersion: integer(o.rollupVersion, at('rollupVersion')),
    rollupAddress: string(o.rollupAddress, at('rollupAddress')),
    snapshots: snapshots.map((s, i) => {
      const e = object(s, at(`snapshots[${i}]`));
      const schema = object(e.schemaVersions, at(`snapshots[${i}].schemaVersions`));
      const migrations = schema.migrations;
      if (!Array.isArray(migrations)) {
        throw new SnapshotIndexError(`${at(`snapshots[${i}].schemaVersions.migrations`)} must be an array`);
      }
      return {
        l2BlockNumber: integer(e.l2BlockNumber, at(`snapshots[${i}].l2BlockNumber`)),
        l2BlockHash: hex32(e.l2BlockHash, at(`snapshots[${i}].l2BlockHash`)),
        l1BlockNumber: integer(e.l1BlockNumber, at(`snapshots[${i}].l1BlockNumber`)),
        timestamp: integer(e.timestamp, at(`snapshots[${i}].timestamp`)),
        schemaVersions: {
          database: integer(schema.database, at(`snapshots[${i}].schemaVersions.database`)),
          migrations: migrations.map((m, k) => integer(m, at(`snapshots[${i}].schemaVersions.migrations[${k}]`))),
        },
        genesisBlockHash: hex32(e.genesisBlockHash, at(`snapshots[${i}].genesisBlockHash`)),
        dataUrls: { database: string(object(e.dataUrls, at(`snapshots[${i}].dataUrls`)).database, at('dataUrls')) },
        sha256: { database: string(object(e.sha256, at(`snapshots[${i}].sha256`)).database, at('sha256')) },
        sizes: { database: integer(object(e.sizes, at(`snapshots[${i}].sizes`)).database, at('sizes')) },
      };
    }),
  };
}

function object(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new SnapshotIndexError(`${what} must be an object`);
  return v as Record<string, unknown>;
}

function integer(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new SnapshotIndexError(`${what} must be a non-negative integer`);
  }
  return v;
}

function string(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.length === 0) throw new SnapshotIndexError(`${what} must be a non-empty string`);
  return v;
}

function hex32(v: unknown, what: string): string {
  if (typeof v !== 'string' || !/^0x[0-9a-f]{64}$/.test(v)) {
    throw new SnapshotIndexError(`${what} must be 0x + 64 lowercase hex digits`);
  }
  return v;
}
