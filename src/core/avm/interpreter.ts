/**
 * The fetch-execute loop, nested calls, and revert reasons.
 *
 * A call runs its contract's whole bytecode from pc 0 with fresh memory. Each step: fetch (decoded once per
 * bytecode), the static-call check for the opcodes that do it first, base gas, the opcode's handler, then the pc
 * moves on and must still point into the bytecode. A handler's `AvmHaltError` is an exceptional halt: the frame
 * reverts with no output and no gas left. CALL/STATICCALL run the callee synchronously inside a journal
 * checkpoint, committed if it succeeds and reverted otherwise; the caller continues either way.
 */

import { MEM_TAG_FF, MEM_TAG_U32 } from '../constants.js';
import { toHex64 } from '../fr.js';
import { tickAvmDeadline } from './deadline.js';
import type { AvmInstruction, AvmProgram } from './decoder.js';
import { FETCH_ERROR_OPCODE } from './decoder.js';
import { AvmHaltError, AvmInternalError, staticCallAlteration } from './errors.js';
import { type CallContext, consumeGas, Frame, LazyData, type RevertReasonNode, resolve } from './frame.js';
import { HANDLERS } from './handlers.js';
import type { AvmDebugLog } from './journal.js';
import { Opcode } from './opcodes.js';
import type { AvmTracer } from './tracer.js';

/** How a call frame ended. */
export interface FrameResult {
  reverted: boolean;
  output: LazyData;
  l2GasLeft: number;
  daGasLeft: number;
  reason: RevertReasonNode | undefined;
}

/** calldata[0] as a function selector (when it fits in 4 bytes) and its debug name. */
function failingFunction(ctx: CallContext, address: bigint, calldata: LazyData) {
  const first = calldata.read(0);
  if (first === undefined || first > 0xffffffffn) {
    return { contractAddress: address, functionSelector: undefined, functionName: undefined };
  }
  const selector = Number(first);
  return {
    contractAddress: address,
    functionSelector: selector,
    functionName: ctx.journal.getDebugFunctionName(address, selector),
  };
}

function sameData(a: readonly bigint[], b: readonly bigint[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The reason a frame reverted. When its revert data equals that of the last failed nested call, 4.1.2 assumes
 * the frame is re-throwing that failure: the nested reason becomes the cause and its message is used.
 */
function revertReason(f: Frame, message: string, revertData: readonly bigint[]): RevertReasonNode {
  let cause: RevertReasonNode | undefined;
  const info = f.collectedRevertInfo;
  if (info !== undefined && sameData(info.revertData, revertData)) {
    cause = info.reason;
    message = info.reason.message;
  }
  const stack: string[] = [];
  for (let i = 0; i < f.internalCallStack.length; i += 2) stack.push(`0.${f.internalCallStack[i]}`);
  stack.push(`0.${f.pc}`);
  return { ...failingFunction(f.ctx, f.address, f.calldata), message, noirCallStack: stack, cause };
}

/** Runs a frame to its end. Only `AvmHaltError`s are caught; anything else aborts the simulation. */
export function runFrame(f: Frame): FrameResult {
  if (f.ctx.tracer !== undefined) return runFrameTraced(f, f.ctx.tracer);
  const program = f.program;
  const length = program.bytecode.length;
  if (length === 0) throw new AvmInternalError("AVM simulator can't execute empty bytecode");
  try {
    for (;;) {
      const ins = program.at(f.pc);
      if (ins.opcode === FETCH_ERROR_OPCODE) throw new AvmHaltError(ins.fetchError);
      f.nextPc = f.pc + ins.size;
      if (ins.staticCheckFirst && f.isStatic) throw staticCallAlteration();
      consumeGas(f, ins.baseL2, ins.baseDa);
      (HANDLERS[ins.opcode] as (f: Frame, i: typeof ins) => void)(f, ins);
      if (!ins.handlesPc) f.pc = f.nextPc;
      if (f.pc >= length) throw new AvmHaltError(`Invalid program counter ${f.pc}, max is ${length - 1}`);
      if (f.halted) break;
    }
  } catch (e) {
    if (!(e instanceof AvmHaltError)) throw e;
    return {
      reverted: true,
      output: LazyData.EMPTY,
      l2GasLeft: 0,
      daGasLeft: 0,
      reason: revertReason(f, e.message, []),
    };
  }
  return {
    reverted: f.reverted,
    output: f.output,
    l2GasLeft: f.l2GasLeft,
    daGasLeft: f.daGasLeft,
    reason: f.reverted ? revertReason(f, 'Assertion failed: ', f.output.bestEffortReadAll()) : undefined,
  };
}

/**
 * runFrame's loop with the tracer's step hook: the same order of checks, gas and handlers, plus the gas left
 * before and after each instruction (and the debug logs it printed). Kept apart for speed: the untraced loop,
 * which every block and simulation runs, pays no per-instruction tracer check or gas bookkeeping.
 */
function runFrameTraced(f: Frame, tracer: AvmTracer): FrameResult {
  const program = f.program;
  const length = program.bytecode.length;
  if (length === 0) throw new AvmInternalError("AVM simulator can't execute empty bytecode");
  const debugLogs = f.ctx.journal.debugLogs;
  let pc = 0;
  let ins: AvmInstruction | undefined;
  let l2Before = 0;
  let daBefore = 0;
  try {
    for (;;) {
      pc = f.pc;
      ins = program.at(pc);
      l2Before = f.l2GasLeft;
      daBefore = f.daGasLeft;
      if (ins.opcode === FETCH_ERROR_OPCODE) throw new AvmHaltError(ins.fetchError);
      f.nextPc = f.pc + ins.size;
      if (ins.staticCheckFirst && f.isStatic) throw staticCallAlteration();
      consumeGas(f, ins.baseL2, ins.baseDa);
      const printed = debugLogs.length;
      (HANDLERS[ins.opcode] as (f: Frame, i: typeof ins) => void)(f, ins);
      if (debugLogs.length > printed) tracer.debugLog(debugLogs[debugLogs.length - 1] as AvmDebugLog);
      if (!ins.handlesPc) f.pc = f.nextPc;
      tracer.step(pc, ins, l2Before, daBefore, f.l2GasLeft, f.daGasLeft, false);
      if (f.pc >= length) {
        ins = undefined;
        throw new AvmHaltError(`Invalid program counter ${f.pc}, max is ${length - 1}`);
      }
      if (f.halted) break;
    }
  } catch (e) {
    if (!(e instanceof AvmHaltError)) throw e;
    if (ins !== undefined) tracer.step(pc, ins, l2Before, daBefore, 0, 0, true);
    return {
      reverted: true,
      output: LazyData.EMPTY,
      l2GasLeft: 0,
      daGasLeft: 0,
      reason: revertReason(f, e.message, []),
    };
  }
  return {
    reverted: f.reverted,
    output: f.output,
    l2GasLeft: f.l2GasLeft,
    daGasLeft: f.daGasLeft,
    reason: f.reverted ? revertReason(f, 'Assertion failed: ', f.output.bestEffortReadAll()) : undefined,
  };
}

/** Who runs what in a new frame: the callee address, its caller, static or not, calldata and allocated gas. */
export interface CallTarget {
  address: bigint;
  sender: bigint;
  isStatic: boolean;
  calldata: LazyData;
  l2Gas: number;
  daGas: number;
}

/**
 * Runs the contract at `call.address` (its bytecode looked up by instance and current class), or `program` when
 * given (a raw program run as the top frame).
 */
export function runCall(ctx: CallContext, call: CallTarget, program?: AvmProgram): FrameResult {
  const tracer = ctx.tracer;
  if (tracer === undefined) return execCall(ctx, call, program);
  tracer.enterCall(call);
  const r = execCall(ctx, call, program);
  tracer.exitCall({
    reverted: r.reverted,
    output: r.output,
    l2GasLeft: r.l2GasLeft,
    daGasLeft: r.daGasLeft,
    message: r.reason?.message,
  });
  return r;
}

function execCall(ctx: CallContext, call: CallTarget, program?: AvmProgram): FrameResult {
  tickAvmDeadline();
  if (program === undefined) {
    const code = ctx.journal.getBytecode(call.address);
    if (code === undefined) {
      return {
        reverted: true,
        output: LazyData.EMPTY,
        l2GasLeft: 0,
        daGasLeft: 0,
        reason: {
          ...failingFunction(ctx, call.address, call.calldata),
          message: `No bytecode found. Contract is not deployed, or limit encountered for max calls to unique contract class IDs. Contract address: ${toHex64(call.address)}. Reverting...`,
          noirCallStack: [],
          cause: undefined,
        },
      };
    }
    ctx.tracer?.callClass(code.classId);
    program = ctx.programs.forClass(code.classId, code.bytecode);
  }
  return runFrame(
    new Frame(ctx, call.address, call.sender, call.isStatic, call.calldata, call.l2Gas, call.daGas, program),
  );
}

/** CALL and STATICCALL. */
function externalCall(f: Frame, ins: { opcode: number; ops: readonly number[]; mode: number }): void {
  const r = resolve(f, ins as Parameters<typeof resolve>[1]);
  const l2At = r[0] as number;
  const daAt = r[1] as number;
  const addressAt = r[2] as number;
  const argsSizeAt = r[3] as number;
  const argsAt = r[4] as number;
  const m = f.memory;
  m.checkTag(l2At, MEM_TAG_U32);
  m.checkTag(daAt, MEM_TAG_U32);
  m.checkTag(addressAt, MEM_TAG_FF);
  m.checkTag(argsSizeAt, MEM_TAG_U32);
  const calldata = LazyData.ofMemory(m, argsAt, Number(m.get(argsSizeAt)));
  const target = m.get(addressAt);
  const isStatic = f.isStatic || ins.opcode === Opcode.STATICCALL;
  const wantL2 = m.get(l2At);
  const wantDa = m.get(daAt);
  const l2 = wantL2 < BigInt(f.l2GasLeft) ? Number(wantL2) : f.l2GasLeft;
  const da = wantDa < BigInt(f.daGasLeft) ? Number(wantDa) : f.daGasLeft;
  consumeGas(f, l2, da);

  const journal = f.ctx.journal;
  journal.checkpoint();
  const result = runCall(f.ctx, { address: target, sender: f.address, isStatic, calldata, l2Gas: l2, daGas: da });
  f.nestedReturndata = result.output;
  f.nestedCallSuccess = !result.reverted;
  if (result.reverted) {
    f.collectedRevertInfo = {
      revertData: result.output.bestEffortReadAll(),
      reason: result.reason as RevertReasonNode,
    };
  }
  f.l2GasLeft += result.l2GasLeft;
  f.daGasLeft += result.daGasLeft;
  if (result.reverted) journal.revertCheckpoint();
  else journal.commitCheckpoint();
}

HANDLERS[Opcode.CALL] = externalCall;
HANDLERS[Opcode.STATICCALL] = externalCall;
