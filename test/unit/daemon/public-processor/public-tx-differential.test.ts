/**
 * The public processor against Aztec 4.1.2's TypeScript PublicTxSimulator, tx by tx on the same state (txs built
 * by Aztec's createTxForPublicCalls, real AvmTest bytecode): the TxEffect byte for byte, the four gas figures,
 * the revert code and reason, the app-logic return values, and the fee payer's balance after the tx.
 */
import { poseidon2Hash } from '@aztec/foundation/crypto/poseidon';
import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { AztecAddress as StdAztecAddress } from '@aztec/stdlib/aztec-address';
import { getContractClassFromArtifact } from '@aztec/stdlib/contract';
import { deriveStorageSlotInMap } from '@aztec/stdlib/hash';
import { PublicKeys as StdPublicKeys } from '@aztec/stdlib/keys';
import type { Tx as StdTx } from '@aztec/stdlib/tx';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  addNewContractClassToTx,
  addNewContractInstanceToTx,
} from '../../../../node_modules/@aztec/simulator/dest/public/fixtures/utils.js';
import { assemble } from '../../../helpers/avm/avm-assembler.js';
import { deployed, encodeCall, type LoadedContract, loadContract } from '../../../helpers/avm/contracts.js';
import { initOracleCrypto } from '../../../helpers/avm/oracle-crypto.js';
import {
  type DifferentialRun,
  type EnqueuedCall,
  expectBothRefuse,
  expectSameProcessing,
  FEE_PAYER,
  feePayerBalance,
  privateGasWithTeardown,
  runBlockDifferential,
  runTxDifferential,
  type TxScenario,
} from '../../../helpers/public-processor/public-tx-differential.js';

const AVM_TEST = 0xa11ce0001n;
const AVM_TEST_CLASS = 0xc1a55001n;
const SENDER = 0x5e4de7n;
const FIRST_NULLIFIER = 0x7e57_0001n;
const GAS_USED_BY_PRIVATE = privateGasWithTeardown(1_000, 60_000);

let avm: LoadedContract;

beforeAll(async () => {
  await initOracleCrypto();
  avm = await loadContract('@aztec/noir-test-contracts.js', 'avm_test_contract-AvmTest');
}, 120_000);

/** A raw program that stores GETENVVAR TRANSACTIONFEE at slot 7 of its contract and returns nothing. */
const FEE_RECORDER = 0xfeec0de1n;
const FEE_RECORDER_BYTECODE = assemble([
  { op: 'SET_8', operands: [1n, 0n, 7n] },
  { op: 'GETENVVAR_16', operands: [2n, 2n] },
  { op: 'SSTORE', operands: [2n, 1n] },
  { op: 'SET_8', operands: [3n, 4n, 0n] },
  { op: 'RETURN', operands: [3n, 0n] },
]);

const call = (fn: string, args: unknown[] = []): EnqueuedCall => ({
  address: AVM_TEST,
  sender: SENDER,
  calldata: encodeCall(avm, fn, args),
});

/** The AvmTest contract deployed, a funded fee payer, and the given extra storage. */
async function scenario(
  s: Partial<TxScenario> & { balance?: bigint; storage?: { contract: bigint; slot: bigint; value: bigint }[] },
): Promise<TxScenario> {
  const functionNames = new Map<number, string>();
  for (const [name, f] of avm.functions) functionNames.set(Number(f.selector), name);
  return {
    world: {
      contracts: [
        deployed(avm, AVM_TEST, AVM_TEST_CLASS, { functionNames }),
        { address: FEE_RECORDER, classId: 0xc1a55002n, packedBytecode: FEE_RECORDER_BYTECODE },
      ],
      storage: [await feePayerBalance(s.balance ?? 10n ** 18n), ...(s.storage ?? [])],
    },
    nonRevertible: { nullifiers: [FIRST_NULLIFIER] },
    feePayer: FEE_PAYER,
    gasUsedByPrivate: GAS_USED_BY_PRIVATE,
    ...s,
  };
}

const expectSame = (run: DifferentialRun) => expectSameProcessing(run);

describe('public tx processing, differential against 4.1.2 PublicTxSimulator', () => {
  test('setup + app logic + teardown, all succeeding, fee paid by a funded fee payer', async () => {
    const mine = expectSame(
      await runTxDifferential(
        await scenario({
          setup: [call('set_storage_single', [11])],
          appLogic: [call('add_args_return', [3, 4]), call('new_nullifier', [9]), call('emit_public_log')],
          teardown: call('get_transaction_fee'),
        }),
      ),
    );
    expect(mine?.revertCode).toBe(0);
    expect(mine?.appLogicReturnValues[0]).toEqual([7n]);
    expect(mine?.txEffect.transactionFee.value).toBeGreaterThan(0n);
  }, 120_000);

  test('TRANSACTIONFEE is 0 in app logic and the billed fee in teardown', async () => {
    const recorder = { address: FEE_RECORDER, sender: SENDER, calldata: [] };
    const mine = expectSame(await runTxDifferential(await scenario({ appLogic: [recorder], teardown: recorder })));
    const written = mine?.txEffect.publicDataWrites.map((w) => w.value.value);
    expect(written).toContain(mine?.txEffect.transactionFee.value);
  }, 120_000);

  test('protocol contracts (FeeJuice, AuthRegistry, ContractInstanceRegistry) are there from genesis', async () => {
    const mine = expectSame(
      await runTxDifferential(
        await scenario({
          appLogic: [call('call_fee_juice'), call('call_auth_registry'), call('call_instance_registry')],
        }),
      ),
    );
    expect(mine?.revertCode).toBe(0);
  }, 120_000);

  test('debug logs are collected when asked (as node_simulatePublicCalls does)', async () => {
    const mine = expectSame(
      await runTxDifferential(await scenario({ collectDebugLogs: true, appLogic: [call('debug_logging')] })),
    );
    expect(mine?.debugLogs.length).toBeGreaterThan(0);
  }, 120_000);

  test('app-logic revert: later calls skipped, revertible effects dropped, teardown runs, fee paid', async () => {
    const mine = expectSame(
      await runTxDifferential(
        await scenario({
          revertible: { nullifiers: [0xbeef01n], noteHashes: [0xbeef02n] },
          setup: [call('new_nullifier', [1])],
          appLogic: [call('set_storage_single', [5]), call('assertion_failure'), call('new_nullifier', [2])],
          teardown: call('new_note_hash', [77]),
        }),
      ),
    );
    expect(mine?.revertCode).toBe(1);
    expect(mine?.appLogicReturnValues).toHaveLength(2);
  }, 120_000);

  test('teardown revert keeps setup, drops app logic and teardown', async () => {
    const mine = expectSame(
      await runTxDifferential(
        await scenario({
          setup: [call('set_storage_single', [1])],
          appLogic: [call('set_storage_list', [2, 3])],
          teardown: call('divide_by_zero', [0]),
        }),
      ),
    );
    expect(mine?.revertCode).toBe(2);
  }, 120_000);

  test('both phases revert: the app-logic reason is kept', async () => {
    const mine = expectSame(
      await runTxDifferential(
        await scenario({
          appLogic: [call('external_call_to_assertion_failure')],
          teardown: call('assertion_failure'),
        }),
      ),
    );
    expect(mine?.revertCode).toBe(3);
  }, 120_000);

  test('public data squashing: first position, last value, across phases and with the fee write', async () => {
    const mine = expectSame(
      await runTxDifferential(
        await scenario({
          setup: [call('set_storage_single', [1]), call('set_storage_list', [10, 20])],
          appLogic: [call('set_storage_single', [2]), call('n_storage_writes', [5]), call('set_storage_single', [3])],
          teardown: call('set_storage_list', [30, 40]),
        }),
      ),
    );
    expect(mine?.revertCode).toBe(0);
  }, 120_000);

  test('note hashes from private and public get their nonces in order; nullifiers siloed; messages hashed', async () => {
    expectSame(
      await runTxDifferential(
        await scenario({
          nonRevertible: {
            nullifiers: [FIRST_NULLIFIER, 0x1111n],
            noteHashes: [0x2222n],
            l2ToL1Msgs: [{ recipient: 0xe7e7n, content: 0x77n, contract: AVM_TEST }],
          },
          revertible: {
            nullifiers: [0x3333n],
            noteHashes: [0x4444n, 0x5555n],
            l2ToL1Msgs: [{ recipient: 0xe8e8n, content: 0x88n, contract: AVM_TEST }],
          },
          setup: [call('new_note_hash', [1])],
          appLogic: [call('n_new_note_hashes', [3]), call('n_new_nullifiers', [2]), call('n_new_l2_to_l1_msgs', [2])],
        }),
      ),
    );
  }, 120_000);

  test('a nested call that fails is dropped while its caller carries on', async () => {
    const mine = expectSame(
      await runTxDifferential(
        await scenario({
          appLogic: [
            call('set_storage_single', [4]),
            call('nested_call_to_nothing_recovers'),
            call('nested_call_to_add', [1, 2]),
          ],
        }),
      ),
    );
    expect(mine?.revertCode).toBe(0);
  }, 120_000);

  test('side-effect limits count private and public effects together (note hashes, nullifiers, storage, messages)', async () => {
    const privateNoteHashes = Array.from({ length: 30 }, (_, i) => 0x1000n + BigInt(i));
    const limited = async (appLogic: EnqueuedCall[]) =>
      expectSame(
        await runTxDifferential(
          await scenario({
            revertible: { noteHashes: privateNoteHashes, nullifiers: [0x2000n, 0x2001n] },
            appLogic,
            teardown: call('n_new_note_hashes', [2]),
          }),
        ),
      );
    expect((await limited([call('n_new_note_hashes', [30])]))?.revertCode).toBe(0);
    expect((await limited([call('n_new_note_hashes', [40])]))?.revertCode).toBe(1);
    expect((await limited([call('n_new_nullifiers', [70])]))?.revertCode).toBe(1);
    expect((await limited([call('n_storage_writes', [64])]))?.revertCode).toBe(1);
    expect((await limited([call('n_new_l2_to_l1_msgs', [9])]))?.revertCode).toBe(1);
  }, 240_000);

  test('setup revert makes the tx invalid on both sides', async () => {
    const run = await runTxDifferential(
      await scenario({ setup: [call('assertion_failure')], appLogic: [call('add_args_return', [1, 2])] }),
    );
    expectBothRefuse(run);
  }, 120_000);

  test('a fee payer without enough balance: invalid, unless fee enforcement is skipped', async () => {
    const poor = await scenario({ balance: 5n, appLogic: [call('add_args_return', [1, 2])] });
    const run = await runTxDifferential(poor);
    expectBothRefuse(run);
    expectSame(await runTxDifferential({ ...poor, skipFeeEnforcement: true }));
  }, 120_000);

  test('a zero fee payer with skipped enforcement pays nothing', async () => {
    expectSame(
      await runTxDifferential(
        await scenario({
          feePayer: 0n,
          skipFeeEnforcement: true,
          world: {
            contracts: (await scenario({})).world.contracts,
            globals: { feePerDaGas: 0n, feePerL2Gas: 0n },
          },
          appLogic: [call('set_storage_single', [8])],
        }),
      ),
    );
  }, 120_000);

  test('a nullifier from private that collides reverts app logic (revertible) or invalidates the tx (non-revertible)', async () => {
    const revertibleCollision = await runTxDifferential(
      await scenario({
        revertible: { nullifiers: [0x9999n, 0x9999n] },
        appLogic: [call('add_args_return', [1, 2])],
        teardown: call('add_args_return', [3, 4]),
      }),
    );
    expect(expectSame(revertibleCollision)?.revertCode).toBe(1);
    const run = await runTxDifferential(
      await scenario({
        nonRevertible: { nullifiers: [FIRST_NULLIFIER, FIRST_NULLIFIER] },
        appLogic: [call('add_args_return', [1, 2])],
      }),
    );
    expectBothRefuse(run);
  }, 120_000);

  describe('contracts deployed by the tx itself', () => {
    const NEW_ADDRESS = 0xde910ed01n;
    /** Publishes AvmTest's class and an instance of it at NEW_ADDRESS in the tx's revertible part. */
    const deployInTx = async (tx: StdTx) => {
      const cls = await getContractClassFromArtifact(avm.artifact);
      await addNewContractClassToTx(tx, cls as never);
      await addNewContractInstanceToTx(tx, {
        version: 1,
        salt: new StdFr(1n),
        deployer: StdAztecAddress.fromBigInt(0n),
        currentContractClassId: cls.id,
        originalContractClassId: cls.id,
        initializationHash: new StdFr(0n),
        publicKeys: StdPublicKeys.default(),
        address: StdAztecAddress.fromBigInt(NEW_ADDRESS),
      } as never);
    };
    const callNew = (fn: string, args: unknown[] = []): EnqueuedCall => ({ ...call(fn, args), address: NEW_ADDRESS });

    test('are callable by the same tx, in app logic and teardown', async () => {
      const mine = expectSame(
        await runTxDifferential(
          await scenario({
            extend: deployInTx,
            appLogic: [callNew('add_args_return', [20, 22]), callNew('set_storage_single', [3])],
            teardown: callNew('add_args_return', [1, 1]),
          }),
        ),
      );
      expect(mine?.revertCode).toBe(0);
      expect(mine?.appLogicReturnValues[0]).toEqual([42n]);
      expect(mine?.txEffect.contractClassLogs).toHaveLength(1);
    }, 120_000);

    test('are gone with a reverted app logic: teardown can no longer call them', async () => {
      const mine = expectSame(
        await runTxDifferential(
          await scenario({
            extend: deployInTx,
            appLogic: [callNew('assertion_failure')],
            teardown: callNew('add_args_return', [1, 1]),
          }),
        ),
      );
      expect(mine?.revertCode).toBe(3);
      expect(mine?.txEffect.contractClassLogs).toHaveLength(0);
    }, 120_000);

    test("are callable by the block's later txs, unless their tx reverted", async () => {
      const [deployer, caller] = await runBlockDifferential([
        await scenario({ extend: deployInTx, appLogic: [call('add_args_return', [0, 0])] }),
        await scenario({
          nonRevertible: { nullifiers: [0x7e57_0002n] },
          appLogic: [callNew('add_args_return', [2, 3])],
        }),
      ]);
      expectSame(deployer as DifferentialRun);
      expect(expectSame(caller as DifferentialRun)?.appLogicReturnValues).toEqual([[5n]]);
      const [reverted, callerAfterRevert] = await runBlockDifferential([
        await scenario({ extend: deployInTx, appLogic: [call('assertion_failure')] }),
        await scenario({
          nonRevertible: { nullifiers: [0x7e57_0002n] },
          appLogic: [callNew('add_args_return', [2, 3])],
        }),
      ]);
      expectSame(reverted as DifferentialRun);
      expect(expectSame(callerAfterRevert as DifferentialRun)?.revertCode).toBe(1);
    }, 120_000);

    test('cannot be called from setup (revertible deployments come after it)', async () => {
      const run = await runTxDifferential(
        await scenario({
          extend: deployInTx,
          setup: [callNew('add_args_return', [1, 1])],
          appLogic: [call('add_args_return', [1, 2])],
        }),
      );
      expectBothRefuse(run);
    }, 120_000);
  });

  describe('an upgraded contract', () => {
    const UPGRADED = 0x0b9aded1n;
    /** FEE_RECORDER's class at UPGRADED, upgraded to AvmTest's class from `timestampOfChange` on. */
    const upgraded = async (timestampOfChange: bigint, calls: EnqueuedCall[]) => {
      const base = await scenario({});
      const dpmSlot = (await deriveStorageSlotInMap(new StdFr(1n), StdAztecAddress.fromBigInt(UPGRADED))).toBigInt();
      const preimage = [timestampOfChange, 0n, AVM_TEST_CLASS];
      const hash = (await poseidon2Hash(preimage.map((v) => new StdFr(v)))).toBigInt();
      return await scenario({
        world: {
          ...base.world,
          contracts: [
            ...(base.world.contracts ?? []),
            { address: UPGRADED, classId: 0xc1a55002n, packedBytecode: FEE_RECORDER_BYTECODE },
          ],
          storage: [
            ...(base.world.storage ?? []),
            ...[...preimage, hash].map((value, i) => ({ contract: 2n, slot: dpmSlot + BigInt(i), value })),
          ],
        },
        upgrades: [{ address: UPGRADED, newClassId: AVM_TEST_CLASS, timestampOfChange, publishedAt: 1_000n }],
        appLogic: calls,
      });
    };

    test('runs its new class once the change is in force', async () => {
      const run = await runTxDifferential(
        await upgraded(1_000_000n, [
          { address: UPGRADED, sender: SENDER, calldata: encodeCall(avm, 'add_args_return', [5, 6]) },
        ]),
      );
      expect(expectSame(run)?.appLogicReturnValues).toEqual([[11n]]);
    }, 120_000);

    test('runs its original class before the change', async () => {
      const run = await runTxDifferential(
        await upgraded(4_000_000_000n, [{ address: UPGRADED, sender: SENDER, calldata: [] }]),
      );
      const mine = expectSame(run);
      expect(mine?.revertCode).toBe(0);
      expect(mine?.txEffect.publicDataWrites.length).toBe(2);
    }, 120_000);
  });
});
