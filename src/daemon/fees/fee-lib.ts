/**
 * The min fee arithmetic of Aztec's rollup contract (l1-contracts FeeLib.sol, the v4 version with the fee
 * asset priced in ETH at 1e12 precision), in exact integer math so the figures match what the contract
 * would compute from the same inputs. docs/fees.md explains the model; FeeModel feeds it.
 */

/** Precision of ethPerFeeAsset: 1e12 means 1 ETH per unit of the fee asset. */
export const ETH_PER_FEE_ASSET_PRECISION = 10n ** 12n;
/** FeeLib's bounds on ethPerFeeAsset: 1e-10 to 100 ETH per fee asset unit. */
export const MIN_ETH_PER_FEE_ASSET = 100n;
export const MAX_ETH_PER_FEE_ASSET = 10n ** 14n;

export const L1_GAS_PER_CHECKPOINT_PROPOSED = 300_000n;
export const L1_GAS_PER_EPOCH_VERIFIED = 3_600_000n;
export const BLOB_GAS_PER_BLOB = 2n ** 17n;
/**
 * The blobs FeeLib charges a checkpoint's L1 cost for: a flat three, whatever the checkpoint publishes (it may
 * publish up to BLOBS_PER_CHECKPOINT, six, of core/constants.ts).
 */
export const BLOBS_PRICED_PER_CHECKPOINT = 3n;
export const MINIMUM_CONGESTION_MULTIPLIER = 10n ** 9n;
/** The congestion update fraction is manaTarget * 854700854 / 1e8: about x1.125 per mana target of excess. */
const MAGIC_CONGESTION_VALUE_MULTIPLIER = 854_700_854n;
const MAGIC_CONGESTION_VALUE_DIVISOR = 10n ** 8n;
const U128_MAX = (1n << 128n) - 1n;

/** The fee-relevant state a checkpoint leaves for the next one (FeeLib's FeeHeader). */
export interface FeeHeader {
  /** Mana above the target accumulated by the checkpoints before this one. */
  readonly excessMana: bigint;
  /** Mana (L2 gas) this checkpoint used. */
  readonly manaUsed: bigint;
  /** ETH per fee asset unit, 1e12 precision. */
  readonly ethPerFeeAsset: bigint;
}

/** What L1 costs: FeeLib reads both from its L1 gas oracle; dev mode has no L1 and takes them as settings. */
export interface L1Fees {
  /** Base fee per L1 gas, wei. */
  readonly baseFee: bigint;
  /** Blob base fee per blob gas, wei. */
  readonly blobFee: bigint;
}

export interface FeeParams {
  readonly manaTarget: bigint;
  /** wei per mana. */
  readonly provingCostPerMana: bigint;
  /** Slots per epoch: an epoch proof's L1 verification is shared by the epoch's checkpoints. */
  readonly epochDuration: bigint;
}

/** The parts of the min fee per mana, in fee asset units (FeeLib's ManaMinFeeComponents). */
export interface ManaMinFeeComponents {
  readonly sequencerCost: bigint;
  readonly proverCost: bigint;
  readonly congestionCost: bigint;
  /** 1e9 = no congestion. */
  readonly congestionMultiplier: bigint;
}

/** a * b / c rounded up (the operands are non-negative). */
export function mulDivCeil(a: bigint, b: bigint, c: bigint): bigint {
  const p = a * b;
  return p === 0n ? 0n : (p + c - 1n) / c;
}

/** max(0, a + b) (FeeLib.clampedAdd). */
export function clampedAdd(a: bigint, b: bigint): bigint {
  const s = a + b;
  return s > 0n ? s : 0n;
}

/**
 * factor * e^(numerator / denominator) by the EIP-4844 Taylor series in integers (FeeLib.fakeExponential).
 */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n;
  let output = 0n;
  let acc = factor * denominator;
  while (acc > 0n) {
    output += acc;
    acc = (acc * numerator) / (denominator * i);
    i += 1n;
  }
  return output / denominator;
}

export function congestionUpdateFraction(manaTarget: bigint): bigint {
  return (manaTarget * MAGIC_CONGESTION_VALUE_MULTIPLIER) / MAGIC_CONGESTION_VALUE_DIVISOR;
}

/** The excess mana the checkpoint after `parent` starts with (FeeLib.computeExcessMana). */
export function nextExcessMana(parent: FeeHeader, manaTarget: bigint): bigint {
  return clampedAdd(parent.excessMana + parent.manaUsed, -manaTarget);
}

/** The congestion multiplier of an excess, exponent capped at 100 as FeeLib caps it. */
export function congestionMultiplier(excessMana: bigint, manaTarget: bigint): bigint {
  const denominator = congestionUpdateFraction(manaTarget);
  const capped = excessMana < denominator * 100n ? excessMana : denominator * 100n;
  return fakeExponential(MINIMUM_CONGESTION_MULTIPLIER, capped, denominator);
}

/** wei to fee asset units at `ethPerFeeAsset`, rounded up (PriceLib.toFeeAsset). */
export function toFeeAsset(wei: bigint, ethPerFeeAsset: bigint): bigint {
  return mulDivCeil(wei, ETH_PER_FEE_ASSET_PRECISION, ethPerFeeAsset);
}

/**
 * The min fee components per mana for the checkpoint after `parent` (FeeLib.getManaMinFeeComponentsAt with
 * inFeeAsset = true): the sequencer's L1 cost of proposing a checkpoint (gas plus three blobs) and the
 * prover's share of verifying an epoch plus the proving cost, both spread over the mana target, times the
 * congestion multiplier of the excess mana; converted to the fee asset at the parent's price.
 */
export function manaMinFeeComponents(params: FeeParams, l1: L1Fees, parent: FeeHeader): ManaMinFeeComponents {
  const target = params.manaTarget;
  if (target === 0n) return { sequencerCost: 0n, proverCost: 0n, congestionCost: 0n, congestionMultiplier: 0n };
  const ethUsed =
    L1_GAS_PER_CHECKPOINT_PROPOSED * l1.baseFee + BLOBS_PRICED_PER_CHECKPOINT * BLOB_GAS_PER_BLOB * l1.blobFee;
  const sequencerCostPerMana = mulDivCeil(ethUsed, 1n, target);
  const proverCostPerMana =
    mulDivCeil(mulDivCeil(L1_GAS_PER_EPOCH_VERIFIED, l1.baseFee, params.epochDuration), 1n, target) +
    params.provingCostPerMana;
  const total = sequencerCostPerMana + proverCostPerMana;
  const multiplier = congestionMultiplier(nextExcessMana(parent, target), target);
  const congestionCostPerMana = (total * multiplier) / MINIMUM_CONGESTION_MULTIPLIER - total;
  const price = parent.ethPerFeeAsset < MIN_ETH_PER_FEE_ASSET ? MIN_ETH_PER_FEE_ASSET : parent.ethPerFeeAsset;
  return {
    sequencerCost: toFeeAsset(sequencerCostPerMana, price),
    proverCost: toFeeAsset(proverCostPerMana, price),
    congestionCost: toFeeAsset(congestionCostPerMana, price),
    congestionMultiplier: multiplier,
  };
}

/** The sum of the components, capped at u128 so it always fits a header's feePerL2Gas (FeeLib.summedMinFee). */
export function summedMinFee(c: ManaMinFeeComponents): bigint {
  const sum = c.sequencerCost + c.proverCost + c.congestionCost;
  return sum > U128_MAX ? U128_MAX : sum;
}
