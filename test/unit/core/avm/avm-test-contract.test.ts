/**
 * Smoke tests on real bytecode: the transpiled AvmTest contract of @aztec/noir-test-contracts.js@4.1.2, run by our
 * AVM, against figures measured with Aztec 4.1.2's own TypeScript simulator (one app-logic call, no private gas).
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { executeEnqueuedCall, InMemoryAvmWorld } from '../../../../src/core/avm/index.js';
import { encodeCall, type LoadedContract, loadContract } from '../../../helpers/avm/contracts.js';

const ADDRESS = 0xabc001n;
const CLASS_ID = 0xc1a55n;
const SENDER = 0x5e4dn;
const GLOBALS = { chainId: 1n, version: 1n, blockNumber: 10, timestamp: 1000n, feePerDaGas: 1n, feePerL2Gas: 1n };
const GAS = { l2Gas: 6_540_000, daGas: 196_608 };

let avm: LoadedContract;
beforeAll(async () => {
  avm = await loadContract('@aztec/noir-test-contracts.js', 'avm_test_contract-AvmTest');
}, 120_000);

function call(fn: string, args: unknown[], world = new InMemoryAvmWorld()) {
  world.deploy(ADDRESS, CLASS_ID, avm.packedBytecode);
  for (const [name, f] of avm.functions) world.setFunctionName(ADDRESS, Number(f.selector), name);
  return executeEnqueuedCall({
    world,
    contracts: world,
    globals: GLOBALS,
    address: ADDRESS,
    sender: SENDER,
    calldata: encodeCall(avm, fn, args),
    gasLimit: GAS,
    firstNullifier: 0x1234n,
  });
}

describe('AvmTest on our AVM (figures from the 4.1.2 simulator)', () => {
  test('add_args_return(3, 4) returns 7 for 5709 L2 gas', () => {
    const r = call('add_args_return', [3, 4]);
    expect(r.revertReason).toBeUndefined();
    expect(r.output).toEqual([7n]);
    expect(r.gasUsed).toEqual({ l2Gas: 5709, daGas: 0 });
  });

  test('set_storage_single(5) writes one slot for 37736 L2 / 64 DA', () => {
    const r = call('set_storage_single', [5]);
    expect(r.reverted).toBe(false);
    expect(r.gasUsed).toEqual({ l2Gas: 37736, daGas: 64 });
    expect(r.effects.publicDataWrites.map((w) => w.value)).toEqual([5n]);
  });

  test('new_nullifier(9) costs 41480 L2 / 32 DA', () => {
    const r = call('new_nullifier', [9]);
    expect(r.reverted).toBe(false);
    expect(r.gasUsed).toEqual({ l2Gas: 41480, daGas: 32 });
    expect(r.effects.nullifiers).toHaveLength(1);
  });

  test('nested_call_to_add(2, 5) returns 7 for 30201 L2 gas', () => {
    const r = call('nested_call_to_add', [2, 5]);
    expect(r.revertReason).toBeUndefined();
    expect(r.output).toEqual([7n]);
    expect(r.gasUsed).toEqual({ l2Gas: 30201, daGas: 0 });
  });

  test('divide_by_zero(0) halts and consumes the whole allocation', () => {
    const r = call('divide_by_zero', [0]);
    expect(r.reverted).toBe(true);
    expect(r.gasUsed).toEqual(GAS);
    expect(r.revertReason?.message).toBe('Division by zero');
    expect(r.effects.publicDataWrites).toEqual([]);
  });

  test('assertion_failure() reverts explicitly for 7095 L2 with 4.1.2 call stack', () => {
    const r = call('assertion_failure', []);
    expect(r.reverted).toBe(true);
    expect(r.gasUsed).toEqual({ l2Gas: 7095, daGas: 0 });
    expect(r.revertReason?.message).toBe('Assertion failed: ');
    expect(r.revertReason?.revertData).toHaveLength(1);
    expect(r.revertReason?.noirCallStack).toEqual(['0.44', '0.44521', '0.54211']);
    expect(r.revertReason?.failingFunctions).toEqual([
      {
        contractAddress: ADDRESS,
        functionSelector: Number(avm.functions.get('assertion_failure')!.selector),
        functionName: 'assertion_failure',
      },
    ]);
  });

  test('external_call_to_divide_by_zero() carries the nested message', () => {
    const r = call('external_call_to_divide_by_zero', []);
    expect(r.reverted).toBe(true);
    expect(r.gasUsed).toEqual(GAS);
    expect(r.revertReason?.message).toBe('Division by zero');
  });
});
