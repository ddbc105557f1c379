/**
 * A real application through the public processor, differential against 4.1.2's PublicTxSimulator: the Token
 * contract of @aztec/noir-contracts.js@4.1.2, initialised publicly, minted and transferred in public, its balance
 * read back, and a transfer that fails for lack of funds (app logic reverts, the fee is still paid).
 */
import { DEFAULT_TEARDOWN_DA_GAS_LIMIT, DEFAULT_TEARDOWN_L2_GAS_LIMIT } from '@aztec/constants';
import { computeFeePayerBalanceStorageSlot } from '@aztec/protocol-contracts/fee-juice';
import { AztecAddress as StdAztecAddress } from '@aztec/stdlib/aztec-address';
import { computeInitializationHash } from '@aztec/stdlib/contract';
import { beforeAll, describe, expect, test } from 'vitest';
import { encodeCall, type LoadedContract, loadContract } from '../../../helpers/avm/contracts.js';
import { initOracleCrypto } from '../../../helpers/avm/oracle-crypto.js';
import {
  type EnqueuedCall,
  expectSameProcessing,
  runTxDifferential,
  type TxScenario,
} from '../../../helpers/public-processor/public-tx-differential.js';

const TOKEN = 0x70ce40001n;
const TOKEN_CLASS = 0xc1a55070n;
const ADMIN = 0xad3140n;
const BOB = 0xb0bn;
const FEE_PAYER = 0xfee9a7e7n;

let token: LoadedContract;
let initializationHash: bigint;
let feePayerSlot: bigint;
const constructorArgs = () => [StdAztecAddress.fromBigInt(ADMIN), 'TestToken', 'TT', 18];

beforeAll(async () => {
  await initOracleCrypto();
  token = await loadContract('@aztec/noir-contracts.js', 'token_contract-Token');
  const ctor = token.functions.get('constructor')?.abi;
  initializationHash = (await computeInitializationHash(ctor, constructorArgs())).toBigInt();
  feePayerSlot = (await computeFeePayerBalanceStorageSlot(StdAztecAddress.fromBigInt(FEE_PAYER))).toBigInt();
}, 120_000);

const call = (sender: bigint, fn: string, args: unknown[]): EnqueuedCall => ({
  address: TOKEN,
  sender,
  calldata: encodeCall(token, fn, args),
});

function tokenTx(appLogic: EnqueuedCall[]): TxScenario {
  const functionNames = new Map<number, string>();
  for (const [name, f] of token.functions) functionNames.set(Number(f.selector), name);
  return {
    world: {
      contracts: [
        {
          address: TOKEN,
          classId: TOKEN_CLASS,
          packedBytecode: token.packedBytecode,
          initializationHash,
          functionNames,
        },
      ],
      storage: [{ contract: 5n, slot: feePayerSlot, value: 10n ** 18n }],
    },
    nonRevertible: { nullifiers: [0x70ce4_0001n] },
    feePayer: FEE_PAYER,
    gasUsedByPrivate: { daGas: 2_000 + DEFAULT_TEARDOWN_DA_GAS_LIMIT, l2Gas: 100_000 + DEFAULT_TEARDOWN_L2_GAS_LIMIT },
    appLogic,
  };
}

async function expectSameEffect(s: TxScenario) {
  const mine = expectSameProcessing(await runTxDifferential(s), FEE_PAYER);
  if (!mine) throw new Error('both sides refused the tx');
  return mine;
}

describe('Token in public, differential against 4.1.2', () => {
  test('constructor, mint_to_public, transfer_in_public, balance_of_public in one tx', async () => {
    const mine = await expectSameEffect(
      tokenTx([
        call(ADMIN, 'constructor', constructorArgs()),
        call(ADMIN, 'mint_to_public', [StdAztecAddress.fromBigInt(ADMIN), 1000n]),
        call(ADMIN, 'transfer_in_public', [
          StdAztecAddress.fromBigInt(ADMIN),
          StdAztecAddress.fromBigInt(BOB),
          300n,
          0n,
        ]),
        // View functions must be called statically.
        { ...call(BOB, 'balance_of_public', [StdAztecAddress.fromBigInt(BOB)]), isStaticCall: true },
        { ...call(BOB, 'total_supply', []), isStaticCall: true },
      ]),
    );
    expect(mine.revertReason).toBeUndefined();
    expect(mine.appLogicReturnValues.slice(3)).toEqual([[300n], [1000n]]);
  }, 120_000);

  test('a transfer beyond the balance reverts app logic; nothing of it stays but the fee', async () => {
    const mine = await expectSameEffect(
      tokenTx([
        call(ADMIN, 'constructor', constructorArgs()),
        call(ADMIN, 'mint_to_public', [StdAztecAddress.fromBigInt(ADMIN), 10n]),
        call(ADMIN, 'transfer_in_public', [
          StdAztecAddress.fromBigInt(ADMIN),
          StdAztecAddress.fromBigInt(BOB),
          11n,
          0n,
        ]),
      ]),
    );
    expect(mine.revertCode).toBe(1);
    expect(mine.txEffect.publicDataWrites).toHaveLength(1);
  }, 120_000);
});
