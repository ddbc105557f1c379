/**
 * A real application through the public processor, differential against 4.1.2's PublicTxSimulator: the Token
 * contract of @aztec/noir-contracts.js@4.1.2, initialised publicly, minted and transferred in public, its balance
 * read back, and a transfer that fails for lack of funds (app logic reverts, the fee is still paid).
 */
import { AztecAddress as StdAztecAddress } from '@aztec/stdlib/aztec-address';
import { computeInitializationHash } from '@aztec/stdlib/contract';
import { beforeAll, describe, expect, test } from 'vitest';
import { encodeCall, type LoadedContract, loadContract } from '../../../helpers/avm/contracts.js';
import { initOracleCrypto } from '../../../helpers/avm/oracle-crypto.js';
import {
  type EnqueuedCall,
  expectSameProcessing,
  FEE_PAYER,
  feePayerBalance,
  privateGasWithTeardown,
  runTxDifferential,
  type TxScenario,
} from '../../../helpers/public-processor/public-tx-differential.js';

const TOKEN = 0x70ce40001n;
const TOKEN_CLASS = 0xc1a55070n;
const ADMIN = 0xad3140n;
const BOB = 0xb0bn;

let token: LoadedContract;
let initializationHash: bigint;
const constructorArgs = () => [StdAztecAddress.fromBigInt(ADMIN), 'TestToken', 'TT', 18];

beforeAll(async () => {
  await initOracleCrypto();
  token = await loadContract('@aztec/noir-contracts.js', 'token_contract-Token');
  const ctor = token.functions.get('constructor')?.abi;
  initializationHash = (await computeInitializationHash(ctor, constructorArgs())).toBigInt();
}, 120_000);

const call = (sender: bigint, fn: string, args: unknown[]): EnqueuedCall => ({
  address: TOKEN,
  sender,
  calldata: encodeCall(token, fn, args),
});

async function tokenTx(appLogic: EnqueuedCall[]): Promise<TxScenario> {
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
      storage: [await feePayerBalance(10n ** 18n)],
    },
    nonRevertible: { nullifiers: [0x70ce4_0001n] },
    feePayer: FEE_PAYER,
    gasUsedByPrivate: privateGasWithTeardown(2_000, 100_000),
    appLogic,
  };
}

async function expectSameEffect(s: Promise<TxScenario>) {
  const scenario = await s;
  const mine = expectSameProcessing(await runTxDifferential(scenario));
  if (!mine) throw new Error('both sides refused the tx');
  return mine;
}

const address = (a: bigint) => StdAztecAddress.fromBigInt(a);
/** The admin initialises the token and mints itself `minted`, then sends `sent` to Bob. */
const initMintSend = (minted: bigint, sent: bigint) => [
  call(ADMIN, 'constructor', constructorArgs()),
  call(ADMIN, 'mint_to_public', [address(ADMIN), minted]),
  call(ADMIN, 'transfer_in_public', [address(ADMIN), address(BOB), sent, 0n]),
];

describe('Token in public, differential against 4.1.2', () => {
  test('constructor, mint_to_public, transfer_in_public, balance_of_public in one tx', async () => {
    const mine = await expectSameEffect(
      tokenTx([
        ...initMintSend(1000n, 300n),
        // View functions must be called statically.
        { ...call(BOB, 'balance_of_public', [address(BOB)]), isStaticCall: true },
        { ...call(BOB, 'total_supply', []), isStaticCall: true },
      ]),
    );
    expect(mine.revertReason).toBeUndefined();
    expect(mine.appLogicReturnValues.slice(3)).toEqual([[300n], [1000n]]);
  }, 120_000);

  test('a transfer beyond the balance reverts app logic; nothing of it stays but the fee', async () => {
    const mine = await expectSameEffect(tokenTx([...initMintSend(10n, 11n)]));
    expect(mine.revertCode).toBe(1);
    expect(mine.txEffect.publicDataWrites).toHaveLength(1);
  }, 120_000);
});
