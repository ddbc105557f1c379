import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { GlobalVariables } from '../../../../src/core/block/global-variables.js';
import { L2Block } from '../../../../src/core/block/l2-block.js';
import { Fr } from '../../../../src/core/fr.js';
import {
  congestionMultiplier,
  fakeExponential,
  manaMinFeeComponents,
  summedMinFee,
} from '../../../../src/daemon/fees/fee-lib.js';
import { FeeModel, FeeModelConfigError, type FeeModelOptions } from '../../../../src/daemon/fees/fee-model.js';
import { openNodeDatabase, type SqliteDatabase } from '../../../../src/daemon/store/node-database.js';

/** The node's defaults: 4.1.2's network parameters over the simulated L1 (1 gwei gas, 1 wei blob gas). */
const DEFAULTS: FeeModelOptions = {
  initialEthPerFeeAsset: 10_000_000n,
  manaTarget: 100_000_000n,
  provingCostPerMana: 100n,
  l1: { baseFee: 1_000_000_000n, blobFee: 1n },
};

/**
 * Hand-computed from FeeLib's formulas with the defaults (docs/fees.md):
 *   sequencer = ceil((300,000 x 1e9 + 3 x 131,072 x 1) / 1e8)            = 3,000,001 wei per mana
 *   prover    = ceil(ceil(3.6e6 x 1e9 / 32) / 1e8) + 100                  = 1,125,100 wei per mana
 *   in the fee asset at 1e7 (1e12 precision): x 1e12 / 1e7, rounded up   = 300,000,100,000 + 112,510,000,000
 */
const GENESIS_MIN_FEE = 412_510_100_000n;

let db: SqliteDatabase;
beforeEach(() => {
  db = openNodeDatabase(null);
});
afterEach(() => db.close());

const block = (n: number, manaUsed: bigint) =>
  L2Block.empty(
    BlockHeader.empty({ globalVariables: GlobalVariables.empty({ blockNumber: n }), totalManaUsed: new Fr(manaUsed) }),
  );

describe('FeeModel', () => {
  it('gives the genesis min fee from the defaults, DA fee 0', () => {
    const fees = new FeeModel(db, DEFAULTS).minFeesForNextBlock();
    expect(fees.feePerDaGas).toBe(0n);
    expect(fees.feePerL2Gas).toBe(GENESIS_MIN_FEE);
  });

  it('prices in the fee asset with --initialEthPerFeeAsset (1e12 precision)', () => {
    const twice = new FeeModel(db, { ...DEFAULTS, initialEthPerFeeAsset: 20_000_000n }).minFeesForNextBlock();
    expect(twice.feePerL2Gas).toBe(GENESIS_MIN_FEE / 2n);
  });

  it('raises the fee about 12.5% per mana target of excess, and keeps it at target usage', () => {
    const model = new FeeModel(db, DEFAULTS);
    model.onBlockApplied(block(1, 100_000_000n));
    expect(model.minFeesForNextBlock().feePerL2Gas).toBe(GENESIS_MIN_FEE);
    model.onBlockApplied(block(2, 200_000_000n));
    const c = model.minFeeComponentsForNextBlock();
    expect(Number(c.congestionMultiplier) / 1e9).toBeCloseTo(1.1244, 3);
    expect(model.minFeesForNextBlock().feePerL2Gas).toBeGreaterThan((GENESIS_MIN_FEE * 112n) / 100n);
    expect(model.feeHeader(2)).toEqual({ excessMana: 0n, manaUsed: 200_000_000n, ethPerFeeAsset: 10_000_000n });
    model.onBlockApplied(block(3, 0n));
    expect(model.feeHeader(3)?.excessMana).toBe(100_000_000n);
  });

  it('follows an unwind, and survives a restart (headers live in the database)', () => {
    const model = new FeeModel(db, DEFAULTS);
    model.onBlockApplied(block(1, 300_000_000n));
    const congested = model.minFeesForNextBlock();
    expect(new FeeModel(db, DEFAULTS).minFeesForNextBlock()).toEqual(congested);
    model.onBlocksUnwound(0);
    expect(model.minFeesForNextBlock().feePerL2Gas).toBe(GENESIS_MIN_FEE);
  });

  it('refuses parameters the rollup contract refuses, saying which', () => {
    expect(() => new FeeModel(db, { ...DEFAULTS, initialEthPerFeeAsset: 5n })).toThrow(FeeModelConfigError);
    expect(() => new FeeModel(db, { ...DEFAULTS, initialEthPerFeeAsset: 5n })).toThrow(/initialEthPerFeeAsset 5 .*100/);
    expect(() => new FeeModel(db, { ...DEFAULTS, manaTarget: 2n ** 32n })).toThrow(/manaTarget/);
  });
});

describe('FeeLib arithmetic', () => {
  it('fakeExponential is exact at 0 and follows e^x', () => {
    expect(fakeExponential(1_000_000_000n, 0n, 5n)).toBe(1_000_000_000n);
    expect(Number(fakeExponential(1_000_000_000n, 1n, 1n)) / 1e9).toBeCloseTo(Math.E, 7);
  });
  it('caps the congestion exponent at 100 and the summed fee at u128', () => {
    const huge = congestionMultiplier(10n ** 30n, 100_000_000n);
    expect(huge).toBe(congestionMultiplier(10n ** 40n, 100_000_000n));
    const c = manaMinFeeComponents(
      { manaTarget: 100_000_000n, provingCostPerMana: 100n, epochDuration: 32n },
      { baseFee: 10n ** 12n, blobFee: 10n ** 12n },
      { excessMana: 10n ** 30n, manaUsed: 0n, ethPerFeeAsset: 100n },
    );
    expect(summedMinFee(c)).toBe((1n << 128n) - 1n);
  });
  it('charges nothing when the mana target is 0 (transactions disabled on L1)', () => {
    const c = manaMinFeeComponents({ manaTarget: 0n, provingCostPerMana: 100n, epochDuration: 32n }, DEFAULTS.l1, {
      excessMana: 0n,
      manaUsed: 0n,
      ethPerFeeAsset: 10_000_000n,
    });
    expect(summedMinFee(c)).toBe(0n);
  });
});
