/**
 * A tx with a teardown call whose private gas omits the teardown gas limits (the private kernel always adds them,
 * so only a tx with an unchecked proof can be like this). 4.1.2's TypeScript PublicTxSimulator takes it as given:
 * its total gas comes out negative (billed minus teardown limits plus teardown used) and teardown runs unpaid.
 * No u32 gas figure and no valid PublicSimulationOutput exist for it, so ours refuses the tx with the reason
 * (docs/compatibility.md, "Txs whose private gas omits the teardown limits").
 */
import { beforeAll, expect, test } from 'vitest';
import { deployed, encodeCall, type LoadedContract, loadContract } from '../../../helpers/avm/contracts.js';
import { initOracleCrypto } from '../../../helpers/avm/oracle-crypto.js';
import {
  FEE_PAYER,
  feePayerBalance,
  runTxDifferential,
} from '../../../helpers/public-processor/public-tx-differential.js';

const AVM_TEST = 0xa11ce0001n;
let avm: LoadedContract;

beforeAll(async () => {
  await initOracleCrypto();
  avm = await loadContract('@aztec/noir-test-contracts.js', 'avm_test_contract-AvmTest');
}, 120_000);

test('4.1.2 computes negative gas for it; ours refuses it, naming both figures', async () => {
  const call = (args: number[]) => ({
    address: AVM_TEST,
    sender: 0x5e4de7n,
    calldata: encodeCall(avm, 'add_args_return', args),
  });
  const run = await runTxDifferential({
    world: { contracts: [deployed(avm, AVM_TEST, 0xc1a55001n)], storage: [await feePayerBalance(10n ** 18n)] },
    nonRevertible: { nullifiers: [0x7e57_0001n] },
    feePayer: FEE_PAYER,
    // What private used, without the teardown limits the kernel would have added.
    gasUsedByPrivate: { daGas: 1_000, l2Gas: 60_000 },
    appLogic: [call([3, 4])],
    teardown: call([1, 1]),
  });
  if (!run.oracle.ok) throw new Error(`the oracle refused the tx: ${run.oracle.error}`);
  const { totalGas, billedGas, teardownGas } = run.oracle.processed.gasUsed;
  expect(totalGas.l2Gas).toBeLessThan(0);
  expect(totalGas.daGas).toBeLessThan(0);
  // Teardown used gas, but the bill is private plus app logic only.
  expect(teardownGas.l2Gas).toBeGreaterThan(0);
  expect(billedGas.daGas).toBe(1_000);
  expect(run.ours).toEqual({
    ok: false,
    error: expect.stringMatching(
      /^The tx's private gas \(DA 1000, L2 60000\) does not include its teardown gas limits \(DA \d+, L2 \d+\)$/,
    ),
  });
}, 120_000);
