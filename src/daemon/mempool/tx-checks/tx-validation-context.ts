import type { GasFees } from '../../../core/gas/gas-fees.js';
import type { AllowedSetupFunction } from './allowed-setup-function.js';

/**
 * What the validators check a tx against: the node's chain identity, the block the tx would land in, and
 * read access to committed state. One context serves many txs; its state reads are the only thing that
 * is not a plain value, so each validator stays a pure function of (tx, context).
 */
export interface TxValidationContext {
  readonly l1ChainId: bigint;
  readonly rollupVersion: bigint;
  readonly vkTreeRoot: bigint;
  readonly protocolContractsHash: bigint;
  /** The block a tx validated now would be included in (latest + 1). */
  readonly blockNumber: number;
  /** Seconds: a tx that expires before this is invalid. */
  readonly timestamp: bigint;
  /** The current min fees per gas. */
  readonly gasFees: GasFees;
  /** The most L2 gas a tx may ask for. */
  readonly maxL2Gas: number;
  /** Public functions a tx may call in its setup phase (defaults plus the settings' extension). */
  readonly setupAllowList: readonly AllowedSetupFunction[];
  /** False: proofs are not verified (like Aztec's local network); any proof passes. */
  readonly realProofs: boolean;
  /** For each nullifier, whether the committed nullifier tree has it. */
  nullifiersExist(nullifiers: readonly bigint[]): boolean[];
  /** Whether a block hash is a leaf of the committed archive. */
  archiveHasBlockHash(blockHash: bigint): boolean;
  /** The committed value at a public data tree leaf slot (0 when never written). */
  publicDataAt(leafSlot: bigint): bigint;
  /** The current class of a deployed contract, or undefined when the node knows no such instance. */
  contractClassIdOf(address: bigint): bigint | undefined;
  /** A public function's name by selector, when the node knows it (only for messages). */
  functionNameOf?(selector: number): string | undefined;
}
