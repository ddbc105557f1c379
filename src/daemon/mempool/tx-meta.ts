import { FEE_JUICE_ADDRESS } from '../../core/constants.js';
import type { Fr } from '../../core/fr.js';
import { computeFeePayerBalanceLeafSlot } from '../../core/hash/siloing.js';
import type { PublicCallRequest } from '../../core/kernel/public-call-request.js';
import type { Tx } from '../../core/tx/tx.js';
import type { TxHash } from '../../core/tx-hash.js';
import { INCREASE_PUBLIC_BALANCE_SELECTOR } from './tx-checks/default-allowed-setup.js';

/** A public call with the calldata sent for it (matched by calldata hash; empty when none was sent). */
export interface PublicCallWithCalldata {
  readonly request: PublicCallRequest;
  readonly calldata: readonly Fr[];
}

/** The facts of a pending tx the pool keeps in memory and in its rows, without the tx itself. */
export interface TxMetaFields {
  readonly priorityFee: bigint;
  readonly feeLimit: bigint;
  readonly feePayer: bigint;
  /** FeeJuice the tx's own setup phase credits the fee payer with before paying. */
  readonly claimAmount: bigint;
  /** Non-empty nullifiers, non-revertible first. */
  readonly nullifiers: readonly bigint[];
  readonly expirationTimestamp: bigint;
  /** Hash of the anchor block header (must be in the archive). */
  readonly anchorBlockHash: bigint;
  /** Public data tree slot of the fee payer's FeeJuice balance. */
  readonly feePayerBalanceSlot: bigint;
  /** Size of the binary form (the 512 KiB limit). */
  readonly size: number;
}

const cache = new WeakMap<Tx, TxMeta>();

/**
 * A tx with its derived values, each computed once (hashing is the hot path; docs/architecture.md section 5): the
 * validators and the pool all read from here. The tx hash is the tx's own (computed once by Tx); the
 * anchor header hash and the fee payer's balance slot are Poseidon2 hashes, computed on first use.
 *
 * `hashIsClaimed` is true when the hash came with the tx (binary form) rather than computed from its data:
 * only then must the data validator recompute and compare it (a JSON tx's hash is always recomputed).
 */
export class TxMeta {
  readonly txHash: TxHash;
  readonly priorityFee: bigint;
  readonly feeLimit: bigint;
  readonly feePayer: bigint;
  readonly nullifiers: readonly bigint[];
  readonly expirationTimestamp: bigint;
  readonly size: number;
  #claimAmount: bigint | undefined;
  #anchorBlockHash: bigint | undefined;
  #feePayerBalanceSlot: bigint | undefined;
  #publicCalls: PublicCallWithCalldata[] | undefined;

  private constructor(
    readonly tx: Tx,
    readonly hashIsClaimed: boolean,
  ) {
    this.txHash = tx.txHash;
    const gas = tx.data.constants.txContext.gasSettings;
    const maxFee = gas.maxFeesPerGas.feePerL2Gas;
    const maxPriority = gas.maxPriorityFeesPerGas.feePerL2Gas;
    // biome-ignore lint/complexity/useMathMinMax: bigints; Math.min takes numbers
    this.priorityFee = maxFee < maxPriority ? maxFee : maxPriority;
    this.feeLimit = gas.getFeeLimit();
    this.feePayer = tx.data.feePayer.value;
    this.nullifiers = tx.data.getNonEmptyNullifiers().map((n) => n.value);
    this.expirationTimestamp = tx.data.expirationTimestamp;
    this.size = tx.getSize();
  }

  /** The meta of a tx, computed once per tx object. */
  static of(tx: Tx, options: { hashIsClaimed?: boolean } = {}): TxMeta {
    let m = cache.get(tx);
    if (!m) {
      m = new TxMeta(tx, options.hashIsClaimed ?? false);
      cache.set(tx, m);
    }
    return m;
  }

  get hashKey(): string {
    return this.txHash.toString();
  }

  get anchorBlockHash(): bigint {
    this.#anchorBlockHash ??= this.tx.data.constants.anchorBlockHeader.hash().value;
    return this.#anchorBlockHash;
  }

  get feePayerBalanceSlot(): bigint {
    this.#feePayerBalanceSlot ??= computeFeePayerBalanceLeafSlot(this.feePayer);
    return this.#feePayerBalanceSlot;
  }

  /** Every enqueued public call (setup, app logic, teardown) paired with its calldata. */
  get publicCalls(): readonly PublicCallWithCalldata[] {
    this.#publicCalls ??= pairCalldata(this.tx, this.tx.data.getPublicCallRequests());
    return this.#publicCalls;
  }

  /** The setup-phase (non-revertible) calls with their calldata. */
  setupCalls(): readonly PublicCallWithCalldata[] {
    return this.publicCalls.slice(0, this.tx.data.getNonRevertiblePublicCallRequests().length);
  }

  /**
   * FeeJuice this tx credits its own fee payer with in setup (4.1.2 fee_payer_balance.ts): a non-static
   * setup call from FeeJuice to FeeJuice `_increase_public_balance(feePayer, amount)` counts its amount.
   */
  get claimAmount(): bigint {
    if (this.#claimAmount === undefined) {
      this.#claimAmount = 0n;
      for (const { request, calldata } of this.setupCalls()) {
        if (
          request.contractAddress.value === FEE_JUICE_ADDRESS &&
          request.msgSender.value === FEE_JUICE_ADDRESS &&
          !request.isStaticCall &&
          calldata.length > 2 &&
          (calldata[0] as Fr).value === BigInt(INCREASE_PUBLIC_BALANCE_SELECTOR.value) &&
          (calldata[1] as Fr).value === this.feePayer
        ) {
          this.#claimAmount = (calldata[2] as Fr).value;
          break;
        }
      }
    }
    return this.#claimAmount;
  }

  fields(): TxMetaFields {
    return {
      priorityFee: this.priorityFee,
      feeLimit: this.feeLimit,
      feePayer: this.feePayer,
      claimAmount: this.claimAmount,
      nullifiers: this.nullifiers,
      expirationTimestamp: this.expirationTimestamp,
      anchorBlockHash: this.anchorBlockHash,
      feePayerBalanceSlot: this.feePayerBalanceSlot,
      size: this.size,
    };
  }
}

function pairCalldata(tx: Tx, requests: readonly PublicCallRequest[]): PublicCallWithCalldata[] {
  if (requests.length === 0) return [];
  const byHash = new Map<bigint, readonly Fr[]>();
  for (const c of tx.publicFunctionCalldata) byHash.set(c.hash.value, c.values);
  return requests.map((request) => ({ request, calldata: byHash.get(request.calldataHash.value) ?? [] }));
}
