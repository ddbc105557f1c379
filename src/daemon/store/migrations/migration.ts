import type Database from 'better-sqlite3';

/**
 * One schema step. Versions are append-only and never reused; each service owns a range
 * (world state 100-199, chain store 200-299, mempool 300-399, validators 400-499, operations 500-599,
 * L1 600-699) so services can add tables independently. `up` runs inside the migration transaction.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database.Database): void;
}
