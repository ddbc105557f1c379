import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { GlobalVariables } from '../../../../src/core/block/global-variables.js';
import { openNodeDatabase, type SqliteDatabase } from '../../../../src/daemon/store/node-database.js';
import {
  type BlockToApply,
  WorldState,
  type WorldStateOptions,
} from '../../../../src/daemon/world-state/world-state.js';
import type { TxTreeEffects } from '../../../../src/daemon/world-state/world-state-fork.js';
import { prng } from '../../../helpers/prng.js';

/** A fresh in-memory node database with its world state. */
export function openWorldState(options: WorldStateOptions = {}): { db: SqliteDatabase; ws: WorldState } {
  const db = openNodeDatabase(null);
  return { db, ws: WorldState.open(db, options) };
}

export interface BlockSpec {
  readonly txs: readonly TxTreeEffects[];
  readonly firstInCheckpoint?: boolean;
  readonly l1ToL2Messages?: readonly bigint[];
}

/**
 * Builds the next block the way a sequencer does: applies the effects in a fork, reads the resulting state,
 * and hashes a header carrying it; the fork is then dropped.
 */
export function buildBlock(ws: WorldState, spec: BlockSpec): BlockToApply {
  const fork = ws.fork();
  const firstInCheckpoint = spec.firstInCheckpoint ?? true;
  const l1ToL2Messages = spec.l1ToL2Messages ?? [];
  for (const tx of spec.txs) fork.applyTxEffects(tx);
  if (firstInCheckpoint) fork.appendCheckpointMessages(l1ToL2Messages);
  const state = fork.getStateReference();
  const lastArchive = fork.getArchiveSnapshot();
  const blockNumber = fork.blockNumber + 1;
  fork.close();
  const header = BlockHeader.empty({ lastArchive, state, globalVariables: GlobalVariables.empty({ blockNumber }) });
  return {
    blockNumber,
    blockHash: header.hash().value,
    state,
    lastArchive,
    txs: spec.txs,
    firstInCheckpoint,
    l1ToL2Messages,
  };
}

/** A small deterministic PRNG (mulberry32), so failures reproduce from the seed. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** A random non-zero field element below 2^248. */
  field(): bigint {
    let v = 0n;
    for (let i = 0; i < 8; i++) v = (v << 31n) | BigInt(this.int(2 ** 31));
    return (v & ((1n << 248n) - 1n)) | 1n;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }
}

/** Random tx effects; some public data writes hit slots written before, to exercise in-place updates. */
export function randomTx(rng: Rng, slots: bigint[], maxEach = 6): TxTreeEffects {
  const noteHashes = Array.from({ length: rng.int(maxEach + 1) }, () => rng.field());
  const nullifiers = Array.from({ length: 1 + rng.int(maxEach) }, () => rng.field());
  const publicDataWrites = Array.from({ length: rng.int(maxEach + 1) }, () => {
    const reuse = slots.length > 0 && rng.next() < 0.4;
    const leafSlot = reuse ? rng.pick(slots) : rng.field();
    if (!reuse) slots.push(leafSlot);
    return { leafSlot, value: rng.field() };
  });
  return { noteHashes, nullifiers, publicDataWrites };
}
