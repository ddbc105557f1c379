import { dirname } from 'node:path';
import { ChainStore } from '../store/chain-store.js';
import type { IntegrityProblem } from '../store/database-integrity.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { recomputeCommitments } from './recomputed-commitments.js';

/**
 * The start-up part of `l2node db check --full`: every commitment of the newest `blocks` blocks recomputed from
 * the stored data, so a damaged tip is refused at start rather than served or built on. Each problem names
 * the repair: `db repair` re-derives a damaged world state or index; a damaged block or tx effect is rolled back
 * below (the rollback target) or restored from a backup or snapshot.
 */
export function tipDamage(db: SqliteDatabase, blocks: number): IntegrityProblem[] {
  if (blocks <= 0) return [];
  const store = new ChainStore(db);
  const tip = store.latestBlockNumber();
  if (tip === 0) return [];
  const damage = recomputeCommitments(db, store, { from: Math.max(1, tip - blocks + 1), to: tip, maxDamage: 20 });
  const dir = dirname(db.name);
  return damage.map((d) => {
    const derived = d.kind === 'world state' || d.kind.endsWith('index') || d.kind === 'archive';
    return derived
      ? { what: `${d.what} (\`l2node db repair --data-directory ${dir}\` re-derives it from the blocks)` }
      : { what: d.what, ...(d.block !== null ? { repairTo: Math.max(0, d.block - 1) } : {}) };
  });
}
