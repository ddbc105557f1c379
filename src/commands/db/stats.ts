import { readDatabaseStats } from '../../daemon/store/database-stats.js';
import { BaseCommand } from '../_lib/base-command.js';
import { keyValues, table } from '../_lib/human-format.js';
import { dataDirectoryFlag, fileSize, openDatabaseReadOnly } from '../_lib/offline-database.js';

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
      const result = { path, fileBytes: fileSize(path), walBytes: fileSize(`${path}-wal`), ...readDatabaseStats(db) };
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
