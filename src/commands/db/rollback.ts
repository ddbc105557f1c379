import { Args } from '@oclif/core';
import { BaseCommand } from '../_lib/base-command.js';
import { CliError } from '../_lib/cli-error.js';
import { keyValues } from '../_lib/human-format.js';
import { dataDirectoryFlag, openDatabaseForWriting } from '../_lib/offline-database.js';
import { settingFlags } from '../_lib/setting-flags.js';

export default class DbRollback extends BaseCommand {
  static override summary =
    'Roll the chain back to a block and re-derive the world state, with no node running (offline).';
  static override description =
    'The offline twin of `l2node admin rollback <block> --force`, and the repair for a data directory whose chain ' +
    'store and world state disagree (l2node db check names it as the next step). Takes the data directory lock ' +
    '(refused while a node runs on it), then in one transaction removes the blocks above <block> with everything ' +
    'derived from them, clears the mempool data, and re-derives the world state from the blocks kept, each checked ' +
    'against its header. Nothing changes if any step fails. Give the same genesis settings (--prefunded-accounts, --sponsored-fpc) ' +
    'as the node was started with.';
  static override examples = [
    '<%= config.bin %> db rollback 10 --data-directory ./data',
    '<%= config.bin %> db rollback 0 --data-directory ./data --json',
  ];
  static override args = {
    block: Args.string({ ignoreStdin: true, description: 'Block number to keep as the new tip.', required: true }),
  };
  static override flags = {
    'data-directory': dataDirectoryFlag,
    ...settingFlags((s) => ['prefundedAccounts', 'sponsoredFPC', 'worldStateHistoryBlocks'].includes(s.key)),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(DbRollback);
    if (!/^[0-9]+$/.test(args.block.trim()) || !Number.isSafeInteger(Number(args.block))) {
      throw CliError.usage(`block "${args.block}" is not a block number`);
    }
    const target = Number(args.block);
    const { ConfigError, resolveConfig } = await import('../../daemon/config/resolve-config.js');
    let config: Awaited<ReturnType<typeof resolveConfig>>['config'];
    try {
      ({ config } = resolveConfig(flags as Record<string, string | boolean | undefined>, process.env));
    } catch (err) {
      if (err instanceof ConfigError) throw CliError.usage(err.message);
      throw err;
    }
    const { rollbackOffline } = await import('../../daemon/operations/offline-rollback.js');
    const { RollbackRefusedError } = await import('../../daemon/operations/chain-rollback.js');
    const { BlockRejectedError, WorldStateError } = await import('../../daemon/world-state/world-state-errors.js');
    const { startupProblems } = await import('../../daemon/store/database-integrity.js');
    const { db, path, release } = await openDatabaseForWriting(flags['data-directory'], 'l2node db rollback');
    try {
      const started = performance.now();
      let result: Awaited<ReturnType<typeof rollbackOffline>>;
      try {
        result = rollbackOffline(db, target, config);
      } catch (err) {
        if (
          err instanceof RollbackRefusedError ||
          err instanceof BlockRejectedError ||
          err instanceof WorldStateError
        ) {
          throw CliError.failed(
            `rollback to block ${target} refused, nothing changed: ${err.message}`,
            'ROLLBACK_REFUSED',
          );
        }
        throw err;
      }
      const remaining = startupProblems(db).map((p) => p.what);
      const out = { path, ...result, seconds: (performance.now() - started) / 1000, remainingProblems: remaining };
      this.log(
        keyValues([
          ['database', path],
          ['new tip', `block ${result.targetBlockNumber}`],
          ['blocks removed', `${result.removedBlocks} (holding ${result.removedTxs} txs)`],
          ['world state', 're-derived from the blocks kept; mempool data cleared'],
          ['check', remaining.length === 0 ? 'the node can start on it' : `still wrong: ${remaining.join('; ')}`],
        ]),
      );
      if (remaining.length > 0) {
        throw CliError.failed(`rolled back to block ${target}, but ${remaining.join('; ')}`, 'DB_CHECK_FAILED', [
          `l2node db check --data-directory ${flags['data-directory']}`,
        ]);
      }
      return out;
    } finally {
      release();
    }
  }
}
