/**
 * What nodeDev_traceTx and nodeDev_traceCall answer (docs/debugging.md): the call tree of a tx's public
 * execution and its gas profile. The model is its own wire form (field elements as 0x + 64 hex, fees as decimal
 * strings, gas as numbers), so the node, the CLI and any tool read one shape. `TxTrace.fromJSON` checks the
 * structure a reader relies on and names the first wrong path.
 */
import { DecodeError } from '../serialize/decode-error.js';
import { readArray, readBoolean, readObject, readString } from '../serialize/json-reader.js';

export type TracePhase = 'setup' | 'app logic' | 'teardown';
export const TRACE_PHASES: readonly TracePhase[] = ['setup', 'app logic', 'teardown'];

export interface TraceGas {
  l2Gas: number;
  daGas: number;
}

export interface StorageReadTrace {
  contractAddress: string;
  slot: string;
  value: string;
}

export interface StorageWriteTrace {
  contractAddress: string;
  slot: string;
  /** The public data tree leaf slot, as the tx effect's public data writes name it. */
  leafSlot: string;
  before: string;
  after: string;
}

export interface NullifierTrace {
  nullifier: string;
  siloed: string;
  /** False when it collided with an existing nullifier (the call then fails). */
  inserted: boolean;
}

export interface NoteHashTrace {
  noteHash: string;
  /** Siloed and made unique, as inserted in the note hash tree. */
  unique: string;
}

export interface DebugPrintTrace {
  level: string;
  message: string;
  fields: string[];
}

export interface OpcodeStepTrace {
  pc: number;
  opcode: string;
  /** Memory-offset operands as encoded, before addressing-mode resolution. */
  operands: number[];
  /** The immediate (tag, jump target, env var, value...), when the instruction has one. */
  immediate?: string;
  l2GasLeft: number;
  daGasLeft: number;
}

export interface CallTrace {
  phase: TracePhase;
  /** 0 for an enqueued call, +1 per nested CALL / STATICCALL. */
  depth: number;
  contractAddress: string;
  sender: string;
  isStatic: boolean;
  /** Undefined when the address has no bytecode (the call fails). */
  classId?: string;
  /** calldata[0] as a 4-byte selector, when it fits. */
  selector?: string;
  /** From registered signatures, protocol contracts, or the names the node knows. */
  functionName?: string;
  calldata: string[];
  returnData: string[];
  gasGiven: TraceGas;
  gasUsed: TraceGas;
  gasLeft: TraceGas;
  success: boolean;
  /** The frame's own failure message ("Assertion failed: " for an explicit revert; decode revert data with the artifact). */
  revertMessage?: string;
  storageReads: StorageReadTrace[];
  storageWrites: StorageWriteTrace[];
  nullifiers: NullifierTrace[];
  noteHashes: NoteHashTrace[];
  publicLogs: { fields: string[] }[];
  l2ToL1Messages: { recipient: string; content: string }[];
  debugLogs: DebugPrintTrace[];
  calls: CallTrace[];
  /** Only with `opcodes`: the call's own instructions (its nested calls' are in theirs). */
  opcodes?: OpcodeStepTrace[];
}

export interface FeePart {
  l2Gas: number;
  daGas: number;
  /** What this gas cost at the tx's effective fees per gas, in fee juice base units. */
  fee: string;
}

export interface GasProfile {
  /** The fees per gas the tx paid (the block's, plus its priority fee within its max fees). */
  feesPerGas: { feePerL2Gas: string; feePerDaGas: string };
  /** The gas the fee was charged on (private, then setup and app logic; teardown at its limit). */
  billed: FeePart;
  /** What private execution and the tx overhead used (the teardown limits left out). */
  private: FeePart;
  /** Teardown is billed at its gas limits, whatever it used (zero without a teardown). */
  teardownBilled: FeePart;
  byPhase: (FeePart & { phase: TracePhase })[];
  /** Each call's own gas (its nested calls excluded), in execution order; `path` as "1.0.2". */
  byCall: (FeePart & { path: string; contractAddress: string; functionName?: string })[];
  byOpcodeFamily: (FeePart & { family: string; count: number })[];
  /** The ten opcodes that cost the most L2 gas. */
  topOpcodes: (FeePart & { opcode: string; count: number })[];
  /** DA gas by the kind of effect that cost it, private and public. */
  daByEffect: { kind: string; count: number; daGas: number; fee: string }[];
}

export interface TxTraceRevert {
  message: string;
  failingFunctions: { contractAddress: string; selector?: string; functionName?: string }[];
  noirCallStack: string[];
  revertData: string[];
}

export interface TxTrace {
  txHash: string;
  /** The block it was mined in; absent for nodeDev_traceCall (run as the next block would run it). */
  blockNumber?: number;
  txIndex?: number;
  /** The block number and timestamp the tx ran with (the next block's for traceCall). */
  globals: { blockNumber: number; timestamp: string };
  executionResult: 'success' | 'app_logic_reverted' | 'teardown_reverted' | 'both_reverted';
  revertReason?: TxTraceRevert;
  transactionFee: string;
  gasUsed: { totalGas: TraceGas; teardownGas: TraceGas; publicGas: TraceGas; billedGas: TraceGas };
  /** Enqueued calls in the order they ran (setup, app logic, teardown), each with its nested calls. */
  calls: CallTrace[];
  /** The fee payer's FeeJuice balance write, outside any call. */
  feePayment?: StorageWriteTrace;
  profile: GasProfile;
  /** Instructions executed, nested calls included. */
  instructionCount: number;
}

const EXECUTION_RESULTS = ['success', 'app_logic_reverted', 'teardown_reverted', 'both_reverted'];

function readCall(v: unknown, path: string): CallTrace {
  const o = readObject(v, path);
  if (!TRACE_PHASES.includes(o.phase as TracePhase)) {
    throw new DecodeError(`${path}.phase`, `expected one of ${TRACE_PHASES.join(', ')}`);
  }
  readString(o.contractAddress, path, 'contractAddress');
  readBoolean(o.success, path, 'success');
  for (const k of ['calldata', 'returnData', 'storageReads', 'storageWrites', 'debugLogs'] as const) {
    readArray(o[k], path, k);
  }
  for (const k of ['gasGiven', 'gasUsed', 'gasLeft'] as const) readGas(o[k], `${path}.${k}`);
  readArray(o.calls, path, 'calls').forEach((c, i) => {
    readCall(c, `${path}.calls[${i}]`);
  });
  return o as unknown as CallTrace;
}

function readGas(v: unknown, path: string): TraceGas {
  const o = readObject(v, path);
  if (typeof o.l2Gas !== 'number' || typeof o.daGas !== 'number') {
    throw new DecodeError(path, 'expected { l2Gas: number, daGas: number }');
  }
  return o as unknown as TraceGas;
}

export const TxTrace = {
  fromJSON(json: unknown, path = ''): TxTrace {
    const o = readObject(json, path);
    readString(o.txHash, path, 'txHash');
    if (!EXECUTION_RESULTS.includes(o.executionResult as string)) {
      throw new DecodeError(`${path}.executionResult`, `expected one of ${EXECUTION_RESULTS.join(', ')}`);
    }
    readString(o.transactionFee, path, 'transactionFee');
    const gasUsed = readObject(o.gasUsed, path, 'gasUsed');
    for (const k of ['totalGas', 'teardownGas', 'publicGas', 'billedGas']) readGas(gasUsed[k], `${path}.gasUsed.${k}`);
    readArray(o.calls, path, 'calls').forEach((c, i) => {
      readCall(c, `${path}.calls[${i}]`);
    });
    const profile = readObject(o.profile, path, 'profile');
    for (const k of ['byPhase', 'byCall', 'byOpcodeFamily', 'topOpcodes', 'daByEffect']) readArray(profile[k], path, k);
    return o as unknown as TxTrace;
  },
  toJSON(trace: TxTrace): unknown {
    return trace;
  },
};

/** Every call of the tree, depth first, in execution order. */
export function flattenCalls(calls: readonly CallTrace[]): CallTrace[] {
  const out: CallTrace[] = [];
  const walk = (c: CallTrace) => {
    out.push(c);
    for (const child of c.calls) walk(child);
  };
  for (const c of calls) walk(c);
  return out;
}
