import { type DatabaseCheck, runDatabaseChecks } from '../../daemon/store/database-checks.js';
import { BaseCommand } from '../_lib/base-command.js';
import { CliError } from '../_lib/cli-error.js';
import { table } from '../_lib/human-format.js';
import { dataDirectoryFlag, openDatabaseReadOnly } from '../_lib/offline-database.js';

export default class DbCheck extends BaseCommand {
  static override summary = 'Check the node database for corruption and for stores that disagree (offline).';
  static override description =
    "Opens <data-directory>/l2node.sqlite read-only and runs, in one read transaction: SQLite's integrity_check " +
    'and foreign_key_check; the schema steps against the ones this l2node knows; the chain blocks numbered ' +
    '1..N without gaps; the world state at the same block as the chain, with the same hash for every block; ' +
    "every tx effect inside a stored block, and each block's tx count matching its effects; checkpoints and " +
    'mined mempool txs within the chain. Exits 1 when any check fails (error.data.checks lists them all).';
  static override examples = [
    '<%= config.bin %> db check --data-directory ./data',
    '<%= config.bin %> db check --data-directory ./data --json | jq .status',
  ];
  static override flags = { 'data-directory': dataDirectoryFlag };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(DbCheck);
    const { db, path } = await openDatabaseReadOnly(flags['data-directory']);
    const { MIGRATIONS } = await import('../../daemon/store/migrations/index.js');
    let checks: DatabaseCheck[];
    try {
      checks = db.transaction(() =>
        runDatabaseChecks(
          db,
          MIGRATIONS.map((m) => m.version),
        ),
      )();
    } finally {
      db.close();
    }
    this.log(
      table(
        ['', 'CHECK', 'DETAIL'],
        checks.map((c) => [c.ok ? 'ok' : 'FAIL', c.name, c.detail]),
      ),
    );
    const failed = checks.filter((c) => !c.ok);
    if (failed.length > 0) {
      throw CliError.failed(
        `${failed.length} of ${checks.length} checks failed on ${path}: ${failed.map((c) => c.name).join(', ')}`,
        'DB_CHECK_FAILED',
        ['restore a backup (l2node db backup makes one), or roll back: l2node admin rollback <block> --force'],
        { checks },
      );
    }
    return { path, ok: true, checks };
  }
}
