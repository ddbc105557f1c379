import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './node-database.js';
import { statementOnFirstUse } from './statement-on-first-use.js';

/** The named values the chain keeps beside its blocks. */
export type ChainMetaKey =
  /** Highest checkpoint proven on L1. */
  | 'provenCheckpoint'
  /** Highest proven checkpoint as of L1's finalized block. */
  | 'finalizedCheckpoint'
  /** Unix time (seconds) of slot 0 of the slot clock. */
  | 'genesisTime'
  /** Dev L1 inbox: the checkpoint whose message tree takes new messages. */
  | 'inboxOpenCheckpoint'
  /** The slot clock's latest timing, once changed at runtime (SlotEra): so slot numbers survive a restart. */
  | 'slotEraFromSlot'
  | 'slotEraStartTime'
  | 'slotEraSlotDuration'
  | 'slotEraBlocksPerSlot'
  /** Dev chain: how far L2 time is ahead of the wall clock (ms), moved by nodeDev_increaseTime and kin. */
  | 'timeWarpMs'
  /** Dev chain forked from an upstream (--fork-url): the upstream's block it continues from. */
  | 'forkBlock'
  /** A lazy fork (--fork-mode lazy): its first stored block (the first of block N's checkpoint); below it, none. */
  | 'forkFirstBlock'
  /** Block history pruning (--block-body-history-blocks): the bodies of blocks 1 to this one are pruned. */
  | 'bodiesPrunedThrough';

/** chain_meta: a few named integers (tips that are not a max of another table, the slot clock's origin). */
export class ChainMetaRepository {
  private readonly getStmt: Statement<[string], { value: number }>;
  private readonly setStmt: Statement<[string, number]>;

  constructor(db: SqliteDatabase) {
    this.getStmt = statementOnFirstUse(db, 'SELECT value FROM chain_meta WHERE name = ?');
    this.setStmt = statementOnFirstUse(
      db,
      'INSERT INTO chain_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    );
  }

  get(key: ChainMetaKey): number | undefined {
    return this.getStmt.get(key)?.value;
  }

  set(key: ChainMetaKey, value: number): void {
    this.setStmt.run(key, value);
  }
}
