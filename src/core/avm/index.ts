/**
 * Public entry points of the AVM: run an enqueued public call (or a raw bytecode program) synchronously and get
 * back what Aztec 4.1.2's simulator would report: revert status, output, gas, the revert reason with its call
 * stack, and the effects on the world. See avm-world.ts for the design.
 */
import { DEFAULT_MAX_DEBUG_LOG_MEMORY_READS } from '../constants.js';
import type { AvmContractSource, AvmGas, AvmGlobals, AvmWorldStateReader } from './avm-world.js';
import { AvmInternalError } from './errors.js';
import { type AvmExecutionConfig, type CallContext, LazyData, type RevertReasonNode } from './frame.js';
import { runCall } from './interpreter.js';
import { type AvmDebugLog, AvmJournal, type AvmSideEffects } from './journal.js';
import { type AvmProgramCache, DEFAULT_PROGRAM_CACHE } from './program-cache.js';
import type { AvmTracer } from './tracer.js';
import { TracingAvmJournal } from './tracing-journal.js';

export type {
  AvmContractClass,
  AvmContractInstance,
  AvmContractSource,
  AvmGas,
  AvmGlobals,
  AvmWorldStateReader,
} from './avm-world.js';
export { AvmDeadlineError, withAvmDeadline } from './deadline.js';
export type { AvmInstruction } from './decoder.js';
export { AvmHaltError, AvmInternalError } from './errors.js';
export type { AvmExecutionConfig, CallContext, RevertReasonNode } from './frame.js';
export { InMemoryAvmWorld, type InMemoryAvmWorldOptions } from './in-memory-avm-world.js';
export {
  type AvmDebugLog,
  AvmJournal,
  type AvmJournalOptions,
  type AvmL2ToL1Message,
  type AvmPublicDataWrite,
  type AvmPublicLog,
  type AvmSideEffects,
  isProtocolContractAddress,
} from './journal.js';
export { OPCODE_NAMES, Opcode } from './opcodes.js';
export { AvmProgramCache } from './program-cache.js';
export type { AvmTracer, TracedCallEnd, TracedCallStart } from './tracer.js';
export { TracingAvmJournal } from './tracing-journal.js';

/** A function on the failing call path, outermost first (4.1.2's FailingFunction, without a contract name). */
export interface AvmFailingFunction {
  contractAddress: bigint;
  /** calldata[0] when it fits a selector (4 bytes). */
  functionSelector?: number;
  /** From the contract source's debug names, when known. */
  functionName?: string;
}

/** Why a call reverted, shaped like 4.1.2's SimulationError. */
export interface AvmRevertReason {
  /** The innermost failure's message ("Assertion failed: " for an explicit REVERT). */
  message: string;
  failingFunctions: AvmFailingFunction[];
  /** Brillig-style opcode locations ("0.<pc>") of the innermost failing frame, outermost internal call first. */
  noirCallStack: string[];
  /** The reverted call's output, at most 10000 fields. */
  revertData: bigint[];
}

export interface AvmCallResult {
  reverted: boolean;
  /** Return data (or revert data), at most 10000 fields; empty after an exceptional halt. */
  output: bigint[];
  gasLeft: AvmGas;
  gasUsed: AvmGas;
  revertReason?: AvmRevertReason;
  /**
   * The journal's effects after the call. Without a caller-provided journal these are the call's own effects (none
   * if it reverted); with one, everything the tx has accumulated so far.
   */
  effects: AvmSideEffects;
  /** Debug logs recorded so far in the journal (only with `collectDebugLogs`); they survive reverts. */
  debugLogs: AvmDebugLog[];
  /** The journal the call ran on (the caller's, or a fresh one). */
  journal: AvmJournal;
}

export interface ExecuteCallParams {
  world: AvmWorldStateReader;
  contracts: AvmContractSource;
  globals: AvmGlobals;
  /** The contract being called (the frame's ADDRESS). */
  address: bigint;
  sender: bigint;
  isStaticCall?: boolean;
  /** Full calldata, selector first. */
  calldata: readonly bigint[];
  gasLimit: AvmGas;
  /** What GETENVVAR TRANSACTIONFEE answers: 0 in setup and app logic, the tx fee in teardown. */
  transactionFee?: bigint;
  /**
   * The tx's journal. Given: the call runs on it without a checkpoint of its own (the tx processor checkpoints per
   * phase and reverts the phase when a call reverts). Omitted: a fresh journal is made, and a reverted call's
   * effects are dropped, as an app-logic revert would.
   */
  journal?: AvmJournal;
  /** The tx's first nullifier (seeds public note hash nonces); required when no journal is given. */
  firstNullifier?: bigint;
  config?: Partial<AvmExecutionConfig>;
  /** Decoded-program cache; defaults to a process-wide one. */
  programs?: AvmProgramCache;
  /** Sees every call, instruction and effect (traces, profiles); leave it out for plain execution. */
  tracer?: AvmTracer;
}

function prepare(params: ExecuteCallParams): { ctx: CallContext; ownJournal: boolean } {
  let journal = params.journal;
  const ownJournal = journal === undefined;
  if (journal === undefined) {
    if (params.firstNullifier === undefined) {
      throw new TypeError('executeEnqueuedCall: firstNullifier is required when no journal is given');
    }
    const options = {
      world: params.world,
      contracts: params.contracts,
      firstNullifier: params.firstNullifier,
      timestamp: params.globals.timestamp,
    };
    journal = params.tracer ? new TracingAvmJournal(options, params.tracer) : new AvmJournal(options);
  } else if (journal.world !== params.world || journal.contracts !== params.contracts) {
    throw new TypeError('executeEnqueuedCall: the journal was made for another world or contract source');
  }
  if (!Number.isSafeInteger(params.gasLimit.l2Gas) || params.gasLimit.l2Gas < 0) {
    throw new RangeError(`gasLimit.l2Gas must be a non-negative integer, got ${params.gasLimit.l2Gas}`);
  }
  if (!Number.isSafeInteger(params.gasLimit.daGas) || params.gasLimit.daGas < 0) {
    throw new RangeError(`gasLimit.daGas must be a non-negative integer, got ${params.gasLimit.daGas}`);
  }
  const config: AvmExecutionConfig = {
    collectDebugLogs: params.config?.collectDebugLogs ?? false,
    maxDebugLogMemoryReads: params.config?.maxDebugLogMemoryReads ?? DEFAULT_MAX_DEBUG_LOG_MEMORY_READS,
  };
  return {
    ctx: {
      journal,
      globals: params.globals,
      transactionFee: params.transactionFee ?? 0n,
      config,
      programs: params.programs ?? DEFAULT_PROGRAM_CACHE,
      tracer: params.tracer,
    },
    ownJournal,
  };
}

/** 4.1.2's createSimulationError: the cause chain flattened, the innermost message and opcode stack. */
function finalizeRevertReason(node: RevertReasonNode, revertData: bigint[]): AvmRevertReason {
  const failingFunctions: AvmFailingFunction[] = [];
  let innermost = node;
  for (let n: RevertReasonNode | undefined = node; n !== undefined; n = n.cause) {
    const fn: AvmFailingFunction = { contractAddress: n.contractAddress };
    if (n.functionSelector !== undefined) fn.functionSelector = n.functionSelector;
    if (n.functionName !== undefined) fn.functionName = n.functionName;
    failingFunctions.push(fn);
    innermost = n;
  }
  return { message: innermost.message, failingFunctions, noirCallStack: innermost.noirCallStack, revertData };
}

function run(params: ExecuteCallParams, bytecode?: Uint8Array): AvmCallResult {
  const { ctx, ownJournal } = prepare(params);
  const journal = ctx.journal;
  if (ownJournal) journal.checkpoint();
  const program = bytecode === undefined ? undefined : ctx.programs.forBytecode(bytecode);
  const r = runCall(
    ctx,
    {
      address: params.address,
      sender: params.sender,
      isStatic: params.isStaticCall ?? false,
      calldata: LazyData.ofArray(params.calldata),
      l2Gas: params.gasLimit.l2Gas,
      daGas: params.gasLimit.daGas,
    },
    program,
  );
  if (ownJournal) {
    if (r.reverted) journal.revertCheckpoint();
    else journal.commitCheckpoint();
  }
  const output = r.output.bestEffortReadAll();
  const result: AvmCallResult = {
    reverted: r.reverted,
    output,
    gasLeft: { l2Gas: r.l2GasLeft, daGas: r.daGasLeft },
    gasUsed: { l2Gas: params.gasLimit.l2Gas - r.l2GasLeft, daGas: params.gasLimit.daGas - r.daGasLeft },
    effects: journal.snapshotSideEffects(),
    debugLogs: journal.debugLogs.slice(),
    journal,
  };
  if (r.reason !== undefined) result.revertReason = finalizeRevertReason(r.reason, output);
  return result;
}

/**
 * Runs one enqueued public call: looks up the contract's current class and bytecode, runs it from pc 0 with the
 * given gas. A contract with no bytecode reverts and consumes all the gas, as in 4.1.2. Throws
 * `AvmInternalError` for what 4.1.2 treats as unrecoverable (the tx cannot be simulated).
 */
export function executeEnqueuedCall(params: ExecuteCallParams): AvmCallResult {
  return run(params);
}

/**
 * Runs a raw bytecode program as the top frame at `params.address`, without looking the contract up (random
 * program tests, benchmarks). Nested calls still resolve through `params.contracts`.
 */
export function executeBytecode(bytecode: Uint8Array, params: ExecuteCallParams): AvmCallResult {
  if (bytecode.length === 0) throw new AvmInternalError("AVM simulator can't execute empty bytecode");
  return run(params, bytecode);
}
