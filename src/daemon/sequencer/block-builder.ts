import {
  blockBlobFields,
  NUM_BLOCK_END_BLOB_FIELDS,
  NUM_CHECKPOINT_END_MARKER_FIELDS,
  NUM_FIRST_BLOCK_END_BLOB_FIELDS,
  txEffectBlobFieldCount,
} from '../../core/blob/blob-fields.js';
import { MAX_BLOB_FIELDS_PER_CHECKPOINT, type SpongeBlob } from '../../core/blob/sponge-blob.js';
import { AppendOnlyTreeSnapshot } from '../../core/block/append-only-tree-snapshot.js';
import { BlockHeader } from '../../core/block/block-header.js';
import { Body } from '../../core/block/body.js';
import type { GlobalVariables } from '../../core/block/global-variables.js';
import { L2Block } from '../../core/block/l2-block.js';
import { Fr } from '../../core/fr.js';
import { InsufficientFeePerGasError } from '../../core/gas/transaction-fee.js';
import type { Tx } from '../../core/tx/tx.js';
import type { TxEffect } from '../../core/tx/tx-effect.js';
import { txExpiredAt } from '../../core/tx/tx-expiry.js';
import { applyTxEffectToFork } from '../public-processor/apply-tx-effect.js';
import { BlockContracts } from '../public-processor/block-contracts.js';
import { processPrivateOnlyTx } from '../public-processor/private-only-tx.js';
import { PublicTxInvalidError } from '../public-processor/public-tx-invalid-error.js';
import { processPublicTx } from '../public-processor/public-tx-processor.js';
import type { PublishedContracts } from '../public-processor/tx-contract-source.js';
import type { TxDebugPrints } from '../tracing/debug-print-store.js';
import { MerkleTreeId } from '../world-state/merkle-tree-id.js';
import type { WorldState } from '../world-state/world-state.js';
import { WorldStateError } from '../world-state/world-state-errors.js';
import type { WorldStateFork } from '../world-state/world-state-fork.js';

/** What one block may hold. */
export interface BlockLimits {
  /** Most txs in a block. */
  readonly maxTxs: number;
  /** Most L2 gas (mana) the block's txs may use together. */
  readonly maxL2Gas: number;
}

export interface BlockBuildInput {
  readonly worldState: WorldState;
  readonly globals: GlobalVariables;
  readonly checkpointNumber: number;
  readonly indexWithinCheckpoint: number;
  /** The checkpoint's L1-to-L2 messages; inserted by its first block. */
  readonly l1ToL2Messages: readonly bigint[];
  /** The checkpoint's sponge after its earlier blocks (not modified here). */
  readonly sponge: SpongeBlob;
  readonly limits: BlockLimits;
  /** Candidates, highest priority first. */
  readonly txs: Iterable<Tx>;
  /** Build even without txs (a checkpoint's first block bringing messages, or empty blocks by configuration). */
  readonly allowEmpty: boolean;
  /** The published contracts public calls run (the chain store's, protocol contracts included). */
  readonly contracts: PublishedContracts;
  /** Record the txs' debug_log prints (docs/debugging.md); off, DEBUGLOG only charges its gas. */
  readonly collectDebugLogs?: boolean;
}

/** A tx that can never be included (it is dropped from the pool, with the reason). */
export interface UnbuildableTx {
  readonly tx: Tx;
  readonly reason: string;
}

export interface BuiltBlock {
  readonly block: L2Block;
  /** The fork holding the block's effects: applyBlock commits it. */
  readonly fork: WorldStateFork;
  /** The block's blob fields, for the checkpoint's sponge. */
  readonly blobFields: bigint[];
  readonly included: readonly Tx[];
  /** The included txs' debug prints (only those that printed, and only with collectDebugLogs). */
  readonly debugPrints: readonly TxDebugPrints[];
}

export interface BlockBuildResult {
  /** Undefined when there was nothing to build. */
  readonly built: BuiltBlock | undefined;
  readonly dropped: readonly UnbuildableTx[];
}

/**
 * Builds the next block on a fork of the latest world state: the checkpoint's L1-to-L2 messages on its first
 * block, then the candidate txs in priority order while they fit (tx count, mana, the checkpoint's blob
 * space), each charged its fee from the fee payer's FeeJuice balance, public calls run by the public processor;
 * then the header (global variables, state,
 * sponge blob hash, fees, mana) and the archive after it. Txs that cannot be included in any block are reported
 * as dropped; txs that do not fit this block (limits, fees below the block's) are left for later.
 */
export function buildBlock(input: BlockBuildInput): BlockBuildResult {
  const { worldState, globals, limits } = input;
  const first = input.indexWithinCheckpoint === 0;
  const fork = worldState.fork();
  try {
    if (first) fork.appendCheckpointMessages(input.l1ToL2Messages);
    const lastArchive = fork.getArchiveSnapshot();
    const blockEndFields = first ? NUM_FIRST_BLOCK_END_BLOB_FIELDS : NUM_BLOCK_END_BLOB_FIELDS;
    let blobBudget =
      MAX_BLOB_FIELDS_PER_CHECKPOINT -
      input.sponge.numAbsorbedFields -
      blockEndFields -
      NUM_CHECKPOINT_END_MARKER_FIELDS;
    const included: Tx[] = [];
    const effects: TxEffect[] = [];
    const dropped: UnbuildableTx[] = [];
    const debugPrints: TxDebugPrints[] = [];
    let mana = 0;
    let totalFees = 0n;
    // One contracts view for the block: later txs can call what earlier txs deployed.
    const contracts = new BlockContracts(input.contracts);
    for (const tx of input.txs) {
      if (included.length >= limits.maxTxs) break;
      const refusal = permanentRefusal(input, fork, tx);
      if (refusal) {
        dropped.push({ tx, reason: refusal });
        continue;
      }
      const outcome = processTx(input, fork, contracts, tx, mana);
      if (outcome.kind === 'skip') continue;
      if (outcome.kind === 'drop') {
        dropped.push({ tx, reason: outcome.reason });
        continue;
      }
      const { effect } = outcome;
      const fields = txEffectBlobFieldCount(effect);
      if (fields > blobBudget) continue;
      try {
        applyTxEffectToFork(fork, effect);
      } catch (err) {
        if (!(err instanceof WorldStateError)) throw err;
        dropped.push({ tx, reason: err.message });
        continue;
      }
      contracts.addTxEffect(effect);
      if (outcome.prints) debugPrints.push(outcome.prints);
      included.push(tx);
      effects.push(effect);
      blobBudget -= fields;
      mana += outcome.mana;
      totalFees += effect.transactionFee.value;
    }
    if (included.length === 0 && !input.allowEmpty) {
      fork.close();
      return { built: undefined, dropped };
    }

    const draft = BlockHeader.from({
      lastArchive,
      state: fork.getStateReference(),
      spongeBlobHash: Fr.ZERO,
      globalVariables: globals,
      totalFees: new Fr(totalFees),
      totalManaUsed: new Fr(BigInt(mana)),
    });
    const blobFields = blockBlobFields(draft, effects, first);
    const sponge = input.sponge.clone();
    sponge.absorb(blobFields);
    const header = BlockHeader.from({ ...draft, spongeBlobHash: new Fr(sponge.squeeze()) });
    const hash = header.hash().value;
    const index = BigInt(lastArchive.nextAvailableLeafIndex);
    const archiveRoot = fork.getSiblingPath(MerkleTreeId.ARCHIVE, index).computeRoot(hash, index);
    const block = new L2Block(
      new AppendOnlyTreeSnapshot(new Fr(archiveRoot), lastArchive.nextAvailableLeafIndex + 1),
      header,
      new Body(effects),
      input.checkpointNumber,
      input.indexWithinCheckpoint,
    );
    return { built: { block, fork, blobFields, included, debugPrints }, dropped };
  } catch (err) {
    fork.close();
    throw err;
  }
}

/** What processing one candidate gave: its effect and mana, or leave it for a later block, or drop it. */
type TxOutcome =
  | {
      readonly kind: 'included';
      readonly effect: TxEffect;
      readonly mana: number;
      readonly prints: TxDebugPrints | undefined;
    }
  | { readonly kind: 'skip' }
  | { readonly kind: 'drop'; readonly reason: string };

/**
 * Runs one candidate on the block's fork: a tx without public calls pays its fee from private's gas, one with
 * public calls goes through the public processor. As 4.1.2 builds proposals, a public tx is only tried when its
 * gas limit still fits the block; the mana it adds is its actual total gas. Max fees below the block's leave it
 * for a later block; a tx no block can take is dropped with the processor's reason.
 */
function processTx(
  input: BlockBuildInput,
  fork: WorldStateFork,
  contracts: BlockContracts,
  tx: Tx,
  mana: number,
): TxOutcome {
  const isPublic = tx.hasPublicCalls();
  const upTo = isPublic ? tx.gasSettings.gasLimits.l2Gas : tx.data.gasUsed.l2Gas;
  if (mana + upTo > input.limits.maxL2Gas) return { kind: 'skip' };
  try {
    if (!isPublic) {
      const { txEffect, gasUsed } = processPrivateOnlyTx(fork, input.globals, tx);
      return { kind: 'included', effect: txEffect, mana: gasUsed.totalGas.l2Gas, prints: undefined };
    }
    const collectDebugLogs = input.collectDebugLogs ?? false;
    const processed = processPublicTx({
      state: fork,
      contracts,
      globals: input.globals,
      tx,
      ...(collectDebugLogs ? { options: { collectDebugLogs } } : {}),
    });
    const prints =
      processed.debugLogs.length > 0
        ? { txHash: tx.txHash, logs: processed.debugLogs, selectors: processed.debugLogSelectors }
        : undefined;
    return { kind: 'included', effect: processed.txEffect, mana: processed.gasUsed.totalGas.l2Gas, prints };
  } catch (err) {
    if (err instanceof InsufficientFeePerGasError) return { kind: 'skip' };
    if (err instanceof PublicTxInvalidError) return { kind: 'drop', reason: err.message };
    throw err;
  }
}

/** Why a tx can never be included, or undefined. The mempool checks these too; the chain may have moved since. */
function permanentRefusal(input: BlockBuildInput, fork: WorldStateFork, tx: Tx): string | undefined {
  const g = input.globals;
  const ctx = tx.data.constants.txContext;
  if (!ctx.chainId.equals(g.chainId))
    return `Incorrect L1 chain id: tx has ${ctx.chainId.value}, chain is ${g.chainId.value}`;
  if (!ctx.version.equals(g.version))
    return `Incorrect rollup version: tx has ${ctx.version.value}, chain is ${g.version.value}`;
  if (txExpiredAt(tx.data.expirationTimestamp, g.blockNumber, g.timestamp)) {
    return `Invalid expiration timestamp: tx expired at ${tx.data.expirationTimestamp}, block timestamp is ${g.timestamp}`;
  }
  const anchor = tx.data.constants.anchorBlockHeader.hash().value;
  if (fork.findLeafIndices(MerkleTreeId.ARCHIVE, [anchor])[0] === undefined) {
    return `Block header not found: the tx's anchor block ${new Fr(anchor)} is not in the archive`;
  }
  return undefined;
}
