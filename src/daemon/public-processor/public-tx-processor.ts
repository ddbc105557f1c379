import {
  type AvmGlobals,
  AvmHaltError,
  AvmInternalError,
  AvmJournal,
  type AvmProgramCache,
  type AvmRevertReason,
  type AvmTracer,
  executeEnqueuedCall,
  TracingAvmJournal,
} from '../../core/avm/index.js';
import { AztecAddress } from '../../core/aztec-address.js';
import type { GlobalVariables } from '../../core/block/global-variables.js';
import { FEE_JUICE_ADDRESS, FEE_JUICE_BALANCES_SLOT } from '../../core/constants.js';
import { Fr } from '../../core/fr.js';
import { deriveStorageSlotInMap } from '../../core/hash/siloing.js';
import type { PrivateToPublicAccumulatedData } from '../../core/kernel/private-to-public-accumulated-data.js';
import type { PublicCallRequest } from '../../core/kernel/public-call-request.js';
import type { ContractClassLog } from '../../core/logs/contract-class-log.js';
import { DebugLog } from '../../core/logs/debug-log.js';
import type { PrivateLog } from '../../core/logs/private-log.js';
import type { GasUsed } from '../../core/tx/public-simulation-output.js';
import { RevertCode } from '../../core/tx/revert-code.js';
import type { Tx } from '../../core/tx/tx.js';
import type { TxEffect } from '../../core/tx/tx-effect.js';
import type { WorldStateView } from '../world-state/world-state-view.js';
import { buildPublicTxEffect } from './public-tx-effect.js';
import { PublicTxGas } from './public-tx-gas.js';
import { PublicTxInvalidError } from './public-tx-invalid-error.js';
import { type PublishedContracts, TxContractSource } from './tx-contract-source.js';
import { WorldStateAvmReader } from './world-state-avm-reader.js';

export interface PublicTxOptions {
  /** Simulation only: a fee payer that cannot pay (or none) is let through, as 4.1.2's fee estimation does. */
  readonly skipFeeEnforcement?: boolean;
  /** Record the DEBUGLOG output of the tx's calls. */
  readonly collectDebugLogs?: boolean;
  readonly maxDebugLogMemoryReads?: number;
  /** Decoded-program cache shared across txs (bytecode is immutable per class). */
  readonly programs?: AvmProgramCache;
  /** Sees the tx's calls, instructions and effects (nodeDev_traceTx); absent for plain execution. */
  readonly tracer?: PublicTxTracer;
}

/** An AVM tracer that is also told which phase the enqueued calls that follow belong to. */
export interface PublicTxTracer extends AvmTracer {
  enterPhase(phase: Phase): void;
}

export interface PublicTxInput {
  /**
   * The state the tx runs on: a block's fork with its earlier txs applied, or any view for a simulation. It is
   * only read: a block builder applies the resulting effect (applyTxEffectToFork) once it decides to include the
   * tx, before the block's next tx runs.
   */
  readonly state: WorldStateView;
  readonly contracts: PublishedContracts;
  readonly globals: GlobalVariables;
  readonly tx: Tx;
  readonly options?: PublicTxOptions;
}

/** A tx with public calls, processed (what a block includes and what simulation answers with). */
export interface ProcessedPublicTx {
  readonly tx: Tx;
  readonly globalVariables: GlobalVariables;
  readonly txEffect: TxEffect;
  readonly revertCode: RevertCode;
  /** The first revert's reason (app logic wins over teardown); "TX reverted" when a reverted tx has none. */
  readonly revertReason: AvmRevertReason | undefined;
  readonly gasUsed: GasUsed;
  /** One entry per app-logic call that ran: its return data (revert data when it reverted). */
  readonly appLogicReturnValues: readonly (readonly bigint[])[];
  readonly debugLogs: readonly DebugLog[];
  /** The selector of the call that printed each debug log, when known (to name its function in the node log). */
  readonly debugLogSelectors: readonly (number | undefined)[];
}

export type Phase = 'setup' | 'app logic' | 'teardown';

interface Call {
  readonly request: PublicCallRequest;
  readonly calldata: readonly bigint[];
}

/**
 * Runs the public part of a tx the way 4.1.2's PublicTxSimulator does, on the AVM (src/core/avm), over a state it
 * only reads:
 *
 * 1. the non-revertible side effects from private (nullifiers, note hashes as they are, messages) and the
 *    contracts the tx deploys non-revertibly; a collision or a limit makes the tx invalid;
 * 2. setup calls; a revert makes the tx invalid;
 * 3. a checkpoint, then the revertible side effects from private (note hashes made unique here), the revertible
 *    deployments and the app-logic calls; the first revert (or a failed insert) discards everything since the
 *    checkpoint and stops the phase;
 * 4. the teardown call with its own gas budget, TRANSACTIONFEE set; its revert discards what the checkpoint holds;
 * 5. the fee: the fee payer's FeeJuice balance minus the fee, written as the tx's protocol write;
 * 6. the TxEffect (squashed public data writes), for a block builder to apply to its fork.
 *
 * Throws PublicTxInvalidError for a tx no block may include, and InsufficientFeePerGasError (from the fee) when
 * its max fees are below the block's.
 */
export function processPublicTx(input: PublicTxInput): ProcessedPublicTx {
  const { tx, globals } = input;
  const options = input.options ?? {};
  const forPublic = tx.data.forPublic;
  if (!forPublic) throw new PublicTxInvalidError(`Tx ${tx.txHash} has no public calls`);
  const nonRevertible = forPublic.nonRevertibleAccumulatedData;
  const revertible = forPublic.revertibleAccumulatedData;
  const setup = withCalldata(tx, tx.data.getNonRevertiblePublicCallRequests());
  const appLogic = withCalldata(tx, tx.data.getRevertiblePublicCallRequests());
  const teardownRequest = tx.data.getTeardownPublicCallRequest();
  const teardown = teardownRequest ? withCalldata(tx, [teardownRequest]) : [];
  const firstNullifier = nonRevertible.nullifiers[0]?.value ?? 0n;

  const contracts = new TxContractSource(input.contracts);
  const journalOptions = {
    world: new WorldStateAvmReader(input.state),
    contracts,
    firstNullifier,
    timestamp: globals.timestamp,
  };
  const tracer = options.tracer;
  const journal = tracer ? new TracingAvmJournal(journalOptions, tracer) : new AvmJournal(journalOptions);
  const avmGlobals: AvmGlobals = {
    chainId: globals.chainId.value,
    version: globals.version.value,
    blockNumber: globals.blockNumber,
    timestamp: globals.timestamp,
    feePerDaGas: globals.gasFees.feePerDaGas,
    feePerL2Gas: globals.gasFees.feePerL2Gas,
  };
  const gas = new PublicTxGas(tx.gasSettings, tx.data.gasUsed, teardown.length > 0);
  let revertCode: RevertCode = RevertCode.OK;
  let revertReason: AvmRevertReason | undefined;
  const revert = (phase: Phase, reason: AvmRevertReason | undefined) => {
    revertReason ??= reason;
    if (phase === 'app logic') revertCode = RevertCode.APP_LOGIC_REVERTED;
    else
      revertCode =
        revertCode === RevertCode.APP_LOGIC_REVERTED ? RevertCode.BOTH_REVERTED : RevertCode.TEARDOWN_REVERTED;
  };

  /** Runs one phase's calls until one reverts; returns each call's output and the revert, if any. */
  const runPhase = (phase: Phase, calls: readonly Call[]) => {
    const outputs: bigint[][] = [];
    tracer?.enterPhase(phase);
    for (const call of calls) {
      const isTeardown = phase === 'teardown';
      const gasLimit = gas.leftFor(isTeardown);
      const result = executeEnqueuedCall({
        world: journal.world,
        contracts,
        globals: avmGlobals,
        address: call.request.contractAddress.value,
        sender: call.request.msgSender.value,
        isStaticCall: call.request.isStaticCall,
        calldata: call.calldata,
        gasLimit,
        transactionFee: isTeardown ? gas.transactionFee(globals.gasFees) : 0n,
        journal,
        config: {
          collectDebugLogs: options.collectDebugLogs ?? false,
          ...(options.maxDebugLogMemoryReads === undefined
            ? {}
            : { maxDebugLogMemoryReads: options.maxDebugLogMemoryReads }),
        },
        ...(options.programs ? { programs: options.programs } : {}),
        ...(tracer ? { tracer } : {}),
      });
      gas.consume(isTeardown, result.gasUsed);
      outputs.push(result.output);
      if (result.reverted) return { outputs, reverted: true, reason: result.revertReason };
    }
    return { outputs, reverted: false, reason: undefined };
  };

  try {
    insertNonRevertibles(journal, nonRevertible);
    addDeployments(
      contracts,
      tx.getContractClassLogs().slice(0, nonRevertible.getNonEmptyContractClassLogsHashes().length),
      nonRevertible.getNonEmptyPrivateLogs(),
    );

    if (setup.length > 0) {
      const r = runPhase('setup', setup);
      if (r.reverted) {
        throw new PublicTxInvalidError(
          `[SETUP] UNRECOVERABLE ERROR! The transaction will be thrown out. ${r.reason?.message ?? ''}`,
        );
      }
    }

    journal.checkpoint();
    contracts.checkpoint();
    let appLogicReturnValues: bigint[][] = [];
    const insertFailure = insertRevertibles(journal, revertible);
    if (insertFailure) {
      revert('app logic', insertFailure);
    } else {
      addDeployments(
        contracts,
        tx.getContractClassLogs().slice(nonRevertible.getNonEmptyContractClassLogsHashes().length),
        revertible.getNonEmptyPrivateLogs(),
      );
      if (appLogic.length > 0) {
        const r = runPhase('app logic', appLogic);
        appLogicReturnValues = r.outputs;
        if (r.reverted) revert('app logic', r.reason);
      }
    }
    if (revertCode !== RevertCode.OK) {
      journal.revertCheckpoint();
      contracts.revertCheckpoint();
      journal.checkpoint();
      contracts.checkpoint();
    }

    const teardownResult = teardown.length > 0 ? runPhase('teardown', teardown) : undefined;
    if (teardownResult?.reverted) {
      revert('teardown', teardownResult.reason);
      journal.revertCheckpoint();
      contracts.revertCheckpoint();
    } else {
      journal.commitCheckpoint();
      contracts.commitCheckpoint();
    }

    const gasUsed = gas.final();
    const transactionFee = gas.transactionFee(globals.gasFees);
    payFee(journal, tx.data.feePayer.value, transactionFee, options.skipFeeEnforcement ?? false);

    const txEffect = buildPublicTxEffect(tx, globals, revertCode, transactionFee, journal.getSideEffects());
    const finalReason =
      revertReason ??
      (revertCode === RevertCode.OK
        ? undefined
        : { message: 'TX reverted', failingFunctions: [], noirCallStack: [], revertData: [] });
    return {
      tx,
      globalVariables: globals,
      txEffect,
      revertCode,
      revertReason: finalReason,
      gasUsed,
      appLogicReturnValues,
      debugLogSelectors: journal.debugLogs.map((l) => l.functionSelector),
      debugLogs: journal.debugLogs.map(
        (l) =>
          new DebugLog(
            new AztecAddress(l.contractAddress),
            l.level,
            l.message,
            l.fields.map((v) => new Fr(v)),
          ),
      ),
    };
  } catch (err) {
    if (err instanceof AvmInternalError || err instanceof AvmHaltError) {
      throw new PublicTxInvalidError(err.message, { cause: err });
    }
    throw err;
  }
}

/** The enqueued calls with their calldata (the tx carries it beside the requests, matched by hash). */
function withCalldata(tx: Tx, requests: readonly PublicCallRequest[]): Call[] {
  return requests.map((request) => {
    const preimage = tx.publicFunctionCalldata.find((c) => c.hash.equals(request.calldataHash));
    if (!preimage) {
      throw new PublicTxInvalidError(
        `Tx ${tx.txHash} lacks the calldata of its call to ${request.contractAddress} (hash ${request.calldataHash})`,
      );
    }
    return { request, calldata: preimage.values.map((f) => f.value) };
  });
}

/** A publication whose class id does not match its contents makes the tx invalid (4.1.2 throws there too). */
function addDeployments(
  contracts: TxContractSource,
  classLogs: readonly ContractClassLog[],
  privateLogs: readonly PrivateLog[],
): void {
  try {
    contracts.addDeployments(classLogs, privateLogs);
  } catch (err) {
    throw new PublicTxInvalidError(`The tx publishes an invalid contract: ${(err as Error).message}`, { cause: err });
  }
}

/** Step 1: private's non-revertible effects. Errors propagate: the tx is invalid. */
function insertNonRevertibles(journal: AvmJournal, data: PrivateToPublicAccumulatedData): void {
  for (const n of data.getNonEmptyNullifiers()) journal.insertSiloedNullifier(n.value);
  // Private already made these unique.
  for (const h of data.getNonEmptyNoteHashes()) journal.insertUniqueNoteHash(h.value);
  for (const m of data.getNonEmptyL2ToL1Msgs()) {
    journal.insertL2ToL1Message(m.contractAddress.value, m.recipient.toBigInt(), m.content.value);
  }
}

/**
 * Step 3's inserts: private's revertible effects. Private cannot know where its revertible note hashes land, so
 * they come siloed but not unique, and get their nonce here. A collision or a limit reverts app logic.
 */
function insertRevertibles(journal: AvmJournal, data: PrivateToPublicAccumulatedData): AvmRevertReason | undefined {
  const attempt = (what: string, insert: () => void): AvmRevertReason | undefined => {
    try {
      insert();
      return undefined;
    } catch (err) {
      if (!(err instanceof AvmHaltError)) throw err;
      return {
        message: `Error encountered when inserting revertible ${what} from private.\nDetails: ${err.message}`,
        failingFunctions: [],
        noirCallStack: [],
        revertData: [],
      };
    }
  };
  return (
    attempt('nullifiers', () => {
      for (const n of data.getNonEmptyNullifiers()) journal.insertSiloedNullifier(n.value);
    }) ??
    attempt('note hashes', () => {
      for (const h of data.getNonEmptyNoteHashes()) journal.insertSiloedNoteHash(h.value);
    }) ??
    attempt('L2-to-L1 messages', () => {
      for (const m of data.getNonEmptyL2ToL1Msgs()) {
        journal.insertL2ToL1Message(m.contractAddress.value, m.recipient.toBigInt(), m.content.value);
      }
    })
  );
}

/**
 * Step 5: the fee payer's FeeJuice balance pays the fee, as a protocol write. Without enforcement (simulation) a
 * short balance is treated as exactly the fee, and a zero fee payer pays nothing.
 */
function payFee(journal: AvmJournal, feePayer: bigint, fee: bigint, skipFeeEnforcement: boolean): void {
  if (feePayer === 0n) {
    if (!skipFeeEnforcement) {
      throw new PublicTxInvalidError('Fee payer cannot be 0 unless skipping fee enforcement for simulation');
    }
    return;
  }
  const slot = deriveStorageSlotInMap(FEE_JUICE_BALANCES_SLOT, feePayer);
  let balance = journal.readStorage(FEE_JUICE_ADDRESS, slot);
  if (balance < fee) {
    if (!skipFeeEnforcement) {
      throw new PublicTxInvalidError(
        `Not enough balance for fee payer to pay for transaction (got ${balance} needs ${fee})`,
      );
    }
    balance = fee;
  }
  journal.writeStorage(FEE_JUICE_ADDRESS, slot, balance - fee, true);
}
