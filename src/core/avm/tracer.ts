/**
 * Hooks for seeing inside public execution (traces and gas profiles). The interpreter only looks at a tracer
 * once per call (`ctx.tracer`, undefined when nobody traces), and a frame runs the instruction-level loop with
 * its per-step hook only when a tracer is present: the untraced path costs one property read per call.
 * Storage, nullifier, note hash, log and message events come from `TracingAvmJournal`, a journal subclass, so
 * the plain journal's hot methods stay untouched.
 */
import type { AvmInstruction } from './decoder.js';
import type { AvmDebugLog } from './journal.js';

/** Calldata or return data as the tracer reads it (the frame's lazy view, read once). */
export interface TracedData {
  bestEffortReadAll(): bigint[];
}

/** A call about to run (an enqueued call, or a nested CALL / STATICCALL). */
export interface TracedCallStart {
  readonly address: bigint;
  readonly sender: bigint;
  readonly isStatic: boolean;
  readonly calldata: TracedData;
  readonly l2Gas: number;
  readonly daGas: number;
}

/** How it ended (the interpreter's frame result, without the lazy parts the tracer does not keep). */
export interface TracedCallEnd {
  readonly reverted: boolean;
  readonly output: TracedData;
  readonly l2GasLeft: number;
  readonly daGasLeft: number;
  /** The frame's own failure message (before 4.1.2's cause chaining), when it reverted. */
  readonly message: string | undefined;
}

export interface AvmTracer {
  enterCall(call: TracedCallStart): void;
  /** The class whose bytecode the current call runs (not called when the contract has no bytecode). */
  callClass(classId: bigint): void;
  exitCall(end: TracedCallEnd): void;
  /**
   * One executed instruction of the current call: its pc, the gas left before it, and after it (0 after an
   * exceptional halt, which `halted` marks). A tracer may throw to stop the run (a bound): anything but an
   * AvmHaltError aborts the whole simulation.
   */
  step(
    pc: number,
    ins: AvmInstruction,
    l2Before: number,
    daBefore: number,
    l2After: number,
    daAfter: number,
    halted: boolean,
  ): void;
  storageRead(contractAddress: bigint, slot: bigint, value: bigint): void;
  storageWrite(
    contractAddress: bigint,
    slot: bigint,
    leafSlot: bigint,
    before: bigint,
    after: bigint,
    protocol: boolean,
  ): void;
  noteHash(contractAddress: bigint, noteHash: bigint, unique: bigint): void;
  nullifier(contractAddress: bigint, nullifier: bigint, siloed: bigint, inserted: boolean): void;
  publicLog(contractAddress: bigint, fields: readonly bigint[]): void;
  l2ToL1Message(contractAddress: bigint, recipient: bigint, content: bigint): void;
  debugLog(log: AvmDebugLog): void;
}
