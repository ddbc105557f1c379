/**
 * The AVM instruction set of Aztec 4.1.2: opcode byte values, wire formats and base gas. One table, read by the
 * decoder (formats), the interpreter (gas) and the tests (names).
 */
import * as c from '../constants.js';

export const Opcode = {
  ADD_8: 0,
  ADD_16: 1,
  SUB_8: 2,
  SUB_16: 3,
  MUL_8: 4,
  MUL_16: 5,
  DIV_8: 6,
  DIV_16: 7,
  FDIV_8: 8,
  FDIV_16: 9,
  EQ_8: 10,
  EQ_16: 11,
  LT_8: 12,
  LT_16: 13,
  LTE_8: 14,
  LTE_16: 15,
  AND_8: 16,
  AND_16: 17,
  OR_8: 18,
  OR_16: 19,
  XOR_8: 20,
  XOR_16: 21,
  NOT_8: 22,
  NOT_16: 23,
  SHL_8: 24,
  SHL_16: 25,
  SHR_8: 26,
  SHR_16: 27,
  CAST_8: 28,
  CAST_16: 29,
  GETENVVAR_16: 30,
  CALLDATACOPY: 31,
  SUCCESSCOPY: 32,
  RETURNDATASIZE: 33,
  RETURNDATACOPY: 34,
  JUMP_32: 35,
  JUMPI_32: 36,
  INTERNALCALL: 37,
  INTERNALRETURN: 38,
  SET_8: 39,
  SET_16: 40,
  SET_32: 41,
  SET_64: 42,
  SET_128: 43,
  SET_FF: 44,
  MOV_8: 45,
  MOV_16: 46,
  SLOAD: 47,
  SSTORE: 48,
  NOTEHASHEXISTS: 49,
  EMITNOTEHASH: 50,
  NULLIFIEREXISTS: 51,
  EMITNULLIFIER: 52,
  L1TOL2MSGEXISTS: 53,
  GETCONTRACTINSTANCE: 54,
  EMITPUBLICLOG: 55,
  SENDL2TOL1MSG: 56,
  CALL: 57,
  STATICCALL: 58,
  RETURN: 59,
  REVERT_8: 60,
  REVERT_16: 61,
  DEBUGLOG: 62,
  POSEIDON2: 63,
  SHA256COMPRESSION: 64,
  KECCAKF1600: 65,
  ECADD: 66,
  TORADIXBE: 67,
} as const;

export type OpcodeName = keyof typeof Opcode;

export const MAX_OPCODE_VALUE = 67;

/** Opcode names by byte value. */
export const OPCODE_NAMES: readonly OpcodeName[] = (Object.keys(Opcode) as OpcodeName[]).sort(
  (a, b) => Opcode[a] - Opcode[b],
);

/**
 * Operand kinds on the wire, after the opcode byte. All multi-byte values are big-endian.
 * M8/M16: addressing-mode byte/word. O8/O16: memory offset (resolved through the addressing mode, in order).
 * T: a tag byte (checked after the whole instruction is read). I8/I16: immediates. L32: jump target.
 * V8..V128: SET's immediate value; VFF: 32 bytes reduced modulo p.
 */
export type OperandKind =
  | 'M8'
  | 'M16'
  | 'O8'
  | 'O16'
  | 'T'
  | 'I8'
  | 'I16'
  | 'L32'
  | 'V8'
  | 'V16'
  | 'V32'
  | 'V64'
  | 'V128'
  | 'VFF';

export const OPERAND_BYTES: Record<OperandKind, number> = {
  M8: 1,
  M16: 2,
  O8: 1,
  O16: 2,
  T: 1,
  I8: 1,
  I16: 2,
  L32: 4,
  V8: 1,
  V16: 2,
  V32: 4,
  V64: 8,
  V128: 16,
  VFF: 32,
};

const ARITH8: OperandKind[] = ['M8', 'O8', 'O8', 'O8'];
const ARITH16: OperandKind[] = ['M8', 'O16', 'O16', 'O16'];
const O16x3: OperandKind[] = ['M8', 'O16', 'O16', 'O16'];
const O16x2: OperandKind[] = ['M8', 'O16', 'O16'];
const O16x1: OperandKind[] = ['M8', 'O16'];

/** Wire format of each opcode (index = byte value). */
export const WIRE_FORMATS: readonly (readonly OperandKind[])[] = (() => {
  const f: OperandKind[][] = [];
  for (let op: number = Opcode.ADD_8; op <= Opcode.SHR_16; op++) {
    if (op === Opcode.NOT_8) f[op] = ['M8', 'O8', 'O8'];
    else if (op === Opcode.NOT_16) f[op] = ['M8', 'O16', 'O16'];
    else f[op] = op % 2 === 0 ? ARITH8 : ARITH16;
  }
  f[Opcode.CAST_8] = ['M8', 'O8', 'O8', 'T'];
  f[Opcode.CAST_16] = ['M8', 'O16', 'O16', 'T'];
  f[Opcode.GETENVVAR_16] = ['M8', 'O16', 'I8'];
  f[Opcode.CALLDATACOPY] = O16x3;
  f[Opcode.SUCCESSCOPY] = O16x1;
  f[Opcode.RETURNDATASIZE] = O16x1;
  f[Opcode.RETURNDATACOPY] = O16x3;
  f[Opcode.JUMP_32] = ['L32'];
  f[Opcode.JUMPI_32] = ['M8', 'O16', 'L32'];
  f[Opcode.INTERNALCALL] = ['L32'];
  f[Opcode.INTERNALRETURN] = [];
  f[Opcode.SET_8] = ['M8', 'O8', 'T', 'V8'];
  f[Opcode.SET_16] = ['M8', 'O16', 'T', 'V16'];
  f[Opcode.SET_32] = ['M8', 'O16', 'T', 'V32'];
  f[Opcode.SET_64] = ['M8', 'O16', 'T', 'V64'];
  f[Opcode.SET_128] = ['M8', 'O16', 'T', 'V128'];
  f[Opcode.SET_FF] = ['M8', 'O16', 'T', 'VFF'];
  f[Opcode.MOV_8] = ['M8', 'O8', 'O8'];
  f[Opcode.MOV_16] = ['M8', 'O16', 'O16'];
  f[Opcode.SLOAD] = O16x3;
  f[Opcode.SSTORE] = O16x2;
  f[Opcode.NOTEHASHEXISTS] = O16x3;
  f[Opcode.EMITNOTEHASH] = O16x1;
  f[Opcode.NULLIFIEREXISTS] = O16x2;
  f[Opcode.EMITNULLIFIER] = O16x1;
  f[Opcode.L1TOL2MSGEXISTS] = O16x3;
  f[Opcode.GETCONTRACTINSTANCE] = ['M8', 'O16', 'O16', 'I8'];
  f[Opcode.EMITPUBLICLOG] = O16x2;
  f[Opcode.SENDL2TOL1MSG] = O16x2;
  f[Opcode.CALL] = ['M16', 'O16', 'O16', 'O16', 'O16', 'O16'];
  f[Opcode.STATICCALL] = ['M16', 'O16', 'O16', 'O16', 'O16', 'O16'];
  f[Opcode.RETURN] = O16x2;
  f[Opcode.REVERT_8] = ['M8', 'O8', 'O8'];
  f[Opcode.REVERT_16] = O16x2;
  f[Opcode.DEBUGLOG] = ['M8', 'O16', 'O16', 'O16', 'O16', 'I16'];
  f[Opcode.POSEIDON2] = O16x2;
  f[Opcode.SHA256COMPRESSION] = O16x3;
  f[Opcode.KECCAKF1600] = O16x2;
  f[Opcode.ECADD] = ['M16', 'O16', 'O16', 'O16', 'O16', 'O16', 'O16', 'O16'];
  f[Opcode.TORADIXBE] = ['M16', 'O16', 'O16', 'O16', 'O16', 'O16'];
  return f;
})();

/** Base gas per opcode, [L2, DA] (the _8 and _16 variants cost the same). */
export const BASE_GAS: readonly (readonly [number, number])[] = (() => {
  const g: [number, number][] = [];
  const set = (ops: number[], l2: number, da = 0) => {
    for (const op of ops) g[op] = [l2, da];
  };
  const O = Opcode;
  set([O.ADD_8, O.ADD_16], c.AVM_ADD_BASE_L2_GAS);
  set([O.SUB_8, O.SUB_16], c.AVM_SUB_BASE_L2_GAS);
  set([O.MUL_8, O.MUL_16], c.AVM_MUL_BASE_L2_GAS);
  set([O.DIV_8, O.DIV_16], c.AVM_DIV_BASE_L2_GAS);
  set([O.FDIV_8, O.FDIV_16], c.AVM_FDIV_BASE_L2_GAS);
  set([O.EQ_8, O.EQ_16], c.AVM_EQ_BASE_L2_GAS);
  set([O.LT_8, O.LT_16], c.AVM_LT_BASE_L2_GAS);
  set([O.LTE_8, O.LTE_16], c.AVM_LTE_BASE_L2_GAS);
  set([O.AND_8, O.AND_16], c.AVM_AND_BASE_L2_GAS);
  set([O.OR_8, O.OR_16], c.AVM_OR_BASE_L2_GAS);
  set([O.XOR_8, O.XOR_16], c.AVM_XOR_BASE_L2_GAS);
  set([O.NOT_8, O.NOT_16], c.AVM_NOT_BASE_L2_GAS);
  set([O.SHL_8, O.SHL_16], c.AVM_SHL_BASE_L2_GAS);
  set([O.SHR_8, O.SHR_16], c.AVM_SHR_BASE_L2_GAS);
  set([O.CAST_8, O.CAST_16], c.AVM_CAST_BASE_L2_GAS);
  set([O.GETENVVAR_16], c.AVM_GETENVVAR_BASE_L2_GAS);
  set([O.CALLDATACOPY], c.AVM_CALLDATACOPY_BASE_L2_GAS);
  set([O.SUCCESSCOPY], c.AVM_SUCCESSCOPY_BASE_L2_GAS);
  set([O.RETURNDATASIZE], c.AVM_RETURNDATASIZE_BASE_L2_GAS);
  set([O.RETURNDATACOPY], c.AVM_RETURNDATACOPY_BASE_L2_GAS);
  set([O.JUMP_32], c.AVM_JUMP_BASE_L2_GAS);
  set([O.JUMPI_32], c.AVM_JUMPI_BASE_L2_GAS);
  set([O.INTERNALCALL], c.AVM_INTERNALCALL_BASE_L2_GAS);
  set([O.INTERNALRETURN], c.AVM_INTERNALRETURN_BASE_L2_GAS);
  set([O.SET_8, O.SET_16, O.SET_32, O.SET_64, O.SET_128, O.SET_FF], c.AVM_SET_BASE_L2_GAS);
  set([O.MOV_8, O.MOV_16], c.AVM_MOV_BASE_L2_GAS);
  set([O.SLOAD], c.AVM_SLOAD_BASE_L2_GAS);
  set([O.SSTORE], c.AVM_SSTORE_BASE_L2_GAS);
  set([O.NOTEHASHEXISTS], c.AVM_NOTEHASHEXISTS_BASE_L2_GAS);
  set([O.EMITNOTEHASH], c.AVM_EMITNOTEHASH_BASE_L2_GAS, c.AVM_EMITNOTEHASH_BASE_DA_GAS);
  set([O.NULLIFIEREXISTS], c.AVM_NULLIFIEREXISTS_BASE_L2_GAS);
  set([O.EMITNULLIFIER], c.AVM_EMITNULLIFIER_BASE_L2_GAS, c.AVM_EMITNULLIFIER_BASE_DA_GAS);
  set([O.L1TOL2MSGEXISTS], c.AVM_L1TOL2MSGEXISTS_BASE_L2_GAS);
  set([O.GETCONTRACTINSTANCE], c.AVM_GETCONTRACTINSTANCE_BASE_L2_GAS);
  set([O.EMITPUBLICLOG], c.AVM_EMITPUBLICLOG_BASE_L2_GAS, c.AVM_EMITPUBLICLOG_BASE_DA_GAS);
  set([O.SENDL2TOL1MSG], c.AVM_SENDL2TOL1MSG_BASE_L2_GAS, c.AVM_SENDL2TOL1MSG_BASE_DA_GAS);
  set([O.CALL], c.AVM_CALL_BASE_L2_GAS);
  set([O.STATICCALL], c.AVM_STATICCALL_BASE_L2_GAS);
  set([O.RETURN], c.AVM_RETURN_BASE_L2_GAS);
  set([O.REVERT_8, O.REVERT_16], c.AVM_REVERT_BASE_L2_GAS);
  set([O.DEBUGLOG], c.AVM_DEBUGLOG_BASE_L2_GAS);
  set([O.POSEIDON2], c.AVM_POSEIDON2_BASE_L2_GAS);
  set([O.SHA256COMPRESSION], c.AVM_SHA256COMPRESSION_BASE_L2_GAS);
  set([O.KECCAKF1600], c.AVM_KECCAKF1600_BASE_L2_GAS);
  set([O.ECADD], c.AVM_ECADD_BASE_L2_GAS);
  set([O.TORADIXBE], c.AVM_TORADIXBE_BASE_L2_GAS);
  return g;
})();

/**
 * L2 gas of address resolution for a mode word: all seven decoded slots count, whether or not the instruction
 * has that many operands (as 4.1.2 charges it).
 */
export function addressingGas(mode: number): number {
  let indirect = 0;
  let relative = 0;
  for (let i = 0; i < c.AVM_MAX_OPERANDS; i++) {
    if ((mode >> (2 * i)) & 1) indirect++;
    if ((mode >> (2 * i + 1)) & 1) relative++;
  }
  return (
    (relative !== 0 ? c.AVM_ADDRESSING_BASE_RESOLUTION_L2_GAS : 0) +
    indirect * c.AVM_ADDRESSING_INDIRECT_L2_GAS +
    relative * c.AVM_ADDRESSING_RELATIVE_L2_GAS
  );
}

/** Opcodes that move the pc themselves (the interpreter does not advance it after them). */
export const HANDLES_PC: ReadonlySet<number> = new Set([
  Opcode.JUMP_32,
  Opcode.JUMPI_32,
  Opcode.INTERNALCALL,
  Opcode.INTERNALRETURN,
  Opcode.RETURN,
  Opcode.REVERT_8,
  Opcode.REVERT_16,
]);

/** Opcodes that refuse to run in a static call before charging any gas. */
export const STATIC_CHECK_FIRST: ReadonlySet<number> = new Set([
  Opcode.SSTORE,
  Opcode.EMITNULLIFIER,
  Opcode.EMITPUBLICLOG,
  Opcode.SENDL2TOL1MSG,
]);
