import type { AvmDebugLog, AvmInstruction, AvmTracer, TracedCallEnd, TracedCallStart } from '../../core/avm/index.js';
import { OPCODE_NAMES, Opcode } from '../../core/avm/index.js';
import { WIRE_FORMATS } from '../../core/avm/opcodes.js';
import { toHex64 } from '../../core/fr.js';
import type { CallTrace, OpcodeStepTrace, StorageWriteTrace, TracePhase } from '../../core/trace/tx-trace.js';

/** Bounds of an instruction trace: past either, the trace stops with TraceLimitExceededError. */
export interface OpcodeTraceBounds {
  readonly maxSteps: number;
  readonly maxBytes: number;
}

/** An instruction trace went past its bounds (LIMIT_EXCEEDED on the wire, naming the bound). */
export class TraceLimitExceededError extends Error {
  override name = 'TraceLimitExceededError';

  constructor(
    message: string,
    /** Which bound it passed. */
    readonly bound: 'steps' | 'bytes',
  ) {
    super(message);
  }
}

/** Gas and count of one opcode over the whole tx (own gas: a CALL's callee is not counted in it). */
export interface OpcodeUse {
  count: number;
  l2Gas: number;
  daGas: number;
}

interface OpenCall {
  readonly node: CallTrace;
  /** Gas the last nested call used, taken off the CALL instruction that ran it. */
  childL2: number;
  childDa: number;
}

const SUFFIX = /_(8|16|32|64|128|FF)$/;
const hex = toHex64;

/** Which opcodes carry an immediate worth showing (tag, target, env var, size, SET's value). */
const HAS_IMMEDIATE: readonly boolean[] = WIRE_FORMATS.map(
  (format) => format?.some((k) => k === 'T' || k === 'I8' || k === 'I16' || k === 'L32') ?? false,
);
const IS_SET: readonly boolean[] = OPCODE_NAMES.map((n) => n.startsWith('SET_'));

/** Rough JSON size of a step, for the byte bound (keys, numbers, operands). */
function stepBytes(ins: AvmInstruction): number {
  return 80 + ins.ops.length * 7;
}

/**
 * An AvmTracer that builds the call tree of one tx (calls, gas, effects, prints) and, on request, each call's
 * instruction trace within bounds; it also totals each opcode's own gas for the profile. Effects reported outside
 * any call are the processor's own (private inserts, the fee payment): only the fee payment is kept.
 */
export class CallTreeTracer implements AvmTracer {
  readonly calls: CallTrace[] = [];
  readonly opcodeUse = new Map<string, OpcodeUse>();
  feePayment: StorageWriteTrace | undefined;
  instructionCount = 0;
  private phase: TracePhase = 'setup';
  private readonly stack: OpenCall[] = [];
  private steps = 0;
  private bytes = 0;

  constructor(
    private readonly functionName: (address: bigint, selector: number) => string | undefined,
    private readonly opcodeBounds: OpcodeTraceBounds | undefined,
  ) {}

  /** The processor enters a phase: the enqueued calls that follow belong to it. */
  enterPhase(phase: TracePhase): void {
    this.phase = phase;
  }

  enterCall(call: TracedCallStart): void {
    const calldata = call.calldata.bestEffortReadAll();
    const first = calldata[0];
    const selector = first !== undefined && first <= 0xffffffffn ? Number(first) : undefined;
    const name = selector === undefined ? undefined : this.functionName(call.address, selector);
    const node: CallTrace = {
      phase: this.phase,
      depth: this.stack.length,
      contractAddress: hex(call.address),
      sender: hex(call.sender),
      isStatic: call.isStatic,
      ...(selector === undefined ? {} : { selector: `0x${selector.toString(16).padStart(8, '0')}` }),
      ...(name === undefined ? {} : { functionName: name }),
      calldata: calldata.map(hex),
      returnData: [],
      gasGiven: { l2Gas: call.l2Gas, daGas: call.daGas },
      gasUsed: { l2Gas: 0, daGas: 0 },
      gasLeft: { l2Gas: 0, daGas: 0 },
      success: false,
      storageReads: [],
      storageWrites: [],
      nullifiers: [],
      noteHashes: [],
      publicLogs: [],
      l2ToL1Messages: [],
      debugLogs: [],
      calls: [],
      ...(this.opcodeBounds ? { opcodes: [] } : {}),
    };
    const parent = this.top();
    if (parent) parent.node.calls.push(node);
    else this.calls.push(node);
    this.stack.push({ node, childL2: 0, childDa: 0 });
  }

  callClass(classId: bigint): void {
    const open = this.top();
    if (open) open.node.classId = hex(classId);
  }

  exitCall(end: TracedCallEnd): void {
    const open = this.stack.pop();
    if (!open) return;
    const node = open.node;
    node.returnData = end.output.bestEffortReadAll().map(hex);
    node.gasLeft = { l2Gas: end.l2GasLeft, daGas: end.daGasLeft };
    node.gasUsed = { l2Gas: node.gasGiven.l2Gas - end.l2GasLeft, daGas: node.gasGiven.daGas - end.daGasLeft };
    node.success = !end.reverted;
    if (end.reverted && end.message !== undefined) node.revertMessage = end.message;
    const parent = this.top();
    if (parent) {
      parent.childL2 = node.gasUsed.l2Gas;
      parent.childDa = node.gasUsed.daGas;
    }
  }

  step(
    pc: number,
    ins: AvmInstruction,
    l2Before: number,
    daBefore: number,
    l2After: number,
    daAfter: number,
    halted: boolean,
  ): void {
    const open = this.top();
    if (!open) return;
    this.instructionCount++;
    let l2 = l2Before - l2After;
    let da = daBefore - daAfter;
    const isCall = ins.opcode === Opcode.CALL || ins.opcode === Opcode.STATICCALL;
    if (isCall) {
      if (!halted) {
        l2 -= open.childL2;
        da -= open.childDa;
      }
      open.childL2 = 0;
      open.childDa = 0;
    }
    const name = OPCODE_NAMES[ins.opcode] as string;
    const base = name.replace(SUFFIX, '');
    const use = this.opcodeUse.get(base);
    if (use) {
      use.count++;
      use.l2Gas += l2;
      use.daGas += da;
    } else this.opcodeUse.set(base, { count: 1, l2Gas: l2, daGas: da });

    const bounds = this.opcodeBounds;
    if (bounds === undefined) return;
    this.steps++;
    this.bytes += stepBytes(ins);
    if (this.steps > bounds.maxSteps) {
      throw new TraceLimitExceededError(
        `The instruction trace passed its bound of ${bounds.maxSteps} steps; trace without opcodes, or raise maxSteps`,
        'steps',
      );
    }
    if (this.bytes > bounds.maxBytes) {
      throw new TraceLimitExceededError(
        `The instruction trace passed its bound of ${bounds.maxBytes} bytes (${this.steps} steps); trace without opcodes, or raise maxBytes`,
        'bytes',
      );
    }
    const step: OpcodeStepTrace = {
      pc,
      opcode: name,
      operands: ins.ops.slice(),
      l2GasLeft: l2After,
      daGasLeft: daAfter,
    };
    if (IS_SET[ins.opcode]) step.immediate = `0x${ins.value.toString(16)}`;
    else if (HAS_IMMEDIATE[ins.opcode]) step.immediate = String(ins.imm);
    open.node.opcodes?.push(step);
  }

  storageRead(contractAddress: bigint, slot: bigint, value: bigint): void {
    this.top()?.node.storageReads.push({ contractAddress: hex(contractAddress), slot: hex(slot), value: hex(value) });
  }

  storageWrite(contractAddress: bigint, slot: bigint, leafSlot: bigint, before: bigint, after: bigint): void {
    const write = {
      contractAddress: hex(contractAddress),
      slot: hex(slot),
      leafSlot: hex(leafSlot),
      before: hex(before),
      after: hex(after),
    };
    const open = this.top();
    if (open) open.node.storageWrites.push(write);
    else this.feePayment = write;
  }

  noteHash(_contractAddress: bigint, noteHash: bigint, unique: bigint): void {
    this.top()?.node.noteHashes.push({ noteHash: hex(noteHash), unique: hex(unique) });
  }

  nullifier(_contractAddress: bigint, nullifier: bigint, siloed: bigint, inserted: boolean): void {
    this.top()?.node.nullifiers.push({ nullifier: hex(nullifier), siloed: hex(siloed), inserted });
  }

  publicLog(_contractAddress: bigint, fields: readonly bigint[]): void {
    this.top()?.node.publicLogs.push({ fields: fields.map(hex) });
  }

  l2ToL1Message(_contractAddress: bigint, recipient: bigint, content: bigint): void {
    this.top()?.node.l2ToL1Messages.push({
      recipient: `0x${recipient.toString(16).padStart(40, '0')}`,
      content: hex(content),
    });
  }

  debugLog(log: AvmDebugLog): void {
    this.top()?.node.debugLogs.push({ level: log.level, message: log.message, fields: log.fields.map(hex) });
  }

  private top(): OpenCall | undefined {
    return this.stack[this.stack.length - 1];
  }
}
