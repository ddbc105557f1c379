import type { NodeConfig } from '../config/settings.js';
import { ChainStore } from '../store/chain-store.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { StoredDataDamagedError } from '../store/record-checksum.js';
import { WorldStateRepository } from '../world-state/world-state-repository.js';
import { rollbackOffline } from './offline-rollback.js';

/** What `l2node db repair` re-derived. */
export interface RepairResult {
  readonly tip: number;
  readonly rederived: readonly string[];
}

/** Damage a repair cannot re-derive: a stored block or tx effect (the source everything else derives from). */
export class UnrepairableDamageError extends Error {
  override name = 'UnrepairableDamageError';

  constructor(
    readonly record: string,
    /** The block to roll back to so that the damaged one is gone. */
    readonly rollbackTo: number | undefined,
  ) {
    super(
      `${record} is damaged and cannot be re-derived (blocks and tx effects are what everything else is derived from)`,
    );
  }
}

/**
 * `l2node db repair`, on a data directory no node runs on (the caller holds its lock), in one transaction: the
 * world state is emptied and re-derived from the stored blocks (genesis from the node's genesis settings, then
 * every block applied and checked against its header, as `db rollback` re-derives it), and the log tag index is
 * rebuilt from the stored effects. A damaged block or tx effect stops it with nothing changed.
 */
export function repairOffline(db: SqliteDatabase, config: NodeConfig): RepairResult {
  const store = new ChainStore(db);
  const tip = store.latestBlockNumber();
  try {
    db.transaction(() => {
      new WorldStateRepository(db).clearAll();
      rollbackOffline(db, tip, config);
      store.rebuildTagIndex();
    })();
  } catch (err) {
    if (err instanceof StoredDataDamagedError) {
      const block = /of block (\d+)|^block (\d+)/.exec(err.record);
      const n = block ? Number(block[1] ?? block[2]) : undefined;
      throw new UnrepairableDamageError(err.record, n === undefined ? undefined : Math.max(0, n - 1));
    }
    throw err;
  }
  return { tip, rederived: ['world state (every tree, from genesis and the stored blocks)', 'log tag index'] };
}
