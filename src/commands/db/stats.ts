import { readDatabaseStats } from '../../daemon/store/database-stats.js';
import { BaseCommand } from '../_lib/base-command.js';
import { keyValues, table } from '../_lib/human-format.js';
import { dataDirectoryFlag, fileSize, openDatabaseReadOnly } from '../_lib/offline-database.js';

export default class DbStats extends BaseCommand {
  static override summary = 'Show the size of the node database, its tables and where its chain stands (offline).';
  static override description =
    'Opens <data-directory>/l2node.sqlite read-only (a running node is not disturbed) and reports file sizes, ' +
    'schema version, rows and bytes per table, the chain and world state tips, the oldest block with a body ' +
    '(block history pruning), and the mempool size.';
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
          ['block bodies', bodiesLine(result.bodies, result.chain.latestBlock)],
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

/** What block history pruning kept: every header, and the bodies from the oldest block with one. */
function bodiesLine(
  b: { oldestBlockWithBody: number | null; prunedBlocks: number | null },
  latest: number | null,
): string {
  if (b.oldestBlockWithBody === null || b.prunedBlocks === null) return '-';
  if (b.prunedBlocks === 0) return 'all kept (nothing pruned)';
  const kept = latest === null ? '' : `, blocks ${b.oldestBlockWithBody} to ${latest} kept`;
  return `oldest block with a body ${b.oldestBlockWithBody}: bodies of blocks 1 to ${b.prunedBlocks} pruned${kept} (headers all kept)`;
}

function mib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
