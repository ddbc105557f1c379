/**
 * Opcode semantics, tag checks, gas and halts on small assembled programs. Expected values follow the 4.1.2 rules
 * (wraparound per tag, field arithmetic, error texts as they appear in revert reasons); the differential tests
 * compare the same behaviours with Aztec's simulator on random programs.
 */
import { describe, expect, test } from 'vitest';
import { type AvmCallResult, executeBytecode, InMemoryAvmWorld } from '../../../../src/core/avm/index.js';
import { FR_MODULUS } from '../../../../src/core/fr.js';
import { type AsmItem, assemble } from '../../../helpers/avm/avm-assembler.js';

/** Memory tags as SET and CAST encode them. */
const [FF, U1, U8, U16, U32, U64, U128] = [0n, 1n, 2n, 3n, 4n, 5n, 6n];

const SELF = 0x5e1fn;
const GLOBALS = {
  chainId: 31337n,
  version: 7n,
  blockNumber: 42,
  timestamp: 1_700_000_000n,
  feePerDaGas: 3n,
  feePerL2Gas: 5n,
};

const set = (dst: number, tag: bigint, value: bigint): AsmItem =>
  value < 1n << 128n
    ? { op: 'SET_128', operands: [BigInt(dst), tag, value] }
    : { op: 'SET_FF', operands: [BigInt(dst), tag, value] };
const op = (name: string, ...operands: (number | bigint | string)[]): AsmItem => ({
  op: name,
  operands: operands.map((o) => (typeof o === 'number' ? BigInt(o) : o)),
});
const withMode = (name: string, mode: number, ...operands: number[]): AsmItem => ({
  op: name,
  mode,
  operands: operands.map(BigInt),
});
/** RETURN `size` cells from `offset` (the size goes in cell 1000). */
const ret = (offset: number, size: number): AsmItem[] => [set(1000, U32, BigInt(size)), op('RETURN', 1000, offset)];
/** CALL/STATICCALL of `address` with no arguments and the given gas (operands in cells 0..3). */
const call = (name: 'CALL' | 'STATICCALL', address: bigint, l2Gas: bigint, daGas: bigint): AsmItem[] => [
  set(0, U32, l2Gas),
  set(1, U32, daGas),
  set(2, FF, address),
  set(3, U32, 0n),
  op(name, 0, 1, 2, 3, 4),
];

function run(
  items: AsmItem[],
  opts: {
    calldata?: bigint[];
    l2Gas?: number;
    daGas?: number;
    world?: InMemoryAvmWorld;
    static?: boolean;
    debug?: boolean;
  } = {},
): AvmCallResult {
  const world = opts.world ?? new InMemoryAvmWorld();
  return executeBytecode(assemble(items), {
    world,
    contracts: world,
    globals: GLOBALS,
    address: SELF,
    sender: 0x99n,
    isStaticCall: opts.static ?? false,
    calldata: opts.calldata ?? [],
    gasLimit: { l2Gas: opts.l2Gas ?? 1_000_000, daGas: opts.daGas ?? 100_000 },
    firstNullifier: 0xf1n,
    config: { collectDebugLogs: opts.debug ?? false },
  });
}

/** Runs `a OP b` with both operands tagged `tag` and returns the result value. */
function binary(name: string, tag: bigint, a: bigint, b: bigint): AvmCallResult {
  return run([set(0, tag, a), set(1, tag, b), op(name, 0, 1, 2), ...ret(2, 1)]);
}

describe('arithmetic and tags', () => {
  test('integer ops wrap at the tag width; field ops are modulo p', () => {
    expect(binary('ADD_8', U8, 200n, 100n).output).toEqual([44n]);
    expect(binary('SUB_8', U16, 1n, 2n).output).toEqual([0xffffn]);
    expect(binary('MUL_8', U64, 1n << 63n, 2n).output).toEqual([0n]);
    expect(binary('ADD_8', FF, FR_MODULUS - 1n, 5n).output).toEqual([4n]);
    expect(binary('SUB_8', FF, 1n, 2n).output).toEqual([FR_MODULUS - 1n]);
    expect(binary('DIV_8', U32, 7n, 2n).output).toEqual([3n]);
    expect(binary('FDIV_8', FF, 1n, 2n).output).toEqual([(FR_MODULUS + 1n) / 2n]);
    expect(binary('ADD_8', U1, 1n, 1n).output).toEqual([0n]);
  });

  test('comparisons give u1; LT on fields compares the integers', () => {
    expect(binary('LT_8', FF, FR_MODULUS - 1n, 3n).output).toEqual([0n]);
    expect(binary('LTE_8', U128, 3n, 3n).output).toEqual([1n]);
    expect(binary('EQ_8', U8, 3n, 4n).output).toEqual([0n]);
  });

  test('bitwise ops and shifts', () => {
    expect(binary('AND_8', U8, 0b1100n, 0b1010n).output).toEqual([0b1000n]);
    expect(binary('XOR_16', U128, 0b1100n, 0b1010n).output).toEqual([0b0110n]);
    expect(binary('SHL_8', U8, 1n, 8n).output).toEqual([0n]);
    expect(binary('SHL_8', U8, 0x81n, 1n).output).toEqual([2n]);
    expect(binary('SHR_8', U64, 0x80n, 1n << 60n).output).toEqual([0n]);
    expect(run([set(0, U16, 1n), op('NOT_8', 0, 1), ...ret(1, 1)]).output).toEqual([0xfffen]);
  });

  test('tag mismatches halt with 4.1.2 messages and consume all gas', () => {
    const r = run([set(0, U8, 1n), set(1, U16, 1n), op('ADD_8', 0, 1, 2), ...ret(2, 1)], { l2Gas: 5000, daGas: 7 });
    expect(r.reverted).toBe(true);
    expect(r.output).toEqual([]);
    expect(r.gasUsed).toEqual({ l2Gas: 5000, daGas: 7 });
    expect(r.revertReason?.message).toBe('Tag mismatch at offset 1, got UINT16, expected UINT8');
    expect(binary('DIV_8', FF, 1n, 1n).revertReason?.message).toBe('Tag mismatch, got FIELD, expected integral');
    expect(binary('FDIV_8', U8, 1n, 1n).revertReason?.message).toBe(
      'Tag mismatch at offset 0, got UINT8, expected FIELD',
    );
    expect(binary('AND_8', FF, 1n, 1n).revertReason?.message).toBe('Tag mismatch, got FIELD, expected integral');
    expect(binary('DIV_8', U8, 1n, 0n).revertReason?.message).toBe('Division by zero');
  });

  test('CAST truncates to the target tag; MOV keeps the tag', () => {
    const r = run([
      set(0, FF, FR_MODULUS - 1n),
      op('CAST_8', 0, 1, U8),
      op('MOV_8', 1, 2),
      set(3, U8, 1n),
      op('ADD_8', 2, 3, 4),
      ...ret(4, 1),
    ]);
    expect(r.output).toEqual([((FR_MODULUS - 1n) & 0xffn) + 1n]);
  });
});

describe('addressing', () => {
  test('relative operands add mem[0]; indirect ones read a u32 pointer', () => {
    const r = run([
      set(0, U32, 10n),
      set(15, U8, 6n),
      set(20, U32, 15n), // pointer to 15
      withMode('ADD_8', 0b00_01_10, 5, 20, 30), // a = mem[10+5], b = mem[mem[20]], dst = 30
      ...ret(30, 1),
    ]);
    expect(r.output).toEqual([12n]);
  });

  test('a base address that is not u32 halts; addressing gas is charged', () => {
    const r = run([set(0, U8, 1n), withMode('MOV_8', 0b10, 1, 2), ...ret(2, 1)]);
    expect(r.revertReason?.message).toBe('Base address (mem[0]) is not a valid address (has tag UINT8)');
    const ok = run([set(0, U32, 1n), withMode('MOV_8', 0b10, 1, 2), ...ret(2, 1)]);
    // SET 27 + MOV 12 + relative 3 + base 3 + SET 27 + RETURN 9.
    expect(ok.gasUsed.l2Gas).toBe(27 + 18 + 27 + 9);
  });
});

describe('control flow and halts', () => {
  test('JUMPI takes a u1 condition; INTERNALCALL/INTERNALRETURN nest', () => {
    const r = run([
      set(0, U1, 1n),
      op('JUMPI_32', 0, 'yes'),
      set(1, FF, 111n),
      ...ret(1, 1),
      { label: 'yes' },
      op('INTERNALCALL', 'fn'),
      ...ret(1, 1),
      { label: 'fn' },
      set(1, FF, 222n),
      op('INTERNALRETURN'),
    ]);
    expect(r.output).toEqual([222n]);
  });

  test('INTERNALRETURN on an empty stack and running off the end are exceptional halts', () => {
    expect(run([op('INTERNALRETURN')]).revertReason?.message).toBe('Internal call stack empty!');
    const r = run([set(0, FF, 1n)]);
    expect(r.revertReason?.message).toBe('Invalid program counter 21, max is 20');
    expect(r.revertReason?.noirCallStack).toEqual(['0.21']);
  });

  test('out of gas zeroes both dimensions', () => {
    const r = run([set(0, FF, 1n), set(1, FF, 1n), ...ret(0, 1)], { l2Gas: 30, daGas: 100 });
    expect(r.reverted).toBe(true);
    expect(r.revertReason?.message).toBe('Not enough L2GAS gas left');
    expect(r.gasLeft).toEqual({ l2Gas: 0, daGas: 0 });
  });

  test('REVERT keeps the gas left and reports the revert data', () => {
    const r = run([set(0, FF, 0xdeadn), set(1000, U32, 1n), op('REVERT_16', 1000, 0)]);
    expect(r.reverted).toBe(true);
    expect(r.output).toEqual([0xdeadn]);
    expect(r.gasUsed.l2Gas).toBe(27 + 27 + 9);
    expect(r.revertReason).toMatchObject({
      message: 'Assertion failed: ',
      revertData: [0xdeadn],
      noirCallStack: ['0.42'],
    });
  });
});

describe('environment and calldata', () => {
  test('GETENVVAR answers from the frame and the globals, with 4.1.2 tags', () => {
    const r = run([...[0, 1, 3, 4, 5, 6, 7, 8, 9, 10].map((v, i) => op('GETENVVAR_16', i, v)), ...ret(0, 10)]);
    expect(r.output).toEqual([SELF, 0x99n, 31337n, 7n, 42n, 1_700_000_000n, 5n, 3n, 0n, BigInt(1_000_000 - 12 * 10)]);
    expect(run([op('GETENVVAR_16', 0, 12)]).revertReason?.message).toBe('Invalid GETENVVAR var enum 12');
  });

  test('CALLDATACOPY pads past the end with zeros and charges 3 per cell', () => {
    const r = run([set(0, U32, 4n), set(1, U32, 1n), op('CALLDATACOPY', 0, 1, 10), ...ret(10, 4)], {
      calldata: [5n, 6n, 7n],
    });
    expect(r.output).toEqual([6n, 7n, 0n, 0n]);
    expect(r.gasUsed.l2Gas).toBe(27 * 2 + 18 + 12 + 27 + 9);
  });
});

describe('world state and journal', () => {
  test('SSTORE pays 64 DA only for a cold slot; SLOAD sees the write', () => {
    const r = run([
      set(0, FF, 9n),
      set(1, FF, 77n),
      op('SSTORE', 1, 0),
      op('SSTORE', 1, 0),
      set(2, FF, SELF),
      op('SLOAD', 0, 2, 3),
      ...ret(3, 1),
    ]);
    expect(r.output).toEqual([77n]);
    expect(r.gasUsed.daGas).toBe(64);
    expect(r.effects.publicDataWrites.map((w) => [w.slot, w.value])).toEqual([
      [9n, 77n],
      [9n, 77n],
    ]);
  });

  test('state-changing opcodes in a static call halt', () => {
    const r = run([set(0, FF, 1n), op('SSTORE', 0, 0)], { static: true });
    expect(r.revertReason?.message).toBe('Static call cannot update the state, emit L2->L1 messages or generate logs');
  });

  test('a duplicate nullifier halts; the reverted call leaves no effects', () => {
    const r = run([set(0, FF, 5n), op('EMITNULLIFIER', 0), op('EMITNULLIFIER', 0)]);
    expect(r.revertReason?.message).toMatch(/^Attempted to emit duplicate nullifier 0x0{63}5 \(contract address: 0x/);
    expect(r.effects.nullifiers).toEqual([]);
  });

  test('EMITPUBLICLOG and SENDL2TOL1MSG record scoped effects', () => {
    const r = run([
      set(0, FF, 1n),
      set(1, FF, 2n),
      set(2, U32, 2n),
      op('EMITPUBLICLOG', 2, 0),
      op('SENDL2TOL1MSG', 1, 0),
      ...ret(0, 0),
    ]);
    expect(r.effects.publicLogs).toEqual([{ contractAddress: SELF, fields: [1n, 2n] }]);
    expect(r.effects.l2ToL1Messages).toEqual([{ recipient: 2n, content: 1n, contractAddress: SELF }]);
    expect(r.gasUsed.daGas).toBe(64 + 32 * 2 + 32);
  });

  test('GETCONTRACTINSTANCE answers (exists, member) and (0, 0) for nobody', () => {
    const world = new InMemoryAvmWorld();
    world.deploy(0xc0ffeen, 0xc1a55n, new Uint8Array([0]), 0xdeb10e4n, 0x1a17n);
    const r = run(
      [
        set(0, FF, 0xc0ffeen),
        op('GETCONTRACTINSTANCE', 0, 1, 0),
        op('GETCONTRACTINSTANCE', 0, 3, 1),
        set(5, FF, 0xbadn),
        op('GETCONTRACTINSTANCE', 5, 6, 2),
        ...ret(1, 7),
      ],
      { world },
    );
    expect(r.output).toEqual([1n, 0xdeb10e4n, 1n, 0xc1a55n, 0xbadn, 0n, 0n]);
  });

  test('DEBUGLOG records level, message and fields when collection is on', () => {
    const items = [
      set(0, U8, 4n),
      set(1, U8, 104n),
      set(2, U8, 105n),
      set(3, FF, 42n),
      set(4, U32, 1n),
      op('DEBUGLOG', 0, 1, 3, 4, 2),
      ...ret(0, 0),
    ];
    expect(run(items).debugLogs).toEqual([]);
    expect(run(items, { debug: true }).debugLogs).toEqual([
      { contractAddress: SELF, level: 'info', message: 'hi', fields: [42n] },
    ]);
  });
});

describe('nested calls', () => {
  test('a reverted callee refunds its gas left, drops its effects, and SUCCESSCOPY/RETURNDATA see it', () => {
    const world = new InMemoryAvmWorld();
    const callee = assemble([
      set(0, FF, 3n),
      op('EMITNULLIFIER', 0),
      set(1, FF, 0xeen),
      set(2, U32, 1n),
      op('REVERT_16', 2, 1),
    ]);
    world.deploy(0xca11n, 0xc1a55n, callee);
    const r = run(
      [
        ...call('CALL', 0xca11n, 100_000n, 100_000n),
        op('SUCCESSCOPY', 10),
        op('RETURNDATASIZE', 11),
        set(12, U32, 0n),
        op('RETURNDATACOPY', 11, 12, 13),
        ...ret(10, 4),
      ],
      { world },
    );
    expect(r.reverted).toBe(false);
    expect(r.output).toEqual([0n, 1n, 0n, 0xeen]);
    expect(r.effects.nullifiers).toEqual([]);
    // The callee is charged exactly what it used; the rest of its allocation comes back.
    const calleeGas = 27 + 30800 + 27 + 27 + 9;
    expect(r.gasUsed).toEqual({ l2Gas: 27 * 4 + 9936 + calleeGas + 12 + 12 + 27 + 18 + 3 + 27 + 9, daGas: 32 });
  });

  test('a call to an address with no contract reverts and consumes its allocation', () => {
    const r = run([...call('STATICCALL', 0xdeadn, 5000n, 0n), op('SUCCESSCOPY', 10), ...ret(10, 1)]);
    expect(r.output).toEqual([0n]);
    expect(r.gasUsed.l2Gas).toBe(27 * 4 + 9936 + 5000 + 12 + 27 + 9);
  });
});

describe('gadget opcodes', () => {
  test('TORADIXBE big-endian limbs, with its checks', () => {
    const prog = (value: bigint, radix: bigint, limbs: bigint, bits: bigint) =>
      run([
        set(0, FF, value),
        set(1, U32, radix),
        set(2, U32, limbs),
        set(3, U1, bits),
        op('TORADIXBE', 0, 1, 2, 3, 10),
        ...ret(10, Number(limbs)),
      ]);
    expect(prog(0x1234n, 256n, 3n, 0n).output).toEqual([0n, 0x12n, 0x34n]);
    expect(prog(5n, 2n, 4n, 1n).output).toEqual([0n, 1n, 0n, 1n]);
    expect(prog(256n, 256n, 1n, 0n).revertReason?.message).toBe('Field failed to decompose in 1 limbs.');
    expect(prog(5n, 1n, 1n, 0n).revertReason?.message).toBe(
      "ToRadixBE instruction's radix should be in range [2,256] (was 1).",
    );
    // Dynamic gas: 3 * max(limbs, limbs of the modulus in that radix) = 3 * 32 for radix 256.
    expect(prog(0x1234n, 256n, 3n, 0n).gasUsed.l2Gas).toBe(27 * 4 + 24 + 3 * 32 + 27 + 9);
  });

  test('ECADD rejects a point off the curve', () => {
    const r = run([set(0, FF, 1n), set(1, FF, 1n), set(2, U1, 0n), op('ECADD', 0, 1, 2, 0, 1, 2, 10)]);
    expect(r.revertReason?.message).toBe(
      `EcAdd point1 (0x${'1'.padStart(64, '0')}${'1'.padStart(64, '0')}) is not on the curve.`,
    );
  });

  test('KECCAKF1600 wants u64 lanes; POSEIDON2 wants fields', () => {
    expect(run([op('KECCAKF1600', 100, 0)]).revertReason?.message).toBe(
      'Tag mismatch at offset 0, got FIELD, expected UINT64',
    );
    const r = run([set(2, U8, 1n), op('POSEIDON2', 0, 10)]);
    expect(r.revertReason?.message).toBe('Tag mismatch at offset 2, got UINT8, expected FIELD');
  });
});
