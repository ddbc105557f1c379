import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Migration } from '../../../../src/daemon/store/migrations/migration.js';
import { runMigrations, SchemaError } from '../../../../src/daemon/store/migrations/run-migrations.js';

const table = (version: number, name: string): Migration => ({
  version,
  name,
  up: (db) => db.exec(`CREATE TABLE ${name} (x INTEGER)`),
});

const tables = (db: Database.Database) =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't%' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);

describe('runMigrations', () => {
  it('applies each step once, in version order', () => {
    const db = new Database(':memory:');
    runMigrations(db, [table(300, 't300'), table(100, 't100')]);
    runMigrations(db, [table(300, 't300'), table(100, 't100')]);
    expect(tables(db)).toEqual(['t100', 't300']);
    expect(db.pragma('user_version', { simple: true })).toBe(300);
  });
  it('sets user_version again when something else changed it, though every step has run', () => {
    const db = new Database(':memory:');
    runMigrations(db, [table(100, 't100'), table(300, 't300')]);
    db.pragma('user_version = 7');
    runMigrations(db, [table(100, 't100'), table(300, 't300')]);
    expect(db.pragma('user_version', { simple: true })).toBe(300);
  });
  it('runs a step added to a lower range after a higher one already ran', () => {
    const db = new Database(':memory:');
    runMigrations(db, [table(300, 't300')]);
    runMigrations(db, [table(200, 't200'), table(300, 't300')]);
    expect(tables(db)).toEqual(['t200', 't300']);
  });
  it('refuses a database written by a newer node', () => {
    const db = new Database(':memory:');
    runMigrations(db, [table(100, 't100'), table(101, 't101')]);
    expect(() => runMigrations(db, [table(100, 't100')])).toThrow(SchemaError);
    expect(() => runMigrations(db, [table(100, 't100')])).toThrow(/schema steps 101 .*newer l2node/);
  });
  it('a failing step leaves nothing of itself behind', () => {
    const db = new Database(':memory:');
    const bad: Migration = {
      version: 5,
      name: 'bad',
      up: (d) => {
        d.exec('CREATE TABLE t5 (x INTEGER)');
        throw new Error('boom');
      },
    };
    expect(() => runMigrations(db, [table(1, 't1'), bad])).toThrow('boom');
    expect(tables(db)).toEqual(['t1']);
    expect(() => runMigrations(db, [table(1, 't1'), table(1, 't1b')])).toThrow(/share version 1/);
  });
});
