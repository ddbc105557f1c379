import { headerProblems } from './database-integrity.js';
import type { SqliteDatabase } from './node-database.js';

/** The outcome of one check of `l2node db check`. */
export interface DatabaseCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/**
 * The checks of `l2node db check`, run by the caller inside one read transaction (one snapshot, even while a
 * node writes): SQLite's own, then cross-checks between the stores that docs/architecture.md section 3.1 keeps in one database
 * so that they cannot drift (chain store, world state, mempool). A check that cannot run (a missing table)
 * fails with the reason.
 */
export function runDatabaseChecks(db: SqliteDatabase, knownVersions: readonly number[]): DatabaseCheck[] {
  const one = <T>(sql: string): T => db.prepare(sql).pluck().get() as T;
  const checks: DatabaseCheck[] = [];
  const check = (name: string, run: () => { ok: boolean; detail: string }) => {
    try {
      checks.push({ name, ...run() });
    } catch (err) {
      checks.push({ name, ok: false, detail: `could not run: ${(err as Error).message}` });
    }
  };

  check('sqlite integrity', () => {
    const rows = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    const problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
    return {
      ok: problems.length === 0,
      detail: problems.length === 0 ? 'integrity_check: ok' : problems.slice(0, 5).join('; '),
    };
  });
  check('foreign keys', () => {
    const rows = db.pragma('foreign_key_check') as unknown[];
    return { ok: rows.length === 0, detail: rows.length === 0 ? 'foreign_key_check: ok' : `${rows.length} violations` };
  });
  check('schema', () => {
    const applied = db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
    const unknown = applied.filter((v) => !knownVersions.includes(v));
    const missing = knownVersions.filter((v) => !applied.includes(v));
    if (unknown.length > 0) {
      return {
        ok: false,
        detail: `steps ${unknown.join(', ')} come from a newer l2node: use it to check this database`,
      };
    }
    return {
      ok: true,
      detail: `${applied.length} steps applied${missing.length ? `; ${missing.join(', ')} will be applied at the next start` : ''}`,
    };
  });
  const tip = one<number>('SELECT COALESCE(MAX(number), 0) FROM chain_block');
  check('chain blocks', () => {
    const count = one<number>('SELECT COUNT(*) FROM chain_block');
    const first = one<number | null>('SELECT MIN(number) FROM chain_block');
    const ok = count === tip && (count === 0 || first === 1);
    if (!ok) return { ok, detail: `${count} blocks stored, numbered ${first ?? '-'}..${tip}` };
    // Every header hashed again: a header damaged in place passes every other check.
    const headers = headerProblems(db, 1, tip);
    if (headers.length > 0) return { ok: false, detail: headers.map((p) => p.what).join('; ') };
    return { ok, detail: `blocks 1..${tip}, no gaps, every header hashes to its stored hash and archive leaf` };
  });
  check('world state vs chain', () => {
    const wsTip = one<number | null>('SELECT MAX(block) FROM ws_block');
    const mismatched = one<number>(
      'SELECT COUNT(*) FROM chain_block c JOIN ws_block w ON w.block = c.number WHERE w.hash != c.hash',
    );
    // Blocks below the oldest one the world state keeps (--world-state-history-blocks) were pruned on purpose.
    const oldest = one<number | null>("SELECT value FROM ws_meta WHERE name = 'oldest'") ?? 0;
    const missing = one<number>(
      `SELECT COUNT(*) FROM chain_block c WHERE c.number >= ${Number(oldest)} AND NOT EXISTS (SELECT 1 FROM ws_block w WHERE w.block = c.number)`,
    );
    if (wsTip !== tip) {
      return { ok: false, detail: `world state at block ${wsTip ?? '-'}, chain at block ${tip}` };
    }
    if (mismatched > 0 || missing > 0) {
      return { ok: false, detail: `${mismatched} blocks hash differently, ${missing} have no world state row` };
    }
    return { ok: true, detail: `both at block ${tip}, every block hash agrees` };
  });
  check('tx effects', () => {
    const orphans = one<number>(
      'SELECT COUNT(*) FROM chain_tx t WHERE NOT EXISTS (SELECT 1 FROM chain_block b WHERE b.number = (t.id >> 20))',
    );
    const wrongCounts = one<number>(
      'SELECT COUNT(*) FROM chain_block b WHERE b.tx_count != (SELECT COUNT(*) FROM chain_tx t WHERE t.id >> 20 = b.number)',
    );
    const total = one<number>('SELECT COUNT(*) FROM chain_tx');
    const ok = orphans === 0 && wrongCounts === 0;
    return {
      ok,
      detail: ok
        ? `${total} effects, all in their blocks`
        : `${orphans} effects outside any block, ${wrongCounts} blocks with a wrong tx count`,
    };
  });
  check('checkpoints', () => {
    const beyond = one<number>(
      `SELECT COUNT(*) FROM chain_checkpoint WHERE last_block > ${tip} OR first_block > last_block`,
    );
    const count = one<number>('SELECT COUNT(*) FROM chain_checkpoint');
    return {
      ok: beyond === 0,
      detail: beyond === 0 ? `${count} published, all within the chain` : `${beyond} reach past block ${tip}`,
    };
  });
  check('mempool', () => {
    const beyond = one<number>(`SELECT COUNT(*) FROM mempool_tx WHERE mined_block > ${tip}`);
    return {
      ok: beyond === 0,
      detail: beyond === 0 ? 'mined txs all within the chain' : `${beyond} txs mined in blocks past ${tip}`,
    };
  });
  return checks;
}
