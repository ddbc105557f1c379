import type { AvmRevertReason } from '../../core/avm/index.js';
import type { GlobalVariables } from '../../core/block/global-variables.js';
import { toHex64 } from '../../core/fr.js';
import type { Gas } from '../../core/gas/gas.js';
import { computeEffectiveGasFees } from '../../core/gas/transaction-fee.js';
import type { TraceGas, TxTrace, TxTraceRevert } from '../../core/trace/tx-trace.js';
import type { GasUsed } from '../../core/tx/public-simulation-output.js';
import type { Tx } from '../../core/tx/tx.js';
import { executionResultFromRevertCode } from '../../core/tx/tx-receipt.js';
import { processPrivateOnlyTx } from '../public-processor/private-only-tx.js';
import { processPublicTx } from '../public-processor/public-tx-processor.js';
import type { PublishedContracts } from '../public-processor/tx-contract-source.js';
import type { WorldStateFork } from '../world-state/world-state-fork.js';
import { CallTreeTracer, type OpcodeTraceBounds } from './call-tree-tracer.js';
import { gasProfile } from './gas-profile.js';

export interface TraceOptions {
  /** Add each call's instruction trace, within these bounds. */
  readonly opcodes?: OpcodeTraceBounds;
  /** As node_simulatePublicCalls: a fee payer that cannot pay is let through (traceCall only). */
  readonly skipFeeEnforcement?: boolean;
}

export interface TraceInput {
  /** The state the tx runs on: its block's parent with the block's earlier txs applied, or the latest state. */
  readonly state: WorldStateFork;
  readonly contracts: PublishedContracts;
  readonly globals: GlobalVariables;
  readonly tx: Tx;
  /** Where the tx was mined (traceTx); absent for a tx run as the next block would run it. */
  readonly location?: { readonly blockNumber: number; readonly txIndex: number };
  readonly options: TraceOptions;
}

const gasOf = (g: Gas): TraceGas => ({ l2Gas: g.l2Gas, daGas: g.daGas });

function revertOf(reason: AvmRevertReason): TxTraceRevert {
  return {
    message: reason.message,
    failingFunctions: reason.failingFunctions.map((f) => ({
      contractAddress: toHex64(f.contractAddress),
      ...(f.functionSelector === undefined
        ? {}
        : { selector: `0x${f.functionSelector.toString(16).padStart(8, '0')}` }),
      ...(f.functionName === undefined ? {} : { functionName: f.functionName }),
    })),
    noirCallStack: reason.noirCallStack,
    revertData: reason.revertData.map(toHex64),
  };
}

/**
 * Runs a tx through the public processor with a CallTreeTracer and returns its trace (docs/debugging.md). A pure
 * function of the state it is given, the contracts, the globals and the tx: the same inputs give the same trace,
 * whichever thread runs it. Throws what the processor throws (PublicTxInvalidError...) and
 * TraceLimitExceededError past the instruction bounds.
 */
export function traceTx(input: TraceInput): TxTrace {
  const { tx, globals } = input;
  const tracer = new CallTreeTracer(
    (_address, selector) => input.contracts.getFunctionName(selector),
    input.options.opcodes,
  );
  let revertCode: Parameters<typeof executionResultFromRevertCode>[0];
  let gasUsed: GasUsed;
  let fee: bigint;
  let revertReason: AvmRevertReason | undefined;
  if (tx.hasPublicCalls()) {
    const processed = processPublicTx({
      state: input.state,
      contracts: input.contracts,
      globals,
      tx,
      options: {
        collectDebugLogs: true,
        tracer,
        ...(input.options.skipFeeEnforcement ? { skipFeeEnforcement: true } : {}),
      },
    });
    revertCode = processed.revertCode;
    gasUsed = processed.gasUsed;
    fee = processed.txEffect.transactionFee.value;
    revertReason = processed.revertReason;
  } else {
    const processed = processPrivateOnlyTx(input.state, globals, tx);
    revertCode = processed.txEffect.revertCode;
    gasUsed = processed.gasUsed;
    fee = processed.txEffect.transactionFee.value;
  }
  const fees = computeEffectiveGasFees(globals.gasFees, tx.gasSettings);
  const trace: TxTrace = {
    txHash: tx.txHash.toString(),
    ...(input.location ?? {}),
    globals: { blockNumber: globals.blockNumber, timestamp: globals.timestamp.toString() },
    executionResult: executionResultFromRevertCode(revertCode),
    transactionFee: fee.toString(),
    gasUsed: {
      totalGas: gasOf(gasUsed.totalGas),
      teardownGas: gasOf(gasUsed.teardownGas),
      publicGas: gasOf(gasUsed.publicGas),
      billedGas: gasOf(gasUsed.billedGas),
    },
    calls: tracer.calls,
    profile: gasProfile({
      tx,
      calls: tracer.calls,
      opcodeUse: tracer.opcodeUse,
      fees,
      billed: gasOf(gasUsed.billedGas),
    }),
    instructionCount: tracer.instructionCount,
  };
  if (revertReason) trace.revertReason = revertOf(revertReason);
  if (tracer.feePayment) trace.feePayment = tracer.feePayment;
  return trace;
}
