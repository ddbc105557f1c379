import type { ChainParts } from '../chain/apply-block.js';
import { ChainEvents } from '../chain/chain-events.js';
import { worldStateHistoryBlocks } from '../chain/chain-state.js';
import { ChainTips } from '../chain/chain-tips.js';
import { unwindBlocks } from '../chain/unwind-blocks.js';
import type { NodeConfig } from '../config/settings.js';
import { FeeHeaderRepository } from '../fees/fee-header-repository.js';
import { TxPoolRepository } from '../mempool/tx-pool-repository.js';
import { genesisPublicData } from '../sequencer/genesis-funding.js';
import { ChainStore } from '../store/chain-store.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { WorldState } from '../world-state/world-state.js';
import { RollbackRefusedError, type RollbackResult } from './chain-rollback.js';

/**
 * `l2node db rollback`: what nodeAdmin_rollbackTo does with force, on a data directory no node runs on (the
 * caller holds its lock). In one transaction, blocks above the target go with everything derived from them
 * (checkpoints past it included), fee headers above it go, the pool's data is cleared, and the world state is
 * re-derived from the blocks kept, each checked against its header. It repairs a directory whose chain store
 * and world state disagree, since nothing of the world state is trusted. The genesis settings (prefunded
 * accounts, sponsored FPC) must be the node's: the world state refuses another genesis.
 */
export function rollbackOffline(db: SqliteDatabase, target: number, config: NodeConfig): RollbackResult {
  const worldState = WorldState.open(db, {
    genesisPublicData: genesisPublicData(config),
    historyBlocks: worldStateHistoryBlocks(config),
  });
  const store = new ChainStore(db);
  const latest = store.latestBlockNumber();
  if (target > latest) {
    throw new RollbackRefusedError(`Cannot roll back to block ${target}: the chain's tip is block ${latest}`);
  }
  const fees = new FeeHeaderRepository(db);
  const chain: ChainParts = {
    db,
    worldState,
    store,
    // The running node's block observers that keep data per block: the fee model (the pool is cleared below).
    observers: [{ onBlockApplied: () => {}, onBlocksUnwound: (t) => fees.deleteAbove(t) }],
    events: new ChainEvents(),
    tips: new ChainTips(store, worldState.getGenesisBlockHash()),
  };
  const pool = new TxPoolRepository(db);
  const removed = unwindBlocks(chain, target, { force: true, rederive: true, inTransaction: () => pool.clear() });
  // The pool is cleared: no tx goes back to it. Damaged blocks are removed but not read (not in `removed`):
  // every block above the target went.
  const removedTxs = removed.reduce((n, b) => n + b.body.txEffects.length, 0);
  return { targetBlockNumber: target, removedBlocks: latest - target, removedTxs, returnedTxs: 0, rederived: true };
}
