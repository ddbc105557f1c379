/**
 * Bytecode decoding, checked against Aztec 4.1.2's own deserializer (`decodeInstructionFromBytecode`) on every
 * opcode and on random and truncated byte strings: same instruction sizes, same fetch-error messages.
 */
import { describe, expect, test } from 'vitest';
import { decodeInstructionFromBytecode } from '../../../../node_modules/@aztec/simulator/dest/public/avm/serialization/bytecode_serialization.js';
import { decodeInstruction, FETCH_ERROR_OPCODE } from '../../../../src/core/avm/decoder.js';
import { addressingGas, BASE_GAS, MAX_OPCODE_VALUE, OPCODE_NAMES, Opcode } from '../../../../src/core/avm/opcodes.js';

function aztecDecode(bytes: Uint8Array, pc: number): { size: number } | { error: string } {
  try {
    const [, size] = decodeInstructionFromBytecode(Buffer.from(bytes), pc);
    return { size };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function ourDecode(bytes: Uint8Array, pc: number): { size: number } | { error: string } {
  const ins = decodeInstruction(bytes, pc);
  return ins.opcode === FETCH_ERROR_OPCODE ? { error: ins.fetchError as string } : { size: ins.size };
}

/** A deterministic byte stream (xorshift), so failures reproduce. */
function randomBytes(seed: number, n: number): Uint8Array {
  let s = seed >>> 0 || 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  return out;
}

describe('decoder', () => {
  test('the opcode table has 68 names in byte order', () => {
    expect(OPCODE_NAMES).toHaveLength(MAX_OPCODE_VALUE + 1);
    expect(OPCODE_NAMES[Opcode.TORADIXBE]).toBe('TORADIXBE');
  });

  test('every opcode decodes to the size 4.1.2 reads (valid tags, long buffer)', () => {
    for (let op = 0; op <= MAX_OPCODE_VALUE; op++) {
      const bytes = new Uint8Array(64);
      bytes[0] = op;
      expect(ourDecode(bytes, 0), OPCODE_NAMES[op]).toEqual(aztecDecode(bytes, 0));
    }
  });

  test('every opcode truncated at every length fails with 4.1.2 message', () => {
    for (let op = 0; op <= MAX_OPCODE_VALUE; op++) {
      const full = new Uint8Array(64);
      full[0] = op;
      const size = (ourDecode(full, 0) as { size: number }).size;
      for (let len = 1; len < size; len++) {
        const bytes = full.slice(0, len);
        expect(ourDecode(bytes, 0), `${OPCODE_NAMES[op]} cut to ${len}`).toEqual(aztecDecode(bytes, 0));
      }
    }
  });

  test('random byte strings decode identically at every pc (opcodes, tags, truncation)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const bytes = randomBytes(seed, 48);
      // Bias towards valid opcodes so more than the opcode check is exercised.
      bytes[0] = (bytes[0] as number) % 70;
      for (let pc = 0; pc < bytes.length; pc++) {
        expect(ourDecode(bytes, pc), `seed ${seed} pc ${pc}`).toEqual(aztecDecode(bytes, pc));
      }
    }
  });

  test('SET_FF reduces its value modulo p and SET truncates to the tag', () => {
    const set = new Uint8Array(37).fill(0xff);
    set[0] = Opcode.SET_FF;
    set[1] = 0;
    set[2] = 0;
    set[3] = 0;
    set[4] = 0; // tag FF
    expect(decodeInstruction(set, 0).value).toBe(
      (1n << 256n) - 1n - 21888242871839275222246405745257275088548364400416034343698204186575808495617n * 5n,
    );
    set[4] = 2; // tag U8
    expect(decodeInstruction(set, 0).value).toBe(
      ((1n << 256n) - 1n - 21888242871839275222246405745257275088548364400416034343698204186575808495617n * 5n) & 0xffn,
    );
  });

  test('base gas includes addressing: 3 per indirect, 3 per relative, 3 once when any relative', () => {
    expect(addressingGas(0)).toBe(0);
    expect(addressingGas(0b01)).toBe(3);
    expect(addressingGas(0b10)).toBe(6);
    expect(addressingGas(0b1111)).toBe(15);
    // Mode bits for operands the instruction lacks still count.
    const add = Uint8Array.from([Opcode.ADD_8, 0b11000000, 1, 2, 3]);
    expect(decodeInstruction(add, 0).baseL2).toBe((BASE_GAS[Opcode.ADD_8] as [number, number])[0] + 9);
    // JUMP has no mode and no addressing cost.
    expect(decodeInstruction(Uint8Array.from([Opcode.JUMP_32, 0, 0, 0, 0]), 0).baseL2).toBe(9);
  });
});
