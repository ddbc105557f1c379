/**
 * The AVM's wall-clock deadline (src/core/avm/deadline.ts): a job's loops stop themselves at it, with an error
 * that is not an exceptional halt (nothing reverts, nothing is charged), and the AVM's results are the same with
 * or without one when it is not reached.
 */
import { describe, expect, test } from 'vitest';
import {
  type AvmCallResult,
  AvmDeadlineError,
  executeBytecode,
  InMemoryAvmWorld,
  withAvmDeadline,
} from '../../../../src/core/avm/index.js';
import { type AsmItem, assemble } from '../../../helpers/avm/avm-assembler.js';

const U1 = 1n;
const U32 = 4n;
const GLOBALS = { chainId: 1n, version: 1n, blockNumber: 1, timestamp: 1n, feePerDaGas: 1n, feePerL2Gas: 1n };
const set = (dst: number, tag: bigint, value: bigint): AsmItem => ({
  op: 'SET_128',
  operands: [BigInt(dst), tag, value],
});
const op = (name: string, ...operands: (number | bigint | string)[]): AsmItem => ({
  op: name,
  operands: operands.map((o) => (typeof o === 'number' ? BigInt(o) : o)),
});

/** The cheapest loop there is, each kind of backward transfer on its own; the gas lets it run for minutes. */
const LOOPS: Record<string, AsmItem[]> = {
  JUMP: [{ label: 'top' }, op('JUMP_32', 'top')],
  JUMPI: [set(0, U1, 1n), { label: 'top' }, op('JUMPI_32', 0, 'top')],
  INTERNALCALL: [{ label: 'top' }, op('INTERNALCALL', 'top')],
};

function run(items: AsmItem[], l2Gas: number): AvmCallResult {
  const world = new InMemoryAvmWorld();
  return executeBytecode(assemble(items), {
    world,
    contracts: world,
    globals: GLOBALS,
    address: 0x5e1fn,
    sender: 0x99n,
    calldata: [],
    gasLimit: { l2Gas, daGas: 1_000 },
    firstNullifier: 0xf1n,
  });
}

describe('a wall-clock deadline for the AVM', () => {
  test.each(Object.keys(LOOPS))('a %s loop stops at its deadline with AvmDeadlineError, not a revert', (kind) => {
    const started = Date.now();
    let thrown: unknown;
    try {
      withAvmDeadline(started + 50, () => run(LOOPS[kind] as AsmItem[], 2_000_000_000));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AvmDeadlineError);
    expect((thrown as Error).message).toMatch(/passed its deadline/);
    // Stopped soon after it: the clock is read every 256 backward jumps (generous bound for a loaded machine).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('a job that starts past its deadline does not run at all', () => {
    let ran = false;
    expect(() =>
      withAvmDeadline(Date.now() - 1, () => {
        ran = true;
      }),
    ).toThrow(AvmDeadlineError);
    expect(ran).toBe(false);
  });

  test('without reaching it, the results are those of a run without one; outside it, no deadline holds', () => {
    // A bounded loop: 1000 rounds of a counter, then RETURN it.
    const counted: AsmItem[] = [
      set(0, U32, 0n),
      set(1, U32, 1n),
      set(2, U32, 1000n),
      { label: 'top' },
      op('ADD_8', 0, 1, 0),
      op('LT_8', 0, 2, 3),
      op('JUMPI_32', 3, 'top'),
      set(4, U32, 1n),
      op('RETURN', 4, 0),
    ];
    const plain = run(counted, 1_000_000);
    const timed = withAvmDeadline(Date.now() + 60_000, () => run(counted, 1_000_000));
    expect(plain.reverted).toBe(false);
    expect(plain.output).toEqual([1000n]);
    expect(timed.output).toEqual(plain.output);
    expect(timed.gasUsed).toEqual(plain.gasUsed);
    // The deadline was the job's only: a run after it (out of gas at last) is not stopped by the past deadline.
    const after = run(LOOPS.JUMP as AsmItem[], 100_000);
    expect(after.reverted).toBe(true);
    expect(after.revertReason?.message).toMatch(/Not enough L2GAS/);
  });
});
