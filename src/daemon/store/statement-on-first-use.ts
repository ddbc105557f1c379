import type { ColumnDefinition, RunResult, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';

/**
 * `db.prepare(source)` for a repository's statements, prepared when first run instead of when the repository is
 * built. A start builds every repository (about 130 statements) and runs about 20 of them before it serves:
 * preparing the others up front was a large part of a dev start's time to its first /status answer
 * (bench/startup). The statement behaves as a prepared one: the same methods, the same errors (a statement that
 * does not compile throws on its first run), and the modes set before its first run (pluck, raw, expand,
 * safeIntegers) apply to it. Preparing needs the connection idle, as running does, so a first run can never fail
 * where a statement prepared earlier would have run.
 */
export function statementOnFirstUse<BindParameters extends unknown[] = unknown[], Result = unknown>(
  db: SqliteDatabase,
  source: string,
): Statement<BindParameters, Result> {
  return new StatementOnFirstUse(db, source) as unknown as Statement<BindParameters, Result>;
}

type Mode = 'pluck' | 'raw' | 'expand' | 'safeIntegers';

class StatementOnFirstUse {
  private prepared: Statement<unknown[]> | undefined;
  /** Modes set before the first run, applied in order once it is prepared. */
  private modes: [Mode, boolean | undefined][] = [];

  constructor(
    readonly database: SqliteDatabase,
    readonly source: string,
  ) {}

  /**
   * Prepares the statement, then puts its own running methods, bound, in place of the ones below: later runs call
   * better-sqlite3 directly. (Forwarding each run, with its rest parameters, cost a start on a data directory
   * about 5 % more CPU: the startup check runs its queries mostly before they are optimised.)
   */
  private get statement(): Statement<unknown[]> {
    let s = this.prepared;
    if (s === undefined) {
      s = this.database.prepare<unknown[]>(this.source);
      for (const [mode, toggle] of this.modes) setMode(s, mode, toggle);
      this.modes = [];
      this.prepared = s;
      this.run = s.run.bind(s);
      this.get = s.get.bind(s);
      this.all = s.all.bind(s);
      this.iterate = s.iterate.bind(s);
    }
    return s;
  }

  get reader(): boolean {
    return this.statement.reader;
  }

  get readonly(): boolean {
    return this.statement.readonly;
  }

  get busy(): boolean {
    return this.prepared?.busy ?? false;
  }

  run(...params: unknown[]): RunResult {
    return this.statement.run(...params);
  }

  get(...params: unknown[]): unknown {
    return this.statement.get(...params);
  }

  all(...params: unknown[]): unknown[] {
    return this.statement.all(...params);
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.statement.iterate(...params);
  }

  columns(): ColumnDefinition[] {
    return this.statement.columns();
  }

  bind(...params: unknown[]): this {
    this.statement.bind(...params);
    return this;
  }

  pluck(toggle?: boolean): this {
    return this.mode('pluck', toggle);
  }

  raw(toggle?: boolean): this {
    return this.mode('raw', toggle);
  }

  expand(toggle?: boolean): this {
    return this.mode('expand', toggle);
  }

  safeIntegers(toggle?: boolean): this {
    return this.mode('safeIntegers', toggle);
  }

  private mode(mode: Mode, toggle: boolean | undefined): this {
    if (this.prepared) setMode(this.prepared, mode, toggle);
    else this.modes.push([mode, toggle]);
    return this;
  }
}

/** better-sqlite3 takes a mode's toggle as a boolean or nothing (on), never `undefined`. */
function setMode(s: Statement<unknown[]>, mode: Mode, toggle: boolean | undefined): void {
  if (toggle === undefined) s[mode]();
  else s[mode](toggle);
}
