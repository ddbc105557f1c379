/**
 * A call frame (4.1.2's machine state and execution environment in one object) and the pieces every opcode
 * handler uses: gas consumption, operand address resolution, and the lazy calldata / return-data views.
 */
import { AVM_BEST_EFFORT_READ_CAP, AVM_MEMORY_SIZE } from '../constants.js';
import type { AvmGlobals } from './avm-world.js';
import type { AvmInstruction, AvmProgram } from './decoder.js';
import { AvmHaltError, outOfGas } from './errors.js';
import type { AvmJournal } from './journal.js';
import { TaggedMemory } from './memory.js';
import type { AvmProgramCache } from './program-cache.js';
import type { AvmTracer } from './tracer.js';

export interface AvmExecutionConfig {
  /** Run DEBUGLOG (checks and records the logs); off, it only charges gas and resolves operands. */
  collectDebugLogs: boolean;
  /** Tx-wide budget of memory cells DEBUGLOG may read; exceeding it aborts the simulation. */
  maxDebugLogMemoryReads: number;
}

/** What every frame of one enqueued call shares. */
export interface CallContext {
  journal: AvmJournal;
  globals: AvmGlobals;
  transactionFee: bigint;
  config: AvmExecutionConfig;
  programs: AvmProgramCache;
  /** Set only for a traced run (docs/debugging.md); the untraced path never looks further. */
  tracer: AvmTracer | undefined;
}

/**
 * Calldata or return data: an array (an enqueued call's calldata) or a window on a frame's memory, read lazily
 * as 4.1.2 does (a callee sees its caller's memory, which cannot change while the callee runs; a finished frame's
 * memory no longer changes).
 */
export class LazyData {
  static readonly EMPTY = new LazyData([], undefined, 0, 0);

  constructor(
    readonly array: readonly bigint[] | undefined,
    readonly memory: TaggedMemory | undefined,
    readonly offset: number,
    readonly size: number,
  ) {}

  static ofArray(values: readonly bigint[]): LazyData {
    return new LazyData(values, undefined, 0, values.length);
  }

  static ofMemory(memory: TaggedMemory, offset: number, size: number): LazyData {
    return new LazyData(undefined, memory, offset, size);
  }

  length(): number {
    return this.size;
  }

  read(index: number): bigint | undefined {
    if (this.array !== undefined) return this.array[index];
    if (index >= this.size) return undefined;
    return (this.memory as TaggedMemory).get(this.offset + index);
  }

  /** Values [start, end), clamped to the data; memory windows are range checked like a slice read. */
  slice(start: number, end: number): bigint[] {
    if (this.array !== undefined) return this.array.slice(start, end);
    const length = Math.max(0, Math.min(end, this.size) - start);
    return (this.memory as TaggedMemory).getSlice(this.offset + start, length);
  }

  /** All values, at most `cap` (what results and revert reasons carry). */
  bestEffortReadAll(cap = AVM_BEST_EFFORT_READ_CAP): bigint[] {
    if (this.array !== undefined) return this.array.slice(0, cap);
    const size = Math.min(this.size, cap, AVM_MEMORY_SIZE - this.offset);
    return (this.memory as TaggedMemory).getSlice(this.offset, size);
  }
}

/** A node of the revert-reason chain 4.1.2 builds (its AvmRevertReason with `cause`). */
export interface RevertReasonNode {
  message: string;
  contractAddress: bigint;
  functionSelector: number | undefined;
  functionName: string | undefined;
  noirCallStack: string[];
  cause: RevertReasonNode | undefined;
}

export class Frame {
  readonly memory = new TaggedMemory();
  pc = 0;
  nextPc = 0;
  /** Internal call stack as (callPc, returnPc) pairs. */
  readonly internalCallStack: number[] = [];
  nestedReturndata: LazyData = LazyData.EMPTY;
  nestedCallSuccess = false;
  /** The last failed nested call's revert data and reason, to chain reasons when this frame re-reverts. */
  collectedRevertInfo: { revertData: bigint[]; reason: RevertReasonNode } | undefined;
  halted = false;
  reverted = false;
  output: LazyData = LazyData.EMPTY;

  constructor(
    readonly ctx: CallContext,
    readonly address: bigint,
    readonly sender: bigint,
    readonly isStatic: boolean,
    readonly calldata: LazyData,
    public l2GasLeft: number,
    public daGasLeft: number,
    readonly program: AvmProgram,
  ) {}
}

/** Charges gas; if either dimension would go negative, both drop to zero and the frame halts. */
export function consumeGas(f: Frame, l2: number, da: number): void {
  const l2Short = f.l2GasLeft < l2;
  const daShort = f.daGasLeft < da;
  if (l2Short || daShort) {
    f.l2GasLeft = 0;
    f.daGasLeft = 0;
    throw outOfGas(l2Short, daShort);
  }
  f.l2GasLeft -= l2;
  f.daGasLeft -= da;
}

/** Resolved operand addresses of the instruction being executed (read them before running anything else). */
export const R = new Float64Array(8);

/** Resolves the instruction's memory operands into `R`: relative (base mem[0]) first, then indirect. */
export function resolve(f: Frame, ins: AvmInstruction): Float64Array {
  const ops = ins.ops;
  const mode = ins.mode;
  if (mode === 0) {
    for (let i = 0; i < ops.length; i++) R[i] = ops[i] as number;
    return R;
  }
  let base = -1;
  for (let i = 0; i < ops.length; i++) {
    const offset = ops[i] as number;
    let addr = offset;
    const m = (mode >> (2 * i)) & 3;
    if (m & 2) {
      if (base < 0) base = f.memory.readAddress(0, 'base');
      addr += base;
      if (addr >= AVM_MEMORY_SIZE) {
        throw new AvmHaltError(`Relative address out of range. Base address ${base}, relative offset ${offset}`);
      }
    }
    if (m & 1) addr = f.memory.readAddress(addr, 'indirect');
    R[i] = addr;
  }
  return R;
}
