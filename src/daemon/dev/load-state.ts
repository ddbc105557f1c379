import type { Logger } from '../logging/logger.js';
import { startupProblems } from '../store/database-integrity.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { restoreDatabaseFrom, StateFileError } from './database-copy.js';

/**
 * --load-state: the freshly opened database takes the state a --dump-state wrote, before the chain opens on it,
 * so the node starts at the dumped tips with the same roots and pool. A database that already holds blocks is
 * refused rather than overwritten, and a state that fails the checks a database gets at start (SQLite's
 * quick_check, stores that agree, headers that hash) is not taken.
 */
export function loadDevState(db: SqliteDatabase, file: string, log: Logger): void {
  const blocks = db.prepare('SELECT COUNT(*) FROM chain_block').pluck().get() as number;
  if (blocks > 0) {
    throw new StateFileError(
      `refusing --load-state ${file}: the database already holds ${blocks} blocks. Start without --load-state to ` +
        'keep them, or use an empty --data-directory',
    );
  }
  try {
    restoreDatabaseFrom(db, file, () => {
      const problems = startupProblems(db);
      if (problems.length > 0) throw new StateFileError(`it is damaged: ${problems.map((p) => p.what).join('; ')}`);
    });
  } catch (err) {
    throw new StateFileError(`cannot load the state of ${file}: ${(err as Error).message}`);
  }
  const tip = db.prepare('SELECT MAX(number) FROM chain_block').pluck().get() as number | null;
  log.info({ file, blockNumber: tip ?? 0 }, `loaded the state of block ${tip ?? 0} from ${file}`);
}
