import type { SqliteDatabase } from './node-database.js';

/** Rows and bytes of one table (bytes null when SQLite has no dbstat table). */
export interface TableStats {
  name: string;
  rows: number;
  bytes: number | null;
}

/** What `l2node db stats` reports of the database itself: pages, schema, tips, pool size, tables. */
export interface DatabaseStats {
  readonly pageSize: number;
  readonly pageCount: number;
  readonly freePages: number;
  readonly schemaVersion: number;
  readonly chain: { latestBlock: number | null; checkpoints: number | null; txs: number | null };
  /**
   * Block history pruning (--block-body-history-blocks): the oldest block whose body (tx effects, logs) is kept,
   * and how many blocks' bodies were pruned (headers and the archive of every block stay).
   */
  readonly bodies: { oldestBlockWithBody: number | null; prunedBlocks: number | null };
  readonly worldState: { latestBlock: number | null };
  readonly mempool: { pending: number | null; mined: number | null; dropped: number | null };
  readonly tables: TableStats[];
}

/**
 * Reads the statistics in one read transaction (one snapshot, even while a node writes). A figure whose table
 * is missing (a database from before its migration) is null.
 */
export function readDatabaseStats(db: SqliteDatabase): DatabaseStats {
  return db.transaction((): DatabaseStats => {
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    let bytes = new Map<string, number>();
    try {
      const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
        name: string;
        bytes: number;
      }[];
      bytes = new Map(rows.map((r) => [r.name, r.bytes]));
    } catch {
      // SQLite built without the dbstat table: sizes per table are left out.
    }
    const tables: TableStats[] = names.map((name) => ({
      name,
      rows: db
        .prepare(`SELECT COUNT(*) FROM "${name.replaceAll('"', '""')}"`)
        .pluck()
        .get() as number,
      bytes: bytes.get(name) ?? null,
    }));
    const scalar = (sql: string): number | null => {
      try {
        return (db.prepare(sql).pluck().get() as number | null) ?? null;
      } catch {
        return null;
      }
    };
    return {
      pageSize: db.pragma('page_size', { simple: true }) as number,
      pageCount: db.pragma('page_count', { simple: true }) as number,
      freePages: db.pragma('freelist_count', { simple: true }) as number,
      schemaVersion: db.pragma('user_version', { simple: true }) as number,
      chain: {
        latestBlock: scalar('SELECT COALESCE(MAX(number), 0) FROM chain_block'),
        checkpoints: scalar('SELECT COUNT(*) FROM chain_checkpoint'),
        txs: scalar('SELECT COUNT(*) FROM chain_tx'),
      },
      bodies: bodyStats(scalar("SELECT COALESCE(MAX(value), 0) FROM chain_meta WHERE name = 'bodiesPrunedThrough'")),
      worldState: { latestBlock: scalar('SELECT MAX(block) FROM ws_block') },
      mempool: {
        pending: scalar('SELECT COUNT(*) FROM mempool_tx WHERE mined_block IS NULL'),
        mined: scalar('SELECT COUNT(*) FROM mempool_tx WHERE mined_block IS NOT NULL'),
        dropped: scalar('SELECT COUNT(*) FROM mempool_dropped'),
      },
      tables,
    };
  })();
}

function bodyStats(prunedThrough: number | null): DatabaseStats['bodies'] {
  return prunedThrough === null
    ? { oldestBlockWithBody: null, prunedBlocks: null }
    : { oldestBlockWithBody: prunedThrough + 1, prunedBlocks: prunedThrough };
}
