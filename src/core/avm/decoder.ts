/**
 * Bytecode decoding. Instructions are decoded where the pc lands (a jump may land anywhere, so there is no
 * up-front pass) and cached per bytecode: an `AvmProgram` is built once per contract class and shared by every
 * call that runs it. Fetch failures (bad opcode, truncated instruction, bad tag byte) are cached too, as an
 * instruction that halts with 4.1.2's message when executed.
 */
import { FR_MODULUS } from '../fr.js';
import {
  addressingGas,
  BASE_GAS,
  HANDLES_PC,
  MAX_OPCODE_VALUE,
  OPERAND_BYTES,
  type OperandKind,
  STATIC_CHECK_FIRST,
  WIRE_FORMATS,
} from './opcodes.js';

/** Marks an instruction that failed to decode; executing it halts with `fetchError`. */
export const FETCH_ERROR_OPCODE = -1;

export class AvmInstruction {
  constructor(
    readonly opcode: number,
    /** Bytes the instruction occupies. */
    readonly size: number,
    /** Addressing-mode word (2 bits per operand: indirect, relative). */
    readonly mode: number,
    /** Memory-offset operands, in resolution order. */
    readonly ops: readonly number[],
    /** The one small immediate, when there is one: tag (SET, CAST), jump target, env var, member, message size. */
    readonly imm: number,
    /** SET's value, already truncated to its tag. */
    readonly value: bigint,
    /** Base gas including addressing. */
    readonly baseL2: number,
    readonly baseDa: number,
    readonly handlesPc: boolean,
    readonly staticCheckFirst: boolean,
    readonly fetchError?: string,
  ) {}
}

/** A bytecode with its decoded-instruction cache. */
export class AvmProgram {
  private readonly instructions: (AvmInstruction | undefined)[];

  constructor(readonly bytecode: Uint8Array) {
    this.instructions = new Array(bytecode.length);
  }

  /** The instruction at `pc` (< bytecode length), decoded on first use. */
  at(pc: number): AvmInstruction {
    const cached = this.instructions[pc];
    if (cached !== undefined) return cached;
    const decoded = decodeInstruction(this.bytecode, pc);
    this.instructions[pc] = decoded;
    return decoded;
  }
}

function fetchError(message: string): AvmInstruction {
  return new AvmInstruction(FETCH_ERROR_OPCODE, 0, 0, [], 0, 0n, 0, 0, false, false, message);
}

function readUint(b: Uint8Array, pos: number, bytes: number): number {
  let v = 0;
  for (let i = 0; i < bytes; i++) v = v * 256 + (b[pos + i] as number);
  return v;
}

function readBig(b: Uint8Array, pos: number, bytes: number): bigint {
  let v = 0n;
  for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(b[pos + i] as number);
  return v;
}

/**
 * The message Node's Buffer readers throw when an operand runs past the end, which 4.1.2 wraps into its fetch
 * error: replaying the same reads on a Buffer gives the identical text.
 */
function truncationMessage(bytecode: Uint8Array, pc: number, format: readonly OperandKind[]): string {
  const buf = Buffer.from(bytecode.buffer, bytecode.byteOffset, bytecode.byteLength);
  let pos = pc + 1;
  try {
    buf.readUint8(pc);
    for (const kind of format) {
      const n = OPERAND_BYTES[kind];
      if (n === 1) buf.readUint8(pos);
      else if (n === 2) buf.readUint16BE(pos);
      else if (n === 4) buf.readUint32BE(pos);
      else for (let i = 0; i < n; i++) buf.readUint8(pos + i);
      pos += n;
    }
  } catch (e) {
    return (e as Error).message;
  }
  return 'truncated instruction';
}

export function decodeInstruction(bytecode: Uint8Array, pc: number): AvmInstruction {
  const opcode = bytecode[pc] as number;
  if (opcode > MAX_OPCODE_VALUE) {
    return fetchError(
      `Instruction fetching error at pc ${pc}: Opcode ${opcode} (0x${opcode.toString(16)}) value is not in the range of valid opcodes (at PC ${pc}).`,
    );
  }
  const format = WIRE_FORMATS[opcode] as readonly OperandKind[];
  let size = 1;
  for (const kind of format) size += OPERAND_BYTES[kind];
  if (pc + size > bytecode.length) {
    return fetchError(`Instruction fetching error at pc ${pc}: ${truncationMessage(bytecode, pc, format)}`);
  }
  let pos = pc + 1;
  let mode = 0;
  const ops: number[] = [];
  let imm = 0;
  let value = 0n;
  let tag = -1;
  for (const kind of format) {
    const n = OPERAND_BYTES[kind];
    switch (kind) {
      case 'M8':
      case 'M16':
        mode = readUint(bytecode, pos, n);
        break;
      case 'O8':
      case 'O16':
        ops.push(readUint(bytecode, pos, n));
        break;
      case 'T':
        tag = bytecode[pos] as number;
        imm = tag;
        break;
      case 'I8':
      case 'I16':
      case 'L32':
        imm = readUint(bytecode, pos, n);
        break;
      case 'VFF':
        value = readBig(bytecode, pos, n);
        if (value >= FR_MODULUS) value %= FR_MODULUS;
        break;
      default:
        value = readBig(bytecode, pos, n);
    }
    pos += n;
  }
  if (tag > 6) {
    return fetchError(`Instruction fetching error at pc ${pc}: Tag check failed: Tag value ${tag} is invalid.`);
  }
  // SET: the value is truncated to its tag when executed; doing it once here is the same.
  if (tag >= 0 && (format[format.length - 1] as OperandKind).startsWith('V')) value = truncateToTag(value, tag);
  const hasModes = format.length > 0 && (format[0] === 'M8' || format[0] === 'M16');
  const [l2, da] = BASE_GAS[opcode] as readonly [number, number];
  return new AvmInstruction(
    opcode,
    size,
    mode,
    ops,
    imm,
    value,
    l2 + (hasModes ? addressingGas(mode) : 0),
    da,
    HANDLES_PC.has(opcode),
    STATIC_CHECK_FIRST.has(opcode),
  );
}

const MASKS = [0n, 1n, 0xffn, 0xffffn, 0xffffffffn, 0xffffffffffffffffn, (1n << 128n) - 1n];

/** A value cut to a tag's width (field values are already below p). */
export function truncateToTag(value: bigint, tag: number): bigint {
  return tag === 0 ? value : value & (MASKS[tag] as bigint);
}
