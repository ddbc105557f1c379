import { existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../_lib/base-command.js';
import { CliError } from '../_lib/cli-error.js';
import { keyValues } from '../_lib/human-format.js';
import { dataDirectoryFlag, openDatabaseReadOnly } from '../_lib/offline-database.js';

export default class DbBackup extends BaseCommand {
  static override summary = 'Copy the node database to a file, consistently, even while the node runs (offline).';
  static override description =
    "Uses SQLite's online backup from a read-only connection, so the copy is one consistent state even when a " +
    'running node writes meanwhile, then runs quick_check on the copy. The destination is a file, or a directory ' +
    '(the copy is then named l2node.sqlite, ready to be a data directory). An existing file is kept unless --force.';
  static override examples = [
    '<%= config.bin %> db backup /var/backups/l2node-$(date +%F).sqlite --data-directory ./data',
    '<%= config.bin %> db backup ./restore-here/ --data-directory ./data --json',
  ];
  static override args = {
    destination: Args.string({
      ignoreStdin: true,
      description: 'File (or directory) to write the copy to.',
      required: true,
    }),
  };
  static override flags = {
    'data-directory': dataDirectoryFlag,
    force: Flags.boolean({ description: 'Overwrite the destination file if it exists.' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(DbBackup);
    const { NODE_DATABASE_FILE, openNodeDatabase } = await import('../../daemon/store/node-database.js');
    let destination = resolve(args.destination);
    if (existsSync(destination) && statSync(destination).isDirectory())
      destination = join(destination, NODE_DATABASE_FILE);
    if (existsSync(destination)) {
      if (!flags.force)
        throw CliError.usage(`${destination} exists: choose another file, or overwrite it with --force`);
      rmSync(destination);
      rmSync(`${destination}-wal`, { force: true });
      rmSync(`${destination}-shm`, { force: true });
    }
    const { db, path } = await openDatabaseReadOnly(flags['data-directory']);
    if (resolve(path) === destination) {
      db.close();
      throw CliError.usage('the destination is the database itself');
    }
    const started = performance.now();
    let pages: number;
    try {
      pages = (await db.backup(destination)).totalPages;
    } catch (err) {
      throw CliError.failed(`the backup to ${destination} failed: ${(err as Error).message}`, 'BACKUP_FAILED');
    } finally {
      db.close();
    }
    const seconds = (performance.now() - started) / 1000;
    const copy = openNodeDatabase(destination, { readonly: true });
    let check: string;
    try {
      check = (copy.pragma('quick_check', { simple: true }) as string) ?? 'unknown';
    } finally {
      copy.close();
    }
    if (check !== 'ok') throw CliError.failed(`the copy ${destination} fails quick_check: ${check}`, 'BACKUP_FAILED');
    const bytes = statSync(destination).size;
    this.log(
      keyValues([
        ['copied', `${path} -> ${destination}`],
        ['size', `${bytes} bytes, ${pages} pages in ${seconds.toFixed(2)} s`],
        ['quick_check', check],
      ]),
    );
    return { source: path, destination, bytes, pages, seconds };
  }
}
