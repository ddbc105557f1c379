import { BaseCommand } from '../_lib/base-command.js';
import { keyValues, table } from '../_lib/human-format.js';
import { dataDirectoryFlag, fileSize, openDatabaseReadOnly } from '../_lib/offline-database.js';

interface TableStats {
  name: string;
  rows: number;
  bytes: number | null;
}

export default class DbStats extends BaseCommand {
  static override summary = 'Show the size of the node database, its tables and where its chain stands (offline).';
  static override description =
    'Opens <data-directory>/l2node.sqlite read-only (a running node is not disturbed) and reports file sizes, ' +
    'schema version, rows and bytes per table, the chain and world state tips, and the mempool size.';
  static override examples = [
    '<%= config.bin %> db stats --data-directory ./data',
    'NODE_DATA_DIRECTORY=./data <%= config.bin %> db stats --json',
  ];
  static override flags = { 'data-directory': dataDirectoryFlag };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(DbStats);
    const { db, path } = await openDatabaseReadOnly(flags['data-directory']);
    try {
      const result = db.transaction(() => {
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
          path,
          fileBytes: fileSize(path),
          walBytes: fileSize(`${path}-wal`),
          pageSize: db.pragma('page_size', { simple: true }) as number,
          pageCount: db.pragma('page_count', { simple: true }) as number,
          freePages: db.pragma('freelist_count', { simple: true }) as number,
          schemaVersion: db.pragma('user_version', { simple: true }) as number,
          chain: {
            latestBlock: scalar('SELECT COALESCE(MAX(number), 0) FROM chain_block'),
            checkpoints: scalar('SELECT COUNT(*) FROM chain_checkpoint'),
            txs: scalar('SELECT COUNT(*) FROM chain_tx'),
          },
          worldState: { latestBlock: scalar('SELECT MAX(block) FROM ws_block') },
          mempool: {
            pending: scalar('SELECT COUNT(*) FROM mempool_tx WHERE mined_block IS NULL'),
            mined: scalar('SELECT COUNT(*) FROM mempool_tx WHERE mined_block IS NOT NULL'),
            dropped: scalar('SELECT COUNT(*) FROM mempool_dropped'),
          },
          tables,
        };
      })();
      this.log(
        keyValues([
          ['database', result.path],
          [
            'file',
            `${mib(result.fileBytes)} (+ ${mib(result.walBytes)} WAL), ${result.pageCount} pages of ${result.pageSize} B, ${result.freePages} free`,
          ],
          ['schema version', result.schemaVersion],
          [
            'chain',
            `block ${result.chain.latestBlock}, ${result.chain.checkpoints} checkpoints, ${result.chain.txs} txs`,
          ],
          ['world state', `block ${result.worldState.latestBlock ?? '-'}`],
          [
            'mempool',
            `${result.mempool.pending} pending, ${result.mempool.mined} mined kept, ${result.mempool.dropped} dropped`,
          ],
        ]),
      );
      this.log('');
      this.log(
        table(
          ['TABLE', 'ROWS', 'SIZE'],
          result.tables.map((t) => [t.name, String(t.rows), t.bytes === null ? '-' : mib(t.bytes)]),
        ),
      );
      return result;
    } finally {
      db.close();
    }
  }
}

function mib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
