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
import { TxEffect } from '../../core/tx/tx-effect.js';
import { txExpiredAt } from '../../core/tx/tx-expiry.js';
import type { BlockTxAnswer, BlockTxJob, BlockTxOutcome } from '../public-execution/public-execution-jobs.js';
import { applyTxEffectToFork } from '../public-processor/apply-tx-effect.js';
import { processPrivateOnlyTx } from '../public-processor/private-only-tx.js';
import { PublicTxInvalidError } from '../public-processor/public-tx-invalid-error.js';
import { debugPrintsFromJson, type TxDebugPrints } from '../tracing/debug-print-store.js';
import { MerkleTreeId } from '../world-state/merkle-tree-id.js';
import type { WorldState } from '../world-state/world-state.js';
import { UpstreamStateNeededError, WorldStateError } from '../world-state/world-state-errors.js';
import type { PublicDataWrite, WorldStateFork } from '../world-state/world-state-fork.js';

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
  /** Milliseconds the block's txs may take to process (performance.now() clock); unset: no deadline. */
  readonly buildTimeMs?: number;
  /** State cheat codes' public data writes, applied before the txs (docs/cheat-codes.md). */
  readonly stateOverrides?: readonly PublicDataWrite[];
  /** Record the txs' debug_log prints (docs/debugging.md); off, DEBUGLOG only charges its gas. */
  readonly collectDebugLogs?: boolean;
}

/**
 * Runs one public tx of the block (public-execution-jobs.ts, processBlockTx): in a worker (a promise), or on the
 * calling thread (tests and benchmarks that build blocks synchronously). `budgetMs` is what is left of the block's
 * build time; a runner that can stop a tx answers `timeout` past it.
 */
export interface BlockTxRunner {
  run(job: BlockTxJob, budgetMs: number): BlockTxOutcome | Promise<BlockTxOutcome>;
  /** True for a runner on the calling thread: it cannot stop a tx, so blocks get no build deadline. */
  readonly inThread?: boolean;
}

/** What the builder asks its runner for: one public tx's processing, within `budgetMs`. */
interface BlockTxRequest {
  readonly job: BlockTxJob;
  readonly budgetMs: number;
}

let buildAttempts = 0;

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
 * block, the pending state overrides, then the candidate txs in priority order while they fit (tx count, mana, the checkpoint's blob
 * space), each charged its fee from the fee payer's FeeJuice balance, public calls run by the public processor;
 * then the header (global variables, state,
 * sponge blob hash, fees, mana) and the archive after it. Txs that cannot be included in any block are reported
 * as dropped; txs that do not fit this block (limits, fees below the block's) are left for later.
 */
export function buildBlock(
  input: BlockBuildInput,
  runner: BlockTxRunner,
): BlockBuildResult | Promise<BlockBuildResult> {
  const steps = blockBuildSteps(input);
  let next = steps.next();
  while (!next.done) {
    let outcome: BlockTxOutcome | Promise<BlockTxOutcome>;
    try {
      outcome = runner.run(next.value.job, next.value.budgetMs);
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    if (outcome instanceof Promise) return finishAsync(steps, outcome, runner);
    next = steps.next(outcome);
  }
  return next.value;
}

/** The rest of a build once the runner answers asynchronously (a worker): the event loop runs meanwhile. */
async function finishAsync(
  steps: Generator<BlockTxRequest, BlockBuildResult, BlockTxOutcome>,
  pending: Promise<BlockTxOutcome>,
  runner: BlockTxRunner,
): Promise<BlockBuildResult> {
  let next: IteratorResult<BlockTxRequest, BlockBuildResult>;
  try {
    next = steps.next(await pending);
  } catch (err) {
    next = steps.throw(err);
  }
  while (!next.done) {
    try {
      next = steps.next(await runner.run(next.value.job, next.value.budgetMs));
    } catch (err) {
      next = steps.throw(err);
    }
  }
  return next.value;
}

/**
 * The build itself, as steps: it yields each public tx for the runner to process and takes the outcome back,
 * so one builder serves a worker (asynchronous) and the calling thread (synchronous). With a build time, a tx is
 * started only while time is left, with what is left as its budget; past it the block closes with the txs done
 * (the rest wait for the next block), and a tx that alone used the whole budget is dropped.
 */
function* blockBuildSteps(input: BlockBuildInput): Generator<BlockTxRequest, BlockBuildResult, BlockTxOutcome> {
  const { worldState, globals, limits } = input;
  const started = performance.now();
  const deadline = input.buildTimeMs === undefined ? Number.POSITIVE_INFINITY : started + input.buildTimeMs;
  const blockKey = `${process.pid}:${++buildAttempts}`;
  const first = input.indexWithinCheckpoint === 0;
  const fork = worldState.fork();
  try {
    if (first) fork.appendCheckpointMessages(input.l1ToL2Messages);
    const overrides = input.stateOverrides ?? [];
    if (overrides.length > 0) fork.writePublicData(overrides);
    const lastArchive = fork.getArchiveSnapshot();
    const blockEndFields = first ? NUM_FIRST_BLOCK_END_BLOB_FIELDS : NUM_BLOCK_END_BLOB_FIELDS;
    let blobBudget =
      MAX_BLOB_FIELDS_PER_CHECKPOINT -
      input.sponge.numAbsorbedFields -
      blockEndFields -
      NUM_CHECKPOINT_END_MARKER_FIELDS;
    const included: Tx[] = [];
    const effects: TxEffect[] = [];
    /** The same effects as bytes, as the runner's jobs carry them. */
    const effectBytes: Uint8Array[] = [];
    const dropped: UnbuildableTx[] = [];
    const debugPrints: TxDebugPrints[] = [];
    let mana = 0;
    let totalFees = 0n;
    // Whether a public tx ran before: a tx timed out with less than the whole budget may fit the next block.
    let publicRan = false;
    for (const tx of input.txs) {
      if (included.length >= limits.maxTxs) break;
      const refusal = permanentRefusal(input, fork, tx);
      if (refusal) {
        dropped.push({ tx, reason: refusal });
        continue;
      }
      let outcome: BlockTxAnswer;
      if (tx.hasPublicCalls()) {
        // As 4.1.2 builds proposals, a public tx is only tried when its gas limit still fits the block.
        if (mana + tx.gasSettings.gasLimits.l2Gas > limits.maxL2Gas) continue;
        const left = deadline - performance.now();
        if (left <= 0) break;
        const ran: BlockTxOutcome = yield {
          job: {
            blockKey,
            parentBlock: fork.blockNumber,
            l1ToL2Messages: first ? input.l1ToL2Messages : undefined,
            ...(overrides.length > 0
              ? { stateOverrides: overrides.map(({ leafSlot, value }) => ({ leafSlot, value })) }
              : {}),
            earlier: effectBytes,
            tx: tx.toBuffer(),
            globals: globals.toJSON(),
            ...(input.collectDebugLogs ? { collectDebugLogs: true } : {}),
          },
          budgetMs: left,
        };
        if (ran.kind === 'timeout') {
          if (publicRan) break;
          dropped.push({
            tx,
            reason: `its public execution alone takes longer than the block build time of ${input.buildTimeMs} ms (--block-build-time-ms)`,
          });
          break;
        }
        outcome = ran;
        publicRan = true;
      } else {
        outcome = processPrivateTx(input, fork, tx, mana);
      }
      if (outcome.kind === 'skip') continue;
      if (outcome.kind === 'drop') {
        dropped.push({ tx, reason: outcome.reason });
        continue;
      }
      const effect = TxEffect.fromBuffer(outcome.effect);
      const fields = txEffectBlobFieldCount(effect);
      if (fields > blobBudget) continue;
      try {
        applyTxEffectToFork(fork, effect);
      } catch (err) {
        // A lazy fork's missing upstream state is fetched and the block built again, not a reason to drop.
        if (!(err instanceof WorldStateError) || err instanceof UpstreamStateNeededError) throw err;
        dropped.push({ tx, reason: err.message });
        continue;
      }
      if (outcome.kind === 'included' && outcome.debugPrints?.length) {
        debugPrints.push({ txHash: tx.txHash, prints: debugPrintsFromJson(outcome.debugPrints) });
      }
      included.push(tx);
      effects.push(effect);
      effectBytes.push(outcome.effect);
      blobBudget -= fields;
      mana += outcome.mana;
      totalFees += effect.transactionFee.value;
    }
    if (included.length === 0 && !input.allowEmpty && overrides.length === 0) {
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

/**
 * A candidate without public calls, on the calling thread (no AVM: it pays its fee from private's gas). Max fees
 * below the block's leave it for a later block; a fee payer that cannot pay drops it.
 */
function processPrivateTx(input: BlockBuildInput, fork: WorldStateFork, tx: Tx, mana: number): BlockTxAnswer {
  if (mana + tx.data.gasUsed.l2Gas > input.limits.maxL2Gas) return { kind: 'skip' };
  try {
    const { txEffect, gasUsed } = processPrivateOnlyTx(fork, input.globals, tx);
    return { kind: 'included', effect: txEffect.toBuffer(), mana: gasUsed.totalGas.l2Gas };
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
