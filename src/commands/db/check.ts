import { Flags } from '@oclif/core';
import type { Damage } from '../../daemon/integrity/recomputed-commitments.js';
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
    '(error.data.checks lists them all), naming the repair (l2node db rollback) when a rollback repairs it. ' +
    'Without --full it does not read the records themselves: --full also checks every record against its ' +
    'checksum and recomputes every commitment from the stored data (each block body against its header, every ' +
    'tree node, leaf and root against the headers, the archive, contract class ids and instance addresses, the ' +
    'tx hash, log tag and message indexes), and lists every damaged item by block and kind (error.data.damage).';
  static override examples = [
    '<%= config.bin %> db check --data-directory ./data',
    '<%= config.bin %> db check --full --data-directory ./data',
    '<%= config.bin %> db check --data-directory ./data --json | jq .status',
  ];
  static override flags = {
    'data-directory': dataDirectoryFlag,
    full: Flags.boolean({
      description:
        'Also check every stored record against its checksum and recompute every commitment from the stored data (reads the whole database; a progress bar on a terminal).',
      default: false,
    }),
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(DbCheck);
    const dir = flags['data-directory'];
    const { NODE_DATABASE_FILE } = await import('../../daemon/store/node-database.js');
    const integrity = await import('../../daemon/store/database-integrity.js');
    const { MIGRATIONS } = await import('../../daemon/store/migrations/index.js');
    const { join } = await import('node:path');
    const integrityModules = flags.full ? await loadIntegrity() : undefined;
    const progress = progressBar(!this.jsonEnabled() && process.stderr.isTTY === true);
    let path = join(dir, NODE_DATABASE_FILE);
    let checks: DatabaseCheck[];
    let repairTo: number | undefined;
    let damage: Damage[] = [];
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
          if (flags.full) {
            damage = fullCheck(db, integrityModules, progress);
            all.push(...fullCheckSummary(damage));
          } else {
            all.push({
              name: 'not checked',
              ok: true,
              detail: 'the records themselves (checksums) and the commitments recomputed from them: run with --full',
            });
          }
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
      if (damage.length > 0) {
        this.log(
          table(
            ['BLOCK', 'KIND', 'DAMAGE'],
            damage.map((d) => [d.block === null ? '-' : String(d.block), d.kind, d.what]),
          ),
        );
        next.unshift(`l2node db repair --data-directory ${dir} re-derives what can be (the world state, the indexes)`);
      }
      throw CliError.failed(
        `${failed.length} of ${checks.length} checks failed on ${path}: ${failed.map((c) => c.name).join(', ')}`,
        'DB_CHECK_FAILED',
        next,
        { checks, damage, ...(repairTo !== undefined && !sqliteDamage ? { repairTo } : {}) },
      );
    }
    return { path, ok: true, full: flags.full, checks };
  }
}

type IntegrityModules = Awaited<ReturnType<typeof loadIntegrity>>;

/** The store and the recomputation, imported only for --full (other commands start fast). */
async function loadIntegrity() {
  const [{ ChainStore }, { WorldStateRepository }, { recomputeCommitments }, { storedRecordDamage }] =
    await Promise.all([
      import('../../daemon/store/chain-store.js'),
      import('../../daemon/world-state/world-state-repository.js'),
      import('../../daemon/integrity/recomputed-commitments.js'),
      import('../../daemon/integrity/stored-record-damage.js'),
    ]);
  return { ChainStore, WorldStateRepository, recomputeCommitments, storedRecordDamage };
}

/** --full: every record's checksum, then every commitment recomputed over the whole chain. */
function fullCheck(
  db: import('../../daemon/store/node-database.js').SqliteDatabase,
  m: IntegrityModules | undefined,
  progress: (done: number, total: number) => void,
): Damage[] {
  if (!m) return [];
  const store = new m.ChainStore(db);
  const tip = store.latestBlockNumber();
  const records = m.storedRecordDamage(store, new m.WorldStateRepository(db), tip);
  const recomputed = m.recomputeCommitments(db, store, { from: 1, to: tip, progress });
  progress(1, 1);
  // One line per damaged item: a damaged record also fails the recomputations that read it.
  const seen = new Set<string>();
  return [...records, ...recomputed].filter((d) => {
    const key = `${d.block}|${d.kind}|${d.what}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The --full outcome as checks: one per kind of damage found, or one that passed. */
function fullCheckSummary(damage: readonly Damage[]): DatabaseCheck[] {
  if (damage.length === 0) {
    return [
      { name: 'records and commitments', ok: true, detail: 'every record checksum holds; every commitment recomputes' },
    ];
  }
  const kinds = [...new Set(damage.map((d) => d.kind))];
  return kinds.map((kind) => {
    const of = damage.filter((d) => d.kind === kind);
    const blocks = [...new Set(of.map((d) => d.block).filter((b) => b !== null))];
    return {
      name: kind,
      ok: false,
      detail: `${of.length} damaged${blocks.length ? ` (blocks ${blocks.slice(0, 10).join(', ')}${blocks.length > 10 ? ', ...' : ''})` : ''}: ${of[0]?.what}`,
    };
  });
}

/** A progress bar on stderr for a person at a terminal; nothing otherwise. */
function progressBar(enabled: boolean): (done: number, total: number) => void {
  let last = -1;
  return (done, total) => {
    if (!enabled) return;
    const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
    if (pct === last) return;
    last = pct;
    const width = 30;
    const filled = Math.round((width * pct) / 100);
    process.stderr.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${pct}% ${done}/${total}`);
    if (pct >= 100) process.stderr.write('\n');
  };
}
