import type { L2Block } from '../../core/block/l2-block.js';
import { GasFees } from '../../core/gas/gas-fees.js';
import type { BlockObserver } from '../chain/block-observer.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { FeeHeaderRepository } from './fee-header-repository.js';
import {
  type FeeHeader,
  type FeeParams,
  type L1Fees,
  MAX_ETH_PER_FEE_ASSET,
  type ManaMinFeeComponents,
  MIN_ETH_PER_FEE_ASSET,
  manaMinFeeComponents,
  nextExcessMana,
  summedMinFee,
} from './fee-lib.js';

/** Aztec's network default: 32 slots per epoch (@aztec/ethereum l1-contracts-defaults). */
export const DEFAULT_EPOCH_DURATION = 32n;

export interface FeeModelOptions {
  /** ETH per fee asset unit at genesis, 1e12 precision (--initialEthPerFeeAsset). */
  readonly initialEthPerFeeAsset: bigint;
  readonly manaTarget: bigint;
  readonly provingCostPerMana: bigint;
  /** The simulated L1 prices: dev mode has no L1 to read them from. */
  readonly l1: L1Fees;
  readonly epochDuration?: bigint;
}

/** A bad fee model parameter: start-up stops with this message. */
export class FeeModelConfigError extends Error {
  override name = 'FeeModelConfigError';
}

/**
 * The node's min fee model (docs/fees.md): Aztec's rollup FeeLib over a simulated L1. Each block leaves a
 * fee header (excess mana, mana used, fee asset price) in the database; the min fee of the next block
 * follows from the latest one. The sequencer takes `minFeesForNextBlock` for a new block header's
 * gasFees, and the mempool validates max fees against it.
 *
 * It observes the chain (BlockObserver): applyBlock records each block's header in its transaction, an
 * unwind removes them, so the model always matches the chain it sits on. The price of the fee asset stays
 * at its genesis value: the price oracle's modifier is an L1 input a dev chain does not have.
 */
export class FeeModel implements BlockObserver {
  private readonly store: FeeHeaderRepository;
  private readonly params: FeeParams;
  private readonly l1: L1Fees;
  private readonly genesis: FeeHeader;
  private minFeeSource: (() => bigint | undefined) | undefined;
  private memo: { key: string; fees: GasFees; components: ManaMinFeeComponents } | undefined;

  constructor(db: SqliteDatabase, options: FeeModelOptions) {
    const price = options.initialEthPerFeeAsset;
    if (price < MIN_ETH_PER_FEE_ASSET || price > MAX_ETH_PER_FEE_ASSET) {
      throw new FeeModelConfigError(
        `initialEthPerFeeAsset ${price} is outside the rollup's bounds ${MIN_ETH_PER_FEE_ASSET} to ${MAX_ETH_PER_FEE_ASSET} ` +
          '(1e-10 to 100 ETH per fee asset unit at 1e12 precision)',
      );
    }
    if (options.manaTarget * 2n > 0xffffffffn) {
      throw new FeeModelConfigError(`manaTarget ${options.manaTarget} is too large: twice it must fit in 32 bits`);
    }
    const epochDuration = options.epochDuration ?? DEFAULT_EPOCH_DURATION;
    if (epochDuration < 1n) throw new FeeModelConfigError(`epochDuration must be at least 1, got ${epochDuration}`);
    this.params = { manaTarget: options.manaTarget, provingCostPerMana: options.provingCostPerMana, epochDuration };
    this.l1 = options.l1;
    this.genesis = { excessMana: 0n, manaUsed: 0n, ethPerFeeAsset: price };
    this.store = new FeeHeaderRepository(db);
    if (!this.store.get(0)) this.store.put(0, this.genesis);
  }

  /**
   * On a real L1 the rollup decides the min fee (its getManaMinFeeAt, over real L1 prices and its own fee
   * headers): `source` answers it, and the model's simulated figure stands in only while it is not read yet.
   */
  setMinFeeSource(source: () => bigint | undefined): void {
    this.minFeeSource = source;
  }

  /** Min fees per gas of the block after the latest one: DA 0, L2 from FeeLib (or the L1's rollup). */
  minFeesForNextBlock(): GasFees {
    const fromL1 = this.minFeeSource?.();
    return fromL1 === undefined ? this.current().fees : new GasFees(0n, fromL1);
  }

  /** The components behind minFeesForNextBlock (docs, diagnostics). */
  minFeeComponentsForNextBlock(): ManaMinFeeComponents {
    return this.current().components;
  }

  /** The fee header of a block, if the model has seen it. */
  feeHeader(blockNumber: number): FeeHeader | undefined {
    return this.store.get(blockNumber);
  }

  onBlockApplied(block: L2Block): void {
    const n = block.number;
    const parent = this.store.get(n - 1) ?? this.store.latest()?.header ?? this.genesis;
    this.store.put(n, {
      excessMana: nextExcessMana(parent, this.params.manaTarget),
      manaUsed: block.header.totalManaUsed.value,
      ethPerFeeAsset: parent.ethPerFeeAsset,
    });
  }

  onBlocksUnwound(targetBlockNumber: number): void {
    this.store.deleteAbove(targetBlockNumber);
  }

  private current(): { fees: GasFees; components: ManaMinFeeComponents } {
    const latest = this.store.latest()?.header ?? this.genesis;
    const key = `${latest.excessMana}:${latest.manaUsed}:${latest.ethPerFeeAsset}`;
    if (this.memo?.key !== key) {
      const components = manaMinFeeComponents(this.params, this.l1, latest);
      this.memo = { key, components, fees: new GasFees(0n, summedMinFee(components)) };
    }
    return this.memo;
  }
}
