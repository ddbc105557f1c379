import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { statementOnFirstUse } from '../../../../src/daemon/store/statement-on-first-use.js';

const database = () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
  return db;
};

describe('statementOnFirstUse', () => {
  it('is prepared when first run: a statement built before its table exists runs once it does', () => {
    const db = new Database(':memory:');
    const insert = statementOnFirstUse<[number, string]>(db, 'INSERT INTO later (k, v) VALUES (?, ?)');
    const count = statementOnFirstUse<[], number>(db, 'SELECT COUNT(*) FROM later').pluck();
    db.exec('CREATE TABLE later (k INTEGER PRIMARY KEY, v TEXT)');
    expect(insert.run(1, 'a').changes).toBe(1);
    expect(count.get()).toBe(1);
    // Built the eager way, the same statement throws at once.
    expect(() => db.prepare('SELECT * FROM missing')).toThrow(/no such table: missing/);
  });

  it('answers as a prepared statement: get, all, iterate, run, columns, reader, source', () => {
    const db = database();
    const insert = statementOnFirstUse<[number, string]>(db, 'INSERT INTO t (k, v) VALUES (?, ?)');
    for (const [k, v] of [
      [1, 'a'],
      [2, 'b'],
    ] as const)
      insert.run(k, v);
    const byKey = statementOnFirstUse<[number], { k: number; v: string }>(db, 'SELECT k, v FROM t WHERE k = ?');
    const all = statementOnFirstUse<[], { k: number; v: string }>(db, 'SELECT k, v FROM t ORDER BY k');
    expect(byKey.get(2)).toEqual({ k: 2, v: 'b' });
    expect(byKey.get(3)).toBeUndefined();
    expect(all.all()).toEqual([
      { k: 1, v: 'a' },
      { k: 2, v: 'b' },
    ]);
    expect([...all.iterate()].map((r) => r.v)).toEqual(['a', 'b']);
    expect(all.columns().map((c) => c.name)).toEqual(['k', 'v']);
    expect(all.reader).toBe(true);
    expect(insert.reader).toBe(false);
    expect(all.source).toBe('SELECT k, v FROM t ORDER BY k');
  });

  it('applies the modes set before its first run, in order, and those set after', () => {
    const db = database();
    db.exec("INSERT INTO t VALUES (1, 'a')");
    const plucked = statementOnFirstUse<[], number>(db, 'SELECT k FROM t').pluck();
    expect(plucked.get()).toBe(1);
    const raw = statementOnFirstUse<[], unknown[]>(db, 'SELECT k, v FROM t').pluck().raw();
    expect(raw.get()).toEqual([1, 'a']);
    const big = statementOnFirstUse<[], bigint>(db, 'SELECT k FROM t').pluck().safeIntegers();
    expect(big.get()).toBe(1n);
    big.safeIntegers(false);
    expect(big.get()).toBe(1);
    const expanded = statementOnFirstUse(db, 'SELECT k, v FROM t').expand();
    expect(expanded.get()).toEqual({ t: { k: 1, v: 'a' } });
    // Bound for good: it runs with no parameters (better-sqlite3's types still ask for them).
    const bound = statementOnFirstUse<[number], { v: string }>(db, 'SELECT v FROM t WHERE k = ?').bind(1);
    expect((bound as unknown as { get(): unknown }).get()).toEqual({ v: 'a' });
  });

  it('throws the errors a prepared statement throws, on its first run', () => {
    const db = database();
    const bad = statementOnFirstUse(db, 'SELECT nope FROM t');
    expect(() => bad.get()).toThrow(/no such column: nope/);
    const duplicate = statementOnFirstUse<[number, string]>(db, 'INSERT INTO t (k, v) VALUES (?, ?)');
    duplicate.run(1, 'a');
    expect(() => duplicate.run(1, 'b')).toThrow(/UNIQUE constraint failed/);
  });
});
