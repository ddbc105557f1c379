/**
 * Opcode semantics: one handler per opcode, indexed by byte value. The interpreter has already done the static
 * check (for the opcodes that do it first) and charged the base gas (opcode + addressing) when a handler runs;
 * each handler then follows 4.1.2's order: resolve operands, check tags, charge dynamic gas, act. Error texts are
 * 4.1.2's, since they end up in revert reasons. CALL and STATICCALL live in interpreter.ts.
 */
import {
  AVM_BITWISE_DYN_L2_GAS,
  AVM_CALLDATACOPY_DYN_L2_GAS,
  AVM_EMITPUBLICLOG_DYN_DA_GAS,
  AVM_EMITPUBLICLOG_DYN_L2_GAS,
  AVM_RETURNDATACOPY_DYN_L2_GAS,
  AVM_SSTORE_DYN_DA_GAS,
  AVM_TORADIXBE_DYN_L2_GAS,
  MAX_ETH_ADDRESS_VALUE,
  MEM_TAG_FF,
  MEM_TAG_U1,
  MEM_TAG_U8,
  MEM_TAG_U32,
  MEM_TAG_U64,
  MEM_TAG_U128,
} from '../constants.js';
import { frInverse } from '../crypto/fr-inverse.js';
import { poseidon2Permutation } from '../crypto/poseidon2.js';
import { FR_MODULUS, toHex64 } from '../fr.js';
import { LOG_LEVELS } from '../logs/debug-log.js';
import { tickAvmDeadline } from './deadline.js';
import type { AvmInstruction } from './decoder.js';
import {
  AvmHaltError,
  AvmInternalError,
  divisionByZero,
  notIntegral,
  staticCallAlteration,
  tagMismatchAt,
} from './errors.js';
import { consumeGas, type Frame, LazyData, resolve } from './frame.js';
import { avmEcAddChecked, keccakF1600, sha256Compression } from './gadgets.js';
import { checkSlice, TAG_BITS, TAG_MASKS } from './memory.js';
import { Opcode } from './opcodes.js';

const P = FR_MODULUS;

export type Handler = (f: Frame, ins: AvmInstruction) => void;

/** Byte width per tag for the bitwise dynamic gas (u1 counts as one byte, field as zero). */
const BITWISE_BYTES = [0, 1, 1, 2, 4, 8, 16];

function checkSameTag(f: Frame, a: number, b: number): number {
  const tagA = f.memory.getTag(a);
  const tagB = f.memory.getTag(b);
  if (tagA !== tagB) throw tagMismatchAt(b, tagB, tagA);
  return tagA;
}

type Binary = (a: bigint, b: bigint, tag: number) => bigint;

/** ADD, SUB, MUL, DIV, FDIV, SHL, SHR: same tags (and the op's own check), result with the operand tag. */
function arithmetic(op: Binary, check?: (f: Frame, tag: number, a: number) => void): Handler {
  return (f, ins) => {
    const r = resolve(f, ins);
    const a = r[0] as number;
    const b = r[1] as number;
    const dst = r[2] as number;
    const tag = checkSameTag(f, a, b);
    if (check !== undefined) check(f, tag, a);
    f.memory.set(dst, tag, op(f.memory.get(a), f.memory.get(b), tag));
  };
}

const integralOnly = (_f: Frame, tag: number): void => {
  if (tag === MEM_TAG_FF) throw notIntegral(tag);
};

const fieldOnly = (f: Frame, tag: number, a: number): void => {
  if (tag !== MEM_TAG_FF) throw tagMismatchAt(a, f.memory.getTag(a), MEM_TAG_FF);
};

const add: Binary = (a, b, tag) => {
  const s = a + b;
  if (tag === MEM_TAG_FF) return s >= P ? s - P : s;
  return s & (TAG_MASKS[tag] as bigint);
};

const sub: Binary = (a, b, tag) => {
  const d = a - b;
  if (d >= 0n) return d;
  return tag === MEM_TAG_FF ? d + P : d + (TAG_MASKS[tag] as bigint) + 1n;
};

const mul: Binary = (a, b, tag) => (tag === MEM_TAG_FF ? (a * b) % P : (a * b) & (TAG_MASKS[tag] as bigint));

const div: Binary = (a, b) => {
  if (b === 0n) throw divisionByZero();
  return a / b;
};

const fdiv: Binary = (a, b) => {
  if (b === 0n) throw divisionByZero();
  return (a * frInverse(b)) % P;
};

const shl: Binary = (a, b, tag) => {
  if (b >= BigInt(TAG_BITS[tag] as number)) return 0n;
  return (a << b) & (TAG_MASKS[tag] as bigint);
};

const shr: Binary = (a, b) => a >> b;

/** EQ, LT, LTE: same tags, U1 result. */
function comparison(cmp: (a: bigint, b: bigint) => boolean): Handler {
  return (f, ins) => {
    const r = resolve(f, ins);
    const a = r[0] as number;
    const b = r[1] as number;
    const dst = r[2] as number;
    checkSameTag(f, a, b);
    f.memory.set(dst, MEM_TAG_U1, cmp(f.memory.get(a), f.memory.get(b)) ? 1n : 0n);
  };
}

/** AND, OR, XOR: a integral (checked first), b same tag, dynamic gas by width. */
function bitwise(op: (a: bigint, b: bigint) => bigint): Handler {
  return (f, ins) => {
    const r = resolve(f, ins);
    const a = r[0] as number;
    const b = r[1] as number;
    const dst = r[2] as number;
    const tagA = f.memory.getTag(a);
    if (tagA === MEM_TAG_FF) throw notIntegral(tagA);
    checkSameTag(f, a, b);
    consumeGas(f, AVM_BITWISE_DYN_L2_GAS * (BITWISE_BYTES[tagA] as number), 0);
    f.memory.set(dst, tagA, op(f.memory.get(a), f.memory.get(b)));
  };
}

const not: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const src = r[0] as number;
  const dst = r[1] as number;
  const tag = f.memory.getTag(src);
  if (tag === MEM_TAG_FF) throw notIntegral(tag);
  f.memory.set(dst, tag, ~f.memory.get(src) & (TAG_MASKS[tag] as bigint));
};

const cast: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const src = r[0] as number;
  const dst = r[1] as number;
  const tag = ins.imm;
  const v = f.memory.get(src);
  f.memory.set(dst, tag, tag === MEM_TAG_FF ? v : v & (TAG_MASKS[tag] as bigint));
};

const set: Handler = (f, ins) => {
  const dst = resolve(f, ins)[0] as number;
  f.memory.set(dst, ins.imm, ins.value);
};

const mov: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const src = r[0] as number;
  const dst = r[1] as number;
  f.memory.set(dst, f.memory.getTag(src), f.memory.get(src));
};

const getEnvVar: Handler = (f, ins) => {
  const dst = resolve(f, ins)[0] as number;
  const g = f.ctx.globals;
  const m = f.memory;
  switch (ins.imm) {
    case 0:
      return m.set(dst, MEM_TAG_FF, f.address);
    case 1:
      return m.set(dst, MEM_TAG_FF, f.sender);
    case 2:
      return m.set(dst, MEM_TAG_FF, f.ctx.transactionFee);
    case 3:
      return m.set(dst, MEM_TAG_FF, g.chainId);
    case 4:
      return m.set(dst, MEM_TAG_FF, g.version);
    case 5:
      return m.set(dst, MEM_TAG_U32, BigInt(g.blockNumber));
    case 6:
      return m.set(dst, MEM_TAG_U64, g.timestamp);
    case 7:
      return m.set(dst, MEM_TAG_U128, g.feePerL2Gas);
    case 8:
      return m.set(dst, MEM_TAG_U128, g.feePerDaGas);
    case 9:
      return m.set(dst, MEM_TAG_U1, f.isStatic ? 1n : 0n);
    case 10:
      return m.set(dst, MEM_TAG_U32, BigInt(f.l2GasLeft));
    case 11:
      return m.set(dst, MEM_TAG_U32, BigInt(f.daGasLeft));
    default:
      throw new AvmHaltError(`Invalid GETENVVAR var enum ${ins.imm}`);
  }
};

/** CALLDATACOPY / RETURNDATACOPY: sizes are u32, missing cells read as 0, everything lands as field. */
function dataCopy(source: (f: Frame) => LazyData, dynL2: number): Handler {
  return (f, ins) => {
    const r = resolve(f, ins);
    const sizeAt = r[0] as number;
    const startAt = r[1] as number;
    const dst = r[2] as number;
    f.memory.checkTag(startAt, MEM_TAG_U32);
    f.memory.checkTag(sizeAt, MEM_TAG_U32);
    const start = Number(f.memory.get(startAt));
    const size = Number(f.memory.get(sizeAt));
    consumeGas(f, dynL2 * size, 0);
    const values = source(f).slice(start, start + size);
    checkSlice(dst, size);
    for (let i = 0; i < size; i++) f.memory.set(dst + i, MEM_TAG_FF, i < values.length ? (values[i] as bigint) : 0n);
  };
}

const successCopy: Handler = (f, ins) => {
  const dst = resolve(f, ins)[0] as number;
  f.memory.set(dst, MEM_TAG_U1, f.nestedCallSuccess ? 1n : 0n);
};

const returndataSize: Handler = (f, ins) => {
  const dst = resolve(f, ins)[0] as number;
  f.memory.set(dst, MEM_TAG_U32, BigInt(f.nestedReturndata.length()));
};

// A backward jump or internal call is how a program loops: it ticks the job's deadline (deadline.ts).
const jump: Handler = (f, ins) => {
  if (ins.imm <= f.pc) tickAvmDeadline();
  f.pc = ins.imm;
};

const jumpi: Handler = (f, ins) => {
  const cond = resolve(f, ins)[0] as number;
  f.memory.checkTag(cond, MEM_TAG_U1);
  if (f.memory.get(cond) === 0n) {
    f.pc = f.nextPc;
    return;
  }
  if (ins.imm <= f.pc) tickAvmDeadline();
  f.pc = ins.imm;
};

const internalCall: Handler = (f, ins) => {
  if (ins.imm <= f.pc) tickAvmDeadline();
  f.internalCallStack.push(f.pc, f.nextPc);
  f.pc = ins.imm;
};

const internalReturn: Handler = (f) => {
  if (f.internalCallStack.length === 0) throw new AvmHaltError('Internal call stack empty!');
  f.pc = f.internalCallStack.pop() as number;
  f.internalCallStack.pop();
};

const sload: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const slot = r[0] as number;
  const address = r[1] as number;
  const dst = r[2] as number;
  f.memory.checkTag(slot, MEM_TAG_FF);
  f.memory.checkTag(address, MEM_TAG_FF);
  f.memory.set(dst, MEM_TAG_FF, f.ctx.journal.readStorage(f.memory.get(address), f.memory.get(slot)));
};

const sstore: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const src = r[0] as number;
  const slotAt = r[1] as number;
  const slot = f.memory.get(slotAt);
  const journal = f.ctx.journal;
  consumeGas(f, 0, journal.isStorageCold(f.address, slot) ? AVM_SSTORE_DYN_DA_GAS : 0);
  f.memory.checkTag(slotAt, MEM_TAG_FF);
  f.memory.checkTag(src, MEM_TAG_FF);
  journal.writeStorage(f.address, slot, f.memory.get(src));
};

/** NOTEHASHEXISTS / L1TOL2MSGEXISTS: (value FF, leaf index U64) -> U1, a raw leaf comparison. */
function leafExists(check: (journal: Frame['ctx']['journal'], value: bigint, index: bigint) => boolean): Handler {
  return (f, ins) => {
    const r = resolve(f, ins);
    const value = r[0] as number;
    const index = r[1] as number;
    const dst = r[2] as number;
    f.memory.checkTag(value, MEM_TAG_FF);
    f.memory.checkTag(index, MEM_TAG_U64);
    f.memory.set(dst, MEM_TAG_U1, check(f.ctx.journal, f.memory.get(value), f.memory.get(index)) ? 1n : 0n);
  };
}

const emitNoteHash: Handler = (f, ins) => {
  const noteHash = resolve(f, ins)[0] as number;
  f.memory.checkTag(noteHash, MEM_TAG_FF);
  if (f.isStatic) throw staticCallAlteration();
  f.ctx.journal.emitNoteHash(f.address, f.memory.get(noteHash));
};

const nullifierExists: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const nullifier = r[0] as number;
  const dst = r[1] as number;
  f.memory.checkTag(nullifier, MEM_TAG_FF);
  f.memory.set(dst, MEM_TAG_U1, f.ctx.journal.nullifierExists(f.memory.get(nullifier)) ? 1n : 0n);
};

const emitNullifier: Handler = (f, ins) => {
  const at = resolve(f, ins)[0] as number;
  f.memory.checkTag(at, MEM_TAG_FF);
  const nullifier = f.memory.get(at);
  if (!f.ctx.journal.emitNullifier(f.address, nullifier)) {
    throw new AvmHaltError(
      `Attempted to emit duplicate nullifier ${toHex64(nullifier)} (contract address: ${toHex64(f.address)}).`,
    );
  }
};

const getContractInstance: Handler = (f, ins) => {
  const member = ins.imm;
  if (member > 2) throw new AvmHaltError(`Invalid GETCONSTRACTINSTANCE member enum ${member}`);
  const r = resolve(f, ins);
  const addressAt = r[0] as number;
  const dst = r[1] as number;
  f.memory.checkTag(addressAt, MEM_TAG_FF);
  const instance = f.ctx.journal.getContractInstance(f.memory.get(addressAt));
  let value = 0n;
  if (instance !== undefined) {
    value =
      member === 0 ? instance.deployer : member === 1 ? instance.currentContractClassId : instance.initializationHash;
  }
  checkSlice(dst, 2);
  f.memory.set(dst, MEM_TAG_U1, instance !== undefined ? 1n : 0n);
  f.memory.set(dst + 1, MEM_TAG_FF, value);
};

const emitPublicLog: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const sizeAt = r[0] as number;
  const logAt = r[1] as number;
  f.memory.checkTag(sizeAt, MEM_TAG_U32);
  const size = Number(f.memory.get(sizeAt));
  consumeGas(f, AVM_EMITPUBLICLOG_DYN_L2_GAS * size, AVM_EMITPUBLICLOG_DYN_DA_GAS * size);
  f.memory.checkTagRange(logAt, size, MEM_TAG_FF);
  f.ctx.journal.emitPublicLog(f.address, f.memory.getSlice(logAt, size));
};

const sendL2ToL1Msg: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const recipientAt = r[0] as number;
  const contentAt = r[1] as number;
  f.memory.checkTag(recipientAt, MEM_TAG_FF);
  f.memory.checkTag(contentAt, MEM_TAG_FF);
  const recipient = f.memory.get(recipientAt);
  if (recipient > MAX_ETH_ADDRESS_VALUE) throw new AvmHaltError('SENDL2TOL1MSG: Recipient address is too large');
  f.ctx.journal.insertL2ToL1Message(f.address, recipient, f.memory.get(contentAt));
};

/** RETURN and REVERT: the output is a window on this frame's memory. */
function halt(reverted: boolean): Handler {
  return (f, ins) => {
    const r = resolve(f, ins);
    const sizeAt = r[0] as number;
    const offset = r[1] as number;
    f.memory.checkTag(sizeAt, MEM_TAG_U32);
    f.output = LazyData.ofMemory(f.memory, offset, Number(f.memory.get(sizeAt)));
    f.halted = true;
    f.reverted = reverted;
  };
}

const debugLog: Handler = (f, ins) => {
  const r = resolve(f, ins);
  if (!f.ctx.config.collectDebugLogs) return;
  const levelAt = r[0] as number;
  const messageAt = r[1] as number;
  const fieldsAt = r[2] as number;
  const fieldsSizeAt = r[3] as number;
  const messageSize = ins.imm;
  const m = f.memory;
  m.checkTag(levelAt, MEM_TAG_U8);
  const level = Number(m.get(levelAt));
  m.checkTag(fieldsSizeAt, MEM_TAG_U32);
  const fieldsSize = Number(m.get(fieldsSizeAt));
  const journal = f.ctx.journal;
  const reads = 2 + messageSize + fieldsSize;
  const limit = f.ctx.config.maxDebugLogMemoryReads;
  if (journal.debugLogMemoryReads + reads > limit) {
    throw new AvmInternalError(
      `Max debug log memory reads exceeded: ${journal.debugLogMemoryReads + reads} > ${limit}`,
    );
  }
  journal.debugLogMemoryReads += reads;
  const message = m.getSlice(messageAt, messageSize);
  const fields = m.getSlice(fieldsAt, fieldsSize);
  m.checkTagRange(messageAt, messageSize, MEM_TAG_U8);
  m.checkTagRange(fieldsAt, fieldsSize, MEM_TAG_FF);
  const levelName = LOG_LEVELS[level];
  if (levelName === undefined) throw new AvmInternalError(`Invalid debug log level: ${level}`);
  const selector = f.calldata.read(0);
  journal.debugLogs.push({
    contractAddress: f.address,
    ...(selector !== undefined && selector <= 0xffffffffn ? { functionSelector: Number(selector) } : {}),
    level: levelName,
    message: message.map((c) => String.fromCharCode(Number(c))).join(''),
    fields,
  });
};

const poseidon2: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const input = r[0] as number;
  const output = r[1] as number;
  const state = f.memory.getSlice(input, 4);
  f.memory.checkTagRange(input, 4, MEM_TAG_FF);
  f.memory.setSlice(output, MEM_TAG_FF, poseidon2Permutation(state));
};

const sha256: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const output = r[0] as number;
  const stateAt = r[1] as number;
  const inputsAt = r[2] as number;
  const inputs = f.memory.getSlice(inputsAt, 16);
  const state = f.memory.getSlice(stateAt, 8);
  f.memory.checkTagRange(inputsAt, 16, MEM_TAG_U32);
  f.memory.checkTagRange(stateAt, 8, MEM_TAG_U32);
  const out = sha256Compression(state.map(Number), inputs.map(Number));
  f.memory.setSlice(output, MEM_TAG_U32, out.map(BigInt));
};

const keccak: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const dst = r[0] as number;
  const input = r[1] as number;
  const state = f.memory.getSlice(input, 25);
  f.memory.checkTagRange(input, 25, MEM_TAG_U64);
  f.memory.setSlice(dst, MEM_TAG_U64, keccakF1600(state));
};

function pointText(x: bigint, y: bigint): string {
  return `0x${toHex64(x).slice(2)}${toHex64(y).slice(2)}`;
}

/**
 * ECADD. Hundreds run per Noir MSM, so this handler reads its operands straight from `R` and writes the three
 * result cells one by one (no temporary arrays); the range checks are setSlice's, in its order.
 */
const ecAdd: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const x1At = r[0] as number;
  const y1At = r[1] as number;
  const inf1At = r[2] as number;
  const x2At = r[3] as number;
  const y2At = r[4] as number;
  const inf2At = r[5] as number;
  const dst = r[6] as number;
  const m = f.memory;
  m.checkTag(x1At, MEM_TAG_FF);
  m.checkTag(y1At, MEM_TAG_FF);
  m.checkTag(x2At, MEM_TAG_FF);
  m.checkTag(y2At, MEM_TAG_FF);
  m.checkTag(inf1At, MEM_TAG_U1);
  m.checkTag(inf2At, MEM_TAG_U1);
  const x1 = m.get(x1At);
  const y1 = m.get(y1At);
  const inf1 = m.get(inf1At) === 1n;
  const x2 = m.get(x2At);
  const y2 = m.get(y2At);
  const inf2 = m.get(inf2At) === 1n;
  const res = avmEcAddChecked(x1, y1, inf1, x2, y2, inf2);
  if (res === 1) throw new AvmHaltError(`EcAdd point1 (${pointText(x1, y1)}) is not on the curve.`);
  if (res === 2) throw new AvmHaltError(`EcAdd point2 (${pointText(x2, y2)}) is not on the curve.`);
  const x = res[0];
  const y = res[1];
  checkSlice(dst, 2);
  m.set(dst, MEM_TAG_FF, x);
  m.set(dst + 1, MEM_TAG_FF, y);
  checkSlice(dst + 2, 1);
  m.set(dst + 2, MEM_TAG_U1, x === 0n && y === 0n ? 1n : 0n);
};

/** Limbs needed to write the field modulus in each radix (index = radix), which floors TORADIXBE's gas. */
const MODULUS_LIMBS_PER_RADIX = [
  0, 0, 254, 161, 127, 110, 99, 91, 85, 81, 77, 74, 71, 69, 67, 65, 64, 63, 61, 60, 59, 58, 57, 57, 56, 55, 54, 54, 53,
  53, 52, 52, 51, 51, 50, 50, 50, 49, 49, 48, 48, 48, 48, 47, 47, 47, 46, 46, 46, 46, 45, 45, 45, 45, 45, 44, 44, 44,
  44, 44, 43, 43, 43, 43, 43, 43, 42, 42, 42, 42, 42, 42, 42, 41, 41, 41, 41, 41, 41, 41, 41, 41, 40, 40, 40, 40, 40,
  40, 40, 40, 40, 39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38,
  37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 37, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36,
  36, 36, 36, 36, 36, 36, 36, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35, 35,
  35, 35, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34, 34,
  34, 34, 34, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33,
  33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32,
];

const toRadixBe: Handler = (f, ins) => {
  const r = resolve(f, ins);
  const [srcAt, radixAt, limbsAt, bitsAt, dst] = [r[0], r[1], r[2], r[3], r[4]] as number[];
  const m = f.memory;
  m.checkTag(srcAt as number, MEM_TAG_FF);
  m.checkTag(radixAt as number, MEM_TAG_U32);
  m.checkTag(limbsAt as number, MEM_TAG_U32);
  m.checkTag(bitsAt as number, MEM_TAG_U1);
  const numLimbs = Number(m.get(limbsAt as number));
  const radix = m.get(radixAt as number);
  const floor = radix > 256n ? 32 : (MODULUS_LIMBS_PER_RADIX[Number(radix)] as number);
  consumeGas(f, AVM_TORADIXBE_DYN_L2_GAS * Math.max(numLimbs, floor), 0);
  const outputBits = m.get(bitsAt as number) !== 0n;
  let value = m.get(srcAt as number);
  if (radix < 2n || radix > 256n) {
    throw new AvmHaltError(`ToRadixBE instruction's radix should be in range [2,256] (was ${radix}).`);
  }
  if (numLimbs < 1 && value !== 0n) {
    throw new AvmHaltError(`ToRadixBE instruction's input value is not zero (was ${value}) but numLimbs zero.`);
  }
  if (outputBits && radix !== 2n) {
    throw new AvmHaltError(`Radix ${radix} is not equal to 2 and bit mode is activated.`);
  }
  const limbs = new Array<bigint>(numLimbs);
  for (let i = numLimbs - 1; i >= 0; i--) {
    limbs[i] = value % radix;
    value /= radix;
  }
  if (value !== 0n) throw new AvmHaltError(`Field failed to decompose in ${numLimbs} limbs.`);
  m.setSlice(dst as number, outputBits ? MEM_TAG_U1 : MEM_TAG_U8, limbs);
};

/** Handlers by opcode byte (CALL and STATICCALL are filled in by interpreter.ts). */
export const HANDLERS: Handler[] = (() => {
  const h: Handler[] = [];
  const O = Opcode;
  const both = (a: number, b: number, fn: Handler) => {
    h[a] = fn;
    h[b] = fn;
  };
  both(O.ADD_8, O.ADD_16, arithmetic(add));
  both(O.SUB_8, O.SUB_16, arithmetic(sub));
  both(O.MUL_8, O.MUL_16, arithmetic(mul));
  both(O.DIV_8, O.DIV_16, arithmetic(div, integralOnly));
  both(O.FDIV_8, O.FDIV_16, arithmetic(fdiv, fieldOnly));
  both(
    O.EQ_8,
    O.EQ_16,
    comparison((a, b) => a === b),
  );
  both(
    O.LT_8,
    O.LT_16,
    comparison((a, b) => a < b),
  );
  both(
    O.LTE_8,
    O.LTE_16,
    comparison((a, b) => a <= b),
  );
  both(
    O.AND_8,
    O.AND_16,
    bitwise((a, b) => a & b),
  );
  both(
    O.OR_8,
    O.OR_16,
    bitwise((a, b) => a | b),
  );
  both(
    O.XOR_8,
    O.XOR_16,
    bitwise((a, b) => a ^ b),
  );
  both(O.NOT_8, O.NOT_16, not);
  both(O.SHL_8, O.SHL_16, arithmetic(shl, integralOnly));
  both(O.SHR_8, O.SHR_16, arithmetic(shr, integralOnly));
  both(O.CAST_8, O.CAST_16, cast);
  h[O.GETENVVAR_16] = getEnvVar;
  h[O.CALLDATACOPY] = dataCopy((f) => f.calldata, AVM_CALLDATACOPY_DYN_L2_GAS);
  h[O.SUCCESSCOPY] = successCopy;
  h[O.RETURNDATASIZE] = returndataSize;
  h[O.RETURNDATACOPY] = dataCopy((f) => f.nestedReturndata, AVM_RETURNDATACOPY_DYN_L2_GAS);
  h[O.JUMP_32] = jump;
  h[O.JUMPI_32] = jumpi;
  h[O.INTERNALCALL] = internalCall;
  h[O.INTERNALRETURN] = internalReturn;
  for (let op = O.SET_8; op <= O.SET_FF; op++) h[op] = set;
  both(O.MOV_8, O.MOV_16, mov);
  h[O.SLOAD] = sload;
  h[O.SSTORE] = sstore;
  h[O.NOTEHASHEXISTS] = leafExists((j, v, i) => j.noteHashExistsAt(v, i));
  h[O.EMITNOTEHASH] = emitNoteHash;
  h[O.NULLIFIEREXISTS] = nullifierExists;
  h[O.EMITNULLIFIER] = emitNullifier;
  h[O.L1TOL2MSGEXISTS] = leafExists((j, v, i) => j.l1ToL2MessageExistsAt(v, i));
  h[O.GETCONTRACTINSTANCE] = getContractInstance;
  h[O.EMITPUBLICLOG] = emitPublicLog;
  h[O.SENDL2TOL1MSG] = sendL2ToL1Msg;
  h[O.RETURN] = halt(false);
  both(O.REVERT_8, O.REVERT_16, halt(true));
  h[O.DEBUGLOG] = debugLog;
  h[O.POSEIDON2] = poseidon2;
  h[O.SHA256COMPRESSION] = sha256;
  h[O.KECCAKF1600] = keccak;
  h[O.ECADD] = ecAdd;
  h[O.TORADIXBE] = toRadixBe;
  return h;
})();
