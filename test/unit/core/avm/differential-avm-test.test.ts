/**
 * Differential test on real bytecode: every public function of 4.1.2's `AvmTest` (and `AvmGadgetsTest`) run as an
 * enqueued call on Aztec's TypeScript simulator and on ours, from the same world. Each function runs with
 * arguments derived from its ABI (two variants), and the interesting ones also with hand-picked arguments:
 * reverting calls, nested calls that revert, static-call violations, side-effect limits, out-of-gas. Revert
 * status, output, L2 and DA gas, the revert reason (message, failing functions, opcode stack) and every effect
 * must be equal.
 */
import type { AbiType } from '@aztec/stdlib/abi';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  deployed,
  encodeCall,
  type LoadedContract,
  loadContract,
  protocolContract,
} from '../../../helpers/avm/contracts.js';
import { runBoth, type Step } from '../../../helpers/avm/differential.js';
import { renderOutcome } from '../../../helpers/avm/outcome.js';
import { type ResolvedWorld, resolveWorld } from '../../../helpers/avm/world-description.js';

const AVM = 0xa7e5_7001n;
/** More instances of the AvmTest class, for calls to "different addresses". */
const AVM_2 = 0xa7e5_7002n;
const AVM_3 = 0xa7e5_7003n;
const GADGETS = 0x6ad6_e701n;
const AVM_CLASS = 0xc1a5_5a01n;
const GADGETS_CLASS = 0xc1a5_5a02n;
const DEPLOYER = 0xde91_0e5en;
const INIT_HASH = 0x1417_4a54n;
const SENDER = 0x5e4d_e401n;
const MISSING = 0xdead_beefn;
const NOTE_HASHES = [0x1001n, 0x1002n, 0x1003n];
const MESSAGES = [0x2001n, 0x2002n];
const EXISTING_NULLIFIER = 0x3001n;

const G = { x: 1n, y: 17631683881184975370165255887551781615748388533673675138860n, is_infinite: false };

let avm: LoadedContract;
let gadgets: LoadedContract;
let world: ResolvedWorld;

beforeAll(async () => {
  avm = await loadContract('@aztec/noir-test-contracts.js', 'avm_test_contract-AvmTest');
  gadgets = await loadContract('@aztec/noir-test-contracts.js', 'avm_gadgets_test_contract-AvmGadgetsTest');
  const extra = { deployer: DEPLOYER, initializationHash: INIT_HASH };
  world = await resolveWorld({
    contracts: [
      deployed(avm, AVM, AVM_CLASS, extra),
      deployed(avm, AVM_2, AVM_CLASS, extra),
      deployed(avm, AVM_3, AVM_CLASS, extra),
      deployed(gadgets, GADGETS, GADGETS_CLASS),
      await protocolContract('AuthRegistry'),
      await protocolContract('ContractInstanceRegistry'),
      await protocolContract('FeeJuice'),
    ],
    noteHashes: NOTE_HASHES,
    l1ToL2Messages: MESSAGES,
    nullifiers: [EXISTING_NULLIFIER],
    storage: [{ contract: AVM, slot: 1n, value: 0x77n }],
  });
});

/** A value for an ABI type: small numbers for variant 0, larger ones for variant 1; addresses point at AvmTest. */
function argFor(type: AbiType, variant: number, index: number): unknown {
  switch (type.kind) {
    case 'field':
      return variant === 0 ? BigInt(index + 3) : 0x1234_5678_9abc_def0n * BigInt(index + 1);
    case 'boolean':
      return (variant + index) % 2 === 0;
    case 'integer': {
      const size = 1n << BigInt(type.width);
      const v = variant === 0 ? BigInt(index + 2) : size - 1n - BigInt(index);
      return ((v % size) + size) % size;
    }
    case 'array':
      return Array.from({ length: type.length }, (_, i) => argFor(type.type, variant, index + i));
    case 'string':
      return 'avm'.padEnd(type.length, 'x').slice(0, type.length);
    case 'struct': {
      if (type.path.endsWith('AztecAddress')) return AVM;
      if (type.path.endsWith('EthAddress')) return { inner: 0xe7a0n + BigInt(variant) };
      if (type.path.endsWith('ContractClassId')) return { inner: AVM_CLASS };
      if (type.path.endsWith('EmbeddedCurvePoint')) return G;
      return Object.fromEntries(type.fields.map((f, i) => [f.name, argFor(f.type, variant, index + i)]));
    }
    case 'tuple':
      return type.fields.map((f, i) => argFor(f, variant, index + i));
  }
}

interface Case {
  name: string;
  steps: () => Step[];
  collectDebugLogs?: boolean;
}

const call = (
  contract: () => LoadedContract,
  address: bigint,
  fn: string,
  args: unknown[],
  extra: Partial<Step['request']> = {},
) =>
  ({
    label: `${fn}(${args.map(String).join(', ')})`,
    request: { address, sender: SENDER, calldata: encodeCall(contract(), fn, args), ...extra },
  }) satisfies Step;
const onAvm = (fn: string, args: unknown[] = [], extra: Partial<Step['request']> = {}) =>
  call(() => avm, AVM, fn, args, extra);

/** Every public function with ABI-derived arguments; the names are read from the artifact when the test runs. */
function derivedCases(contract: () => LoadedContract, address: bigint, names: string[]): Case[] {
  return names.flatMap((fn) =>
    [0, 1].map((variant) => ({
      name: `${fn} (derived arguments, variant ${variant})`,
      steps: () => {
        const abi = contract().functions.get(fn)!.abi;
        const args = abi.parameters.map((p, i) => argFor(p.type, variant, i));
        return [{ label: fn, request: { address, sender: SENDER, calldata: encodeCall(contract(), fn, args) } }];
      },
    })),
  );
}

const AVM_TEST_FUNCTIONS = [
  'add_args_return',
  'add_storage_map',
  'add_u128',
  'assert_calldata_copy',
  'assert_calldata_copy_large',
  'assert_nullifier_exists',
  'assert_same',
  'assertion_failure',
  'bulk_testing',
  'call_auth_registry',
  'call_fee_juice',
  'call_instance_registry',
  'conditional_move',
  'create_different_nullifier_in_nested_call',
  'create_same_nullifier_in_nested_call',
  'debug_logging',
  'divide_by_zero',
  'elliptic_curve_add',
  'elliptic_curve_add_and_double',
  'emit_nullifier_and_check',
  'emit_public_log',
  'external_call_to_assertion_failure',
  'external_call_to_divide_by_zero',
  'external_call_to_divide_by_zero_recovers',
  'fn_w_large_calldata',
  'get_address',
  'get_args_hash',
  'get_block_number',
  'get_chain_id',
  'get_da_gas_left',
  'get_fee_per_da_gas',
  'get_fee_per_l2_gas',
  'get_l2_gas_left',
  'get_sender',
  'get_timestamp',
  'get_transaction_fee',
  'get_version',
  'l1_to_l2_msg_exists',
  'modulo2',
  'n_new_l2_to_l1_msgs',
  'n_new_note_hashes',
  'n_new_nullifiers',
  'n_new_public_logs',
  'n_storage_writes',
  'nested_call_large_calldata',
  'nested_call_to_add',
  'nested_call_to_add_n_times_different_addresses',
  'nested_call_to_add_with_gas',
  'nested_call_to_assert_same',
  'nested_call_to_nothing',
  'nested_call_to_nothing_recovers',
  'nested_static_call_to_add',
  'nested_static_call_to_set_storage',
  'new_note_hash',
  'new_nullifier',
  'note_hash_exists',
  'nullifier_collision',
  'nullifier_exists',
  'pedersen_commit',
  'raw_l2_to_l1_msg',
  'read_assert_storage_single',
  'read_storage_list',
  'read_storage_map',
  'read_storage_single',
  'return_oracle',
  'returndata_copy_oracle',
  'revert_oracle',
  'send_l2_to_l1_msg',
  'set_opcode_big_field',
  'set_opcode_really_big_field',
  'set_opcode_small_field',
  'set_opcode_u32',
  'set_opcode_u64',
  'set_opcode_u8',
  'set_opcode_u8_view',
  'set_read_storage_single',
  'set_storage_list',
  'set_storage_map',
  'set_storage_single',
  'test_get_contract_instance',
  'test_get_contract_instance_matches',
  'to_le_bits',
  'to_le_bytes',
  'u128_addition_overflow',
  'variable_base_msm',
];

const GADGET_FUNCTIONS = [
  'keccak_f1600',
  'keccak_hash',
  'keccak_hash_1400',
  'pedersen_hash',
  'pedersen_hash_with_index',
  'poseidon2_hash',
  'poseidon2_hash_1000fields',
  'sha256_hash_10',
  'sha256_hash_100',
  'sha256_hash_1024',
  'sha256_hash_1536',
  'sha256_hash_20',
  'sha256_hash_255',
  'sha256_hash_256',
  'sha256_hash_30',
  'sha256_hash_40',
  'sha256_hash_50',
  'sha256_hash_511',
  'sha256_hash_512',
  'sha256_hash_60',
  'sha256_hash_70',
  'sha256_hash_80',
  'sha256_hash_90',
];

/** An address array as long as `nested_call_to_add_n_times_different_addresses` takes, cycling through `from`. */
function addresses(from: bigint[]): bigint[] {
  const param = avm.functions.get('nested_call_to_add_n_times_different_addresses')!.abi.parameters[0].type;
  const length = param.kind === 'array' ? param.length : 1;
  return Array.from({ length }, (_, i) => from[i % from.length]);
}

const P_MINUS_1 = 21888242871839275222246405745257275088548364400416034343698204186575808495616n;

const HAND_PICKED: Case[] = [
  { name: 'add_args_return wraps around the field', steps: () => [onAvm('add_args_return', [P_MINUS_1, 2n])] },
  { name: 'add_u128 overflows', steps: () => [onAvm('add_u128', [(1n << 128n) - 1n, 1n])] },
  { name: 'assert_same fails', steps: () => [onAvm('assert_same', [1n, 2n])] },
  {
    name: 'nested_call_to_assert_same fails in the callee',
    steps: () => [onAvm('nested_call_to_assert_same', [1n, 2n])],
  },
  { name: 'divide_by_zero by zero', steps: () => [onAvm('divide_by_zero', [0n])] },
  { name: 'modulo2 of a large u64', steps: () => [onAvm('modulo2', [(1n << 64n) - 3n])] },
  { name: 'assert_nullifier_exists: missing', steps: () => [onAvm('assert_nullifier_exists', [0x4242n])] },
  {
    name: 'nullifier_exists: emitted earlier in the tx',
    steps: () => [onAvm('new_nullifier', [0x55n]), onAvm('nullifier_exists', [0x55n])],
  },
  { name: 'nullifier_collision', steps: () => [onAvm('nullifier_collision', [0x66n])] },
  {
    name: 'new_nullifier twice in one tx: the second collides',
    steps: () => [onAvm('new_nullifier', [0x67n]), onAvm('new_nullifier', [0x67n])],
  },
  {
    name: 'create_same_nullifier_in_nested_call',
    steps: () => [onAvm('create_same_nullifier_in_nested_call', [AVM_2, 0x68n])],
  },
  {
    name: 'create_different_nullifier_in_nested_call',
    steps: () => [onAvm('create_different_nullifier_in_nested_call', [AVM_2, 0x69n])],
  },
  {
    name: 'note_hash_exists at each index',
    steps: () => NOTE_HASHES.map((h, i) => onAvm('note_hash_exists', [h, BigInt(i)])),
  },
  { name: 'note_hash_exists: wrong index', steps: () => [onAvm('note_hash_exists', [NOTE_HASHES[0], 1n])] },
  {
    name: 'new_note_hash twice (nonces by position)',
    steps: () => [onAvm('new_note_hash', [0x71n]), onAvm('new_note_hash', [0x72n])],
  },
  {
    name: 'l1_to_l2_msg_exists: present and absent',
    steps: () => [onAvm('l1_to_l2_msg_exists', [MESSAGES[1], 1n]), onAvm('l1_to_l2_msg_exists', [MESSAGES[1], 0n])],
  },
  { name: 'n_new_note_hashes over the tx limit', steps: () => [onAvm('n_new_note_hashes', [65])] },
  { name: 'n_new_nullifiers over the tx limit', steps: () => [onAvm('n_new_nullifiers', [64])] },
  { name: 'n_new_l2_to_l1_msgs over the tx limit', steps: () => [onAvm('n_new_l2_to_l1_msgs', [9])] },
  { name: 'n_storage_writes over the tx limit', steps: () => [onAvm('n_storage_writes', [64])] },
  { name: 'n_new_public_logs, many', steps: () => [onAvm('n_new_public_logs', [40])] },
  {
    name: 'storage: set, read back, overwrite (warm slot)',
    steps: () => [
      onAvm('set_storage_single', [5n]),
      onAvm('read_storage_single'),
      onAvm('set_read_storage_single', [6n]),
      onAvm('set_storage_single', [7n]),
    ],
  },
  {
    name: 'storage map: set then add',
    steps: () => [
      onAvm('set_storage_map', [SENDER, 10]),
      onAvm('add_storage_map', [SENDER, 5]),
      onAvm('read_storage_map', [SENDER]),
    ],
  },
  {
    name: 'storage list: set then read',
    steps: () => [onAvm('set_storage_list', [8n, 9n]), onAvm('read_storage_list')],
  },
  { name: 'read_assert_storage_single: mismatch', steps: () => [onAvm('read_assert_storage_single', [0x78n])] },
  {
    name: 'nested_static_call_to_set_storage: static violation',
    steps: () => [onAvm('nested_static_call_to_set_storage')],
  },
  {
    name: 'set_storage_single in a static enqueued call',
    steps: () => [onAvm('set_storage_single', [1n], { isStaticCall: true })],
  },
  {
    name: 'nested_call_to_add_with_gas: too little L2 gas for the callee',
    steps: () => [onAvm('nested_call_to_add_with_gas', [1n, 2n, 50, 1000])],
  },
  {
    name: 'nested_call_to_add_with_gas: too little DA gas is fine (no DA used)',
    steps: () => [onAvm('nested_call_to_add_with_gas', [1n, 2n, 100_000, 0])],
  },
  {
    name: 'nested_call_to_add_n_times_different_addresses',
    steps: () => [onAvm('nested_call_to_add_n_times_different_addresses', [addresses([AVM_2, AVM_3, AVM])])],
  },
  {
    name: 'nested call to a missing contract',
    steps: () => [onAvm('nested_call_to_add_n_times_different_addresses', [addresses([MISSING, AVM_2, AVM_3])])],
  },
  {
    name: 'enqueued call to a missing contract',
    steps: () => [{ request: { address: MISSING, sender: SENDER, calldata: [1n, 2n] } }],
  },
  { name: 'unknown selector', steps: () => [{ request: { address: AVM, sender: SENDER, calldata: [0xdeadn] } }] },
  { name: 'empty calldata', steps: () => [{ request: { address: AVM, sender: SENDER, calldata: [] } }] },
  {
    name: 'test_get_contract_instance_matches: right values',
    steps: () => [onAvm('test_get_contract_instance_matches', [AVM_2, DEPLOYER, { inner: AVM_CLASS }, INIT_HASH])],
  },
  {
    name: 'test_get_contract_instance_matches: wrong deployer',
    steps: () => [onAvm('test_get_contract_instance_matches', [AVM_2, 1n, { inner: AVM_CLASS }, INIT_HASH])],
  },
  {
    name: 'test_get_contract_instance of a missing contract',
    steps: () => [onAvm('test_get_contract_instance', [MISSING])],
  },
  {
    name: 'bulk_testing',
    steps: () => [
      onAvm('bulk_testing', [
        Array.from({ length: 10 }, (_, i) => BigInt(i + 1)),
        Array.from({ length: 10 }, (_, i) => i + 1),
        AVM_2,
        DEPLOYER,
        { inner: AVM_CLASS },
        INIT_HASH,
        false,
      ]),
    ],
  },
  {
    name: 'get_transaction_fee in teardown',
    steps: () => [onAvm('get_transaction_fee', [], { transactionFee: 123_456n })],
  },
  {
    name: 'get_l2_gas_left and get_da_gas_left with a small budget',
    steps: () => [
      onAvm('get_l2_gas_left', [], { gasLimit: { l2Gas: 20_000, daGas: 777 } }),
      onAvm('get_da_gas_left', [], { gasLimit: { l2Gas: 20_000, daGas: 777 } }),
    ],
  },
  {
    name: 'out of L2 gas',
    steps: () => [onAvm('add_args_return', [1n, 2n], { gasLimit: { l2Gas: 500, daGas: 1000 } })],
  },
  {
    name: 'out of DA gas',
    steps: () => [onAvm('set_storage_single', [1n], { gasLimit: { l2Gas: 1_000_000, daGas: 10 } })],
  },
  {
    name: 'to_le_bytes and to_le_bits of p - 1',
    steps: () => [onAvm('to_le_bytes', [P_MINUS_1]), onAvm('to_le_bits', [P_MINUS_1])],
  },
  {
    name: 'elliptic_curve_add: G + (-G) and G + infinity',
    steps: () => [
      onAvm('elliptic_curve_add', [G, { ...G, y: P_MINUS_1 + 1n - G.y }]),
      onAvm('elliptic_curve_add', [G, { x: 0n, y: 0n, is_infinite: true }]),
    ],
  },
  {
    name: 'elliptic_curve_add: a point off the curve',
    steps: () => [onAvm('elliptic_curve_add', [{ x: 1n, y: 2n, is_infinite: false }, G])],
  },
  {
    name: 'raw_l2_to_l1_msg: recipient too large',
    steps: () => [onAvm('raw_l2_to_l1_msg', [{ inner: 1n << 160n }, 5n])],
  },
  {
    name: 'conditional_move both ways',
    steps: () => [onAvm('conditional_move', [[1n], [2n], true]), onAvm('conditional_move', [[1n], [2n], false])],
  },
  { name: 'debug_logging with collection on', collectDebugLogs: true, steps: () => [onAvm('debug_logging')] },
  {
    name: 'call_fee_juice, call_auth_registry, call_instance_registry',
    steps: () => [onAvm('call_fee_juice'), onAvm('call_auth_registry'), onAvm('call_instance_registry')],
  },
  {
    name: 'a tx of many calls: effects, warm slots and limits carry over',
    steps: () => [
      onAvm('n_new_nullifiers', [30]),
      onAvm('n_new_note_hashes', [30]),
      onAvm('n_new_nullifiers', [30]),
      onAvm('n_storage_writes', [10]),
      onAvm('n_storage_writes', [10]),
      onAvm('n_new_note_hashes', [40]),
    ],
  },
];

const CASES: Case[] = [
  ...derivedCases(() => avm, AVM, AVM_TEST_FUNCTIONS),
  ...derivedCases(() => gadgets, GADGETS, GADGET_FUNCTIONS),
  ...HAND_PICKED,
];

describe('AvmTest and AvmGadgetsTest calls: our AVM against Aztec 4.1.2', () => {
  test('the corpus covers every public function of both artifacts', () => {
    expect([...avm.functions.keys()].sort()).toEqual([...AVM_TEST_FUNCTIONS].sort());
    expect([...gadgets.functions.keys()].sort()).toEqual([...GADGET_FUNCTIONS].sort());
  });

  test.each(CASES.map((c) => [c.name, c] as const))('%s', { timeout: 120_000 }, async (_name, c) => {
    const results = await runBoth(world, c.steps(), { collectDebugLogs: c.collectDebugLogs });
    expect(results.length, 'every step ran').toBe(c.steps().length);
    for (const r of results) {
      // Both sides aborting would agree, but would compare nothing: the corpus only holds cases the oracle runs.
      expect(r.oracle.aborted, `the oracle could not simulate ${r.step.label ?? ''}`).toBeUndefined();
      expect(
        r.diffs,
        `${r.step.label ?? ''}\nours: ${renderOutcome(r.ours)}\noracle: ${renderOutcome(r.oracle)}`,
      ).toEqual([]);
    }
  });
});
