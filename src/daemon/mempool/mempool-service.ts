import { MAX_PROCESSABLE_L2_GAS } from '../../core/constants.js';
import type { Tx } from '../../core/tx/tx.js';
import type { BlockObserver } from '../chain/block-observer.js';
import type { NodeConfig } from '../config/settings.js';
import { FeeModel } from '../fees/fee-model.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { PoolChange } from '../node-events.js';
import type { SqliteDatabase } from '../store/node-database.js';
import type { WorldState } from '../world-state/world-state.js';
import { worldStateReader } from './committed-state-reader.js';
import { Mempool } from './mempool.js';
import type { MinedTxLookup } from './mined-tx-lookup.js';

export interface MempoolServiceOptions {
  /** The node database (open once the database service started). */
  readonly db: () => SqliteDatabase;
  /** The world state (open once the service that owns it started). */
  readonly worldState: () => WorldState;
  readonly config: NodeConfig;
  readonly log: Logger;
  /** Milliseconds since the epoch; the node's clock. */
  readonly now?: () => number;
  /** Seconds: the timestamp txs are checked for expiry at (the next block's); default the clock's now. */
  readonly validationTimestamp?: () => bigint;
  readonly minedTxLookup?: () => MinedTxLookup | undefined;
  readonly contractClassIdOf?: (address: bigint) => bigint | undefined;
  /**
   * Registers a block observer with the chain (Chain.addObserver): called at start for the mempool and the
   * fee model, which must change with every block inside its transaction.
   */
  readonly observe?: (observer: BlockObserver) => void;
  /** Called after a tx entered the pool (wakes an on-demand sequencer). */
  readonly onTxAdded?: () => void;
  /** Told of every tx added, dropped or refused (the event stream). */
  readonly onPoolChange?: (change: PoolChange) => void;
  /**
   * Follower mode: sends a tx the pool took on to the upstream. Throws the upstream's refusal (an RpcError
   * with its code and data), after which the tx leaves the pool.
   */
  readonly forwardTx?: (tx: Tx) => Promise<void>;
}

/**
 * The mempool and the fee model as a node service: both are built at start, on the open database and world
 * state. Until then (and after stop) the node is not ready for txs (node_isReady).
 */
export class MempoolService implements Service {
  readonly name = 'mempool';
  #mempool: Mempool | undefined;
  #feeModel: FeeModel | undefined;

  constructor(private readonly o: MempoolServiceOptions) {}

  /** True while the mempool runs: the node accepts txs. */
  get running(): boolean {
    return this.#mempool !== undefined;
  }

  get mempool(): Mempool {
    if (!this.#mempool) throw new Error('The mempool is not running');
    return this.#mempool;
  }

  get feeModel(): FeeModel {
    if (!this.#feeModel) throw new Error('The fee model is not running');
    return this.#feeModel;
  }

  /** After the pool took a tx: a follower forwards it upstream; a refusal drops it here and reaches the caller. */
  async forwardTx(tx: Tx): Promise<void> {
    const forward = this.o.forwardTx;
    if (!forward) return;
    try {
      await forward(tx);
    } catch (err) {
      this.#mempool?.dropRejectedUpstream(tx.txHash, (err as Error).message);
      throw err;
    }
  }

  async start(): Promise<void> {
    const { config } = this.o;
    const db = this.o.db();
    const feeModel = new FeeModel(db, {
      initialEthPerFeeAsset: config.initialEthPerFeeAsset,
      manaTarget: config.manaTarget,
      provingCostPerMana: config.provingCostPerMana,
      l1: { baseFee: config.simulatedL1BaseFee, blobFee: config.simulatedL1BlobBaseFee },
      epochDuration: BigInt(config.epochDuration),
    });
    const worldState = this.o.worldState();
    this.#mempool = new Mempool({
      db,
      state: worldStateReader(worldState),
      settings: config,
      minFees: () => feeModel.minFeesForNextBlock(),
      now: this.o.now,
      validationTimestamp: this.o.validationTimestamp,
      // 4.1.2 caps a tx's L2 gas at min(MAX_PROCESSABLE_L2_GAS, the rollup's mana limit = 2 x target, the
      // configured block gas limit); a getter, as nodeAdmin_setConfig may change the block gas limit.
      get maxL2Gas() {
        return Math.min(MAX_PROCESSABLE_L2_GAS, Number(config.manaTarget * 2n), config.maxL2BlockGas);
      },
      epochDuration: config.epochDuration,
      minedTxLookup: this.o.minedTxLookup,
      contractClassIdOf: this.o.contractClassIdOf,
      onTxAdded: this.o.onTxAdded,
      onPoolChange: this.o.onPoolChange,
      log: this.o.log,
    });
    this.#feeModel = feeModel;
    this.o.observe?.(this.#mempool);
    this.o.observe?.(feeModel);
    this.o.log.info(
      {
        pending: this.#mempool.pendingTxCount(),
        minFeePerL2Gas: feeModel.minFeesForNextBlock().feePerL2Gas.toString(),
      },
      'mempool running',
    );
  }

  async stop(): Promise<void> {
    this.#mempool = undefined;
    this.#feeModel = undefined;
  }
}
