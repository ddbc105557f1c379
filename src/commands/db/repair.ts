import { BaseCommand } from '../_lib/base-command.js';
import { CliError } from '../_lib/cli-error.js';
import { keyValues } from '../_lib/human-format.js';
import { dataDirectoryFlag, openDatabaseForWriting } from '../_lib/offline-database.js';
import { settingFlags } from '../_lib/setting-flags.js';

export default class DbRepair extends BaseCommand {
  static override summary = 'Re-derive the world state and the indexes from the stored blocks (offline).';
  static override description =
    'The repair `l2node db check --full` names for a damaged world state or index. Takes the data directory lock ' +
    '(refused while a node runs on it), then in one transaction empties the world state and re-derives it from ' +
    'genesis and the stored blocks (each checked against its header) and rebuilds the log tag index from the ' +
    'stored tx effects. What cannot be re-derived, a damaged block or tx effect, stops it with nothing changed ' +
    'and is named with its repair: `l2node db rollback` below it, or a bootstrap from a snapshot ' +
    '(--snapshot-url). Give the same genesis settings (--prefunded-accounts, --sponsored-fpc) as the node was ' +
    'started with.';
  static override examples = [
    '<%= config.bin %> db repair --data-directory ./data',
    '<%= config.bin %> db repair --data-directory ./data --json',
  ];
  static override flags = {
    'data-directory': dataDirectoryFlag,
    ...settingFlags((s) => ['prefundedAccounts', 'sponsoredFPC', 'worldStateHistoryBlocks'].includes(s.key)),
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(DbRepair);
    const dir = flags['data-directory'];
    const { ConfigError, resolveConfig } = await import('../../daemon/config/resolve-config.js');
    let config: Awaited<ReturnType<typeof resolveConfig>>['config'];
    try {
      ({ config } = resolveConfig(flags as Record<string, string | boolean | undefined>, process.env));
    } catch (err) {
      if (err instanceof ConfigError) throw CliError.usage(err.message);
      throw err;
    }
    const { repairOffline, UnrepairableDamageError } = await import('../../daemon/operations/offline-repair.js');
    const { BlockRejectedError, WorldStateError } = await import('../../daemon/world-state/world-state-errors.js');
    const { db, path, release } = await openDatabaseForWriting(dir, 'l2node db repair');
    try {
      const started = performance.now();
      let result: ReturnType<typeof repairOffline>;
      try {
        result = repairOffline(db, config);
      } catch (err) {
        if (err instanceof UnrepairableDamageError) {
          throw CliError.failed(`nothing changed: ${err.message}`, 'DB_REPAIR_REFUSED', [
            ...(err.rollbackTo !== undefined
              ? [`roll back below it: l2node db rollback ${err.rollbackTo} --data-directory ${dir}`]
              : []),
            `or bootstrap a new data directory from a snapshot: l2node start --snapshot-url <index> --data-directory <new>`,
          ]);
        }
        if (err instanceof BlockRejectedError || err instanceof WorldStateError) {
          throw CliError.failed(`nothing changed: ${err.message}`, 'DB_REPAIR_REFUSED', [
            `l2node db check --full --data-directory ${dir}`,
          ]);
        }
        throw err;
      }
      this.log(
        keyValues([
          ['database', path],
          ['tip', `block ${result.tip}`],
          ['re-derived', result.rederived.join('; ')],
        ]),
      );
      return { path, ...result, seconds: (performance.now() - started) / 1000 };
    } finally {
      release();
    }
  }
}
