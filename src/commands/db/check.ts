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
    'every block header hashed again against its stored hash and its archive tree leaf; every tx effect inside ' +
    "a stored block, and each block's tx count matching its effects; checkpoints and mined mempool txs within " +
    'the chain. An empty, foreign or unreadable file is a failed check too. Exits 1 when any check fails ' +
    '(error.data.checks lists them all), naming the repair (l2node db rollback) when a rollback repairs it.';
  static override examples = [
    '<%= config.bin %> db check --data-directory ./data',
    '<%= config.bin %> db check --data-directory ./data --json | jq .status',
  ];
  static override flags = { 'data-directory': dataDirectoryFlag };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(DbCheck);
    const dir = flags['data-directory'];
    const { NODE_DATABASE_FILE } = await import('../../daemon/store/node-database.js');
    const integrity = await import('../../daemon/store/database-integrity.js');
    const { MIGRATIONS } = await import('../../daemon/store/migrations/index.js');
    const { join } = await import('node:path');
    let path = join(dir, NODE_DATABASE_FILE);
    let checks: DatabaseCheck[];
    let repairTo: number | undefined;
    try {
      integrity.checkDatabaseFile(path);
      const opened = await openDatabaseReadOnly(dir);
      path = opened.path;
      const db = opened.db;
      try {
        ({ checks, repairTo } = db.transaction(() => {
          const all = runDatabaseChecks(
            db,
            MIGRATIONS.map((m) => m.version),
          );
          if (all.every((c) => c.ok)) return { checks: all, repairTo: undefined };
          const tip = db.prepare('SELECT COALESCE(MAX(number), 0) FROM chain_block').pluck().get() as number;
          const problems = [...integrity.consistencyProblems(db), ...integrity.headerProblems(db, 1, tip)];
          return { checks: all, repairTo: integrity.repairTarget(problems) };
        })());
      } finally {
        db.close();
      }
    } catch (err) {
      // A file SQLite cannot read (or that is no node database at all) is a failed check, not an internal error.
      if (err instanceof integrity.DatabaseRefusedError || integrity.isCorruptionError(err)) {
        checks = [{ name: 'database file', ok: false, detail: (err as Error).message }];
      } else if (err instanceof CliError && err.code === 'DB_UNREADABLE') {
        checks = [{ name: 'database file', ok: false, detail: err.message }];
      } else {
        throw err;
      }
    }
    this.log(
      table(
        ['', 'CHECK', 'DETAIL'],
        checks.map((c) => [c.ok ? 'ok' : 'FAIL', c.name, c.detail]),
      ),
    );
    const failed = checks.filter((c) => !c.ok);
    if (failed.length > 0) {
      const sqliteDamage = failed.some((c) => c.name === 'sqlite integrity' || c.name === 'database file');
      const next =
        repairTo !== undefined && !sqliteDamage
          ? [`repair it offline (no node running): l2node db rollback ${repairTo} --data-directory ${dir}`]
          : ['restore a backup (l2node db backup makes one)'];
      throw CliError.failed(
        `${failed.length} of ${checks.length} checks failed on ${path}: ${failed.map((c) => c.name).join(', ')}`,
        'DB_CHECK_FAILED',
        next,
        { checks, ...(repairTo !== undefined && !sqliteDamage ? { repairTo } : {}) },
      );
    }
    return { path, ok: true, checks };
  }
}
