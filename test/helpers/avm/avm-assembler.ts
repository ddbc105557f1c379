/**
 * A small AVM assembler for test programs: the 4.1.2 wire formats (opcode byte, then the addressing-mode byte or
 * word, memory offsets, immediates; all big-endian), with labels for jump and internal-call targets resolved in a
 * second pass. Written from the published wire-format table; every program the generator builds is also
 * decoded with Aztec's own deserializer (see `disassemble`), so an encoding slip here cannot go unnoticed.
 */
import {
  decodeFromBytecode,
  decodeInstructionFromBytecode,
} from '../../../node_modules/@aztec/simulator/dest/public/avm/serialization/bytecode_serialization.js';

/** m8/m16: addressing-mode byte/word; o8/o16: memory offset; the rest are immediates. */
type Kind = 'm8' | 'm16' | 'o8' | 'o16' | 'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'ff' | 'tag';

const BINARY = ['ADD', 'SUB', 'MUL', 'DIV', 'FDIV', 'EQ', 'LT', 'LTE', 'AND', 'OR', 'XOR'] as const;

function formats(): Map<string, { opcode: number; kinds: Kind[] }> {
  const f = new Map<string, { opcode: number; kinds: Kind[] }>();
  const add = (name: string, opcode: number, kinds: Kind[]) => f.set(name, { opcode, kinds });
  BINARY.forEach((n, i) => {
    add(`${n}_8`, 2 * i, ['m8', 'o8', 'o8', 'o8']);
    add(`${n}_16`, 2 * i + 1, ['m8', 'o16', 'o16', 'o16']);
  });
  add('NOT_8', 22, ['m8', 'o8', 'o8']);
  add('NOT_16', 23, ['m8', 'o16', 'o16']);
  add('SHL_8', 24, ['m8', 'o8', 'o8', 'o8']);
  add('SHL_16', 25, ['m8', 'o16', 'o16', 'o16']);
  add('SHR_8', 26, ['m8', 'o8', 'o8', 'o8']);
  add('SHR_16', 27, ['m8', 'o16', 'o16', 'o16']);
  add('CAST_8', 28, ['m8', 'o8', 'o8', 'tag']);
  add('CAST_16', 29, ['m8', 'o16', 'o16', 'tag']);
  add('GETENVVAR_16', 30, ['m8', 'o16', 'u8']);
  add('CALLDATACOPY', 31, ['m8', 'o16', 'o16', 'o16']);
  add('SUCCESSCOPY', 32, ['m8', 'o16']);
  add('RETURNDATASIZE', 33, ['m8', 'o16']);
  add('RETURNDATACOPY', 34, ['m8', 'o16', 'o16', 'o16']);
  add('JUMP_32', 35, ['u32']);
  add('JUMPI_32', 36, ['m8', 'o16', 'u32']);
  add('INTERNALCALL', 37, ['u32']);
  add('INTERNALRETURN', 38, []);
  add('SET_8', 39, ['m8', 'o8', 'tag', 'u8']);
  add('SET_16', 40, ['m8', 'o16', 'tag', 'u16']);
  add('SET_32', 41, ['m8', 'o16', 'tag', 'u32']);
  add('SET_64', 42, ['m8', 'o16', 'tag', 'u64']);
  add('SET_128', 43, ['m8', 'o16', 'tag', 'u128']);
  add('SET_FF', 44, ['m8', 'o16', 'tag', 'ff']);
  add('MOV_8', 45, ['m8', 'o8', 'o8']);
  add('MOV_16', 46, ['m8', 'o16', 'o16']);
  add('SLOAD', 47, ['m8', 'o16', 'o16', 'o16']);
  add('SSTORE', 48, ['m8', 'o16', 'o16']);
  add('NOTEHASHEXISTS', 49, ['m8', 'o16', 'o16', 'o16']);
  add('EMITNOTEHASH', 50, ['m8', 'o16']);
  add('NULLIFIEREXISTS', 51, ['m8', 'o16', 'o16']);
  add('EMITNULLIFIER', 52, ['m8', 'o16']);
  add('L1TOL2MSGEXISTS', 53, ['m8', 'o16', 'o16', 'o16']);
  add('GETCONTRACTINSTANCE', 54, ['m8', 'o16', 'o16', 'u8']);
  add('EMITPUBLICLOG', 55, ['m8', 'o16', 'o16']);
  add('SENDL2TOL1MSG', 56, ['m8', 'o16', 'o16']);
  add('CALL', 57, ['m16', 'o16', 'o16', 'o16', 'o16', 'o16']);
  add('STATICCALL', 58, ['m16', 'o16', 'o16', 'o16', 'o16', 'o16']);
  add('RETURN', 59, ['m8', 'o16', 'o16']);
  add('REVERT_8', 60, ['m8', 'o8', 'o8']);
  add('REVERT_16', 61, ['m8', 'o16', 'o16']);
  add('DEBUGLOG', 62, ['m8', 'o16', 'o16', 'o16', 'o16', 'u16']);
  add('POSEIDON2', 63, ['m8', 'o16', 'o16']);
  add('SHA256COMPRESSION', 64, ['m8', 'o16', 'o16', 'o16']);
  add('KECCAKF1600', 65, ['m8', 'o16', 'o16']);
  add('ECADD', 66, ['m16', 'o16', 'o16', 'o16', 'o16', 'o16', 'o16', 'o16']);
  add('TORADIXBE', 67, ['m16', 'o16', 'o16', 'o16', 'o16', 'o16']);
  return f;
}

export const FORMATS = formats();

const WIDTH: Record<Kind, number> = {
  m8: 1,
  m16: 2,
  o8: 1,
  o16: 2,
  u8: 1,
  u16: 2,
  u32: 4,
  u64: 8,
  u128: 16,
  ff: 32,
  tag: 1,
};

/**
 * One instruction: its name (a key of FORMATS), the addressing-mode value (0 when the format has none) and the
 * operands after the mode in wire order; an operand may be a label name, resolved to its byte offset.
 */
export interface AsmInstruction {
  op: string;
  mode?: number;
  operands: (bigint | string)[];
}

/** A program: instructions and labels (`{ label }`) in order. */
export type AsmItem = AsmInstruction | { label: string };

export function instructionSize(op: string): number {
  const f = FORMATS.get(op);
  if (f === undefined) throw new Error(`unknown opcode ${op}`);
  return 1 + f.kinds.reduce((s, k) => s + WIDTH[k], 0);
}

export function assemble(items: AsmItem[]): Uint8Array {
  const labels = new Map<string, number>();
  let pc = 0;
  for (const item of items) {
    if ('label' in item) labels.set(item.label, pc);
    else pc += instructionSize(item.op);
  }
  const out = new Uint8Array(pc);
  let at = 0;
  for (const item of items) {
    if ('label' in item) continue;
    const f = FORMATS.get(item.op)!;
    out[at++] = f.opcode;
    const hasMode = f.kinds[0] === 'm8' || f.kinds[0] === 'm16';
    const values = hasMode ? [BigInt(item.mode ?? 0), ...item.operands] : item.operands;
    if (values.length !== f.kinds.length)
      throw new Error(`${item.op}: ${values.length} operands, wants ${f.kinds.length}`);
    f.kinds.forEach((kind, i) => {
      const raw = values[i];
      let v: bigint;
      if (typeof raw === 'string') {
        const target = labels.get(raw);
        if (target === undefined) throw new Error(`undefined label ${raw}`);
        v = BigInt(target);
      } else v = raw;
      const width = WIDTH[kind];
      for (let b = width - 1; b >= 0; b--) {
        out[at + b] = Number(v & 0xffn);
        v >>= 8n;
      }
      at += width;
    });
  }
  return out;
}

/** Aztec's reading of a program, one line per instruction with its byte offset. */
export function disassemble(bytecode: Uint8Array): string {
  const lines: string[] = [];
  let pc = 0;
  const buf = Buffer.from(bytecode);
  try {
    while (pc < buf.length) {
      const [instr, size] = decodeInstructionFromBytecode(buf, pc);
      lines.push(`${String(pc).padStart(5)}: ${instr.toString()}`);
      pc += size;
    }
  } catch (e) {
    lines.push(`${String(pc).padStart(5)}: <undecodable: ${(e as Error).message}>`);
  }
  return lines.join('\n');
}

/** How many instructions Aztec's deserializer reads from the program (throws when it cannot decode it). */
export function countDecodedInstructions(bytecode: Uint8Array): number {
  return decodeFromBytecode(Buffer.from(bytecode)).length;
}
