/**
 * The state cheat codes over the real binary (nodeDev_setPublicStorage, nodeDev_setFeeJuiceBalance, `l2node dev
 * set-storage` / `dev fund`), with the official 4.1.2 packages as oracles: aztec.js reads the FeeJuice balance
 * through its own slot derivation, a follower replays the overrides and reaches the same block hashes, and an
 * FPC funded by the cheat code alone pays fees for the official wallet through both of 4.1.2's FPC payment
 * methods (the node started with the setup allow list 4.1.2 requires for them). One node, one wallet.
 */
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { BackendType, BarretenbergSync } from '@aztec/bb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initAztecOracle } from '../helpers/aztec-oracle.js';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { deployAccount, openOfficialWallet, type WalletSession } from '../helpers/official-wallet.js';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

let node: RunningNode;
let session: WalletSession;
let alice: AztecAddress;
/** The Token class's setup functions 4.1.2's FPC payment methods enqueue, as --tx-public-setup-allow-list-extend. */
let allowList: string;

beforeAll(async () => {
  // bb.js on WebAssembly before the class id is hashed (the wallet does the same when it opens).
  await initAztecOracle();
  await BarretenbergSync.initSingleton({ backend: BackendType.Wasm });
  const { getContractClassFromArtifact } = await import('@aztec/stdlib/contract');
  const { FunctionSelector } = await import('@aztec/stdlib/abi');
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  const tokenClass = await getContractClassFromArtifact(TokenContract.artifact);
  const sel = async (sig: string) => (await FunctionSelector.fromSignature(sig)).toString();
  // PublicFeePaymentMethod: the FPC enqueues Token.transfer_in_public (user to FPC) in setup. Private: the
  // FPC's transfer_private_to_public enqueues Token._increase_public_balance (only self) in setup.
  allowList = [
    `C:${tokenClass.id}:${await sel('transfer_in_public((Field),(Field),u128,Field)')}`,
    `C:${tokenClass.id}:${await sel('_increase_public_balance((Field),u128)')}:os`,
  ].join(',');
  node = await spawnNode({ args: ['--tx-public-setup-allow-list-extend', allowList] });
  session = await openOfficialWallet(node.publicUrl);
  alice = session.accounts[0]?.address as AztecAddress;
  await deployAccount(session, session.accounts[0]);
}, 240_000);

afterAll(async () => {
  await session?.stop();
  await node?.stop();
});

async function pub<T>(method: string, params: unknown[] = [], on: RunningNode = node): Promise<T> {
  const r = await postJson(on.publicUrl, rpc(method, params));
  const body = r.body as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

async function dev<T>(method: string, params: unknown[] = []): Promise<T> {
  const r = await postJson(
    node.adminUrl,
    { jsonrpc: '2.0', id: 1, method, params },
    { 'x-api-key': node.adminKey as string },
  );
  const body = r.body as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result as T;
}

const hex = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}`;

async function feeJuice(owner: AztecAddress): Promise<bigint> {
  const { getFeeJuiceBalance } = await import('@aztec/aztec.js/utils');
  return getFeeJuiceBalance(owner, session.node);
}

async function freshAddress(): Promise<AztecAddress> {
  const { AztecAddress } = await import('@aztec/aztec.js/addresses');
  return AztecAddress.random();
}

describe('nodeDev_setPublicStorage', () => {
  it('sets a slot in a block built at once; earlier blocks keep the old value', async () => {
    const contract = hex(0x1234n);
    const before = await pub<number>('node_getBlockNumber');
    const block = await dev<number>('nodeDev_setPublicStorage', [contract, hex(7n), hex(42n)]);
    expect(block).toBe(before + 1);
    expect(await pub<string>('node_getPublicStorageAt', ['latest', contract, hex(7n)])).toBe(hex(42n));
    expect(await pub<string>('node_getPublicStorageAt', [before, contract, hex(7n)])).toBe(hex(0n));
    // The block records the write for followers: the public data tree's leaf slot, siloed as 4.1.2 does.
    const { computePublicDataTreeLeafSlot } = await import('@aztec/stdlib/hash');
    const { AztecAddress } = await import('@aztec/aztec.js/addresses');
    const { Fr } = await import('@aztec/aztec.js/fields');
    const leafSlot = await computePublicDataTreeLeafSlot(AztecAddress.fromString(contract), new Fr(7n));
    expect(await pub('node_getStateOverrides', [block])).toEqual([{ leafSlot: leafSlot.toString(), value: hex(42n) }]);
    expect(await pub('node_getStateOverrides', [block - 1])).toEqual([]);
  });

  it('refuses what it cannot take, naming it', async () => {
    await expect(dev('nodeDev_setPublicStorage', ['0x12', hex(1n), hex(1n)])).rejects.toThrow(/contract/);
    await expect(dev('nodeDev_setFeeJuiceBalance', [hex(5n), (2n ** 128n).toString()])).rejects.toThrow(
      /does not fit a FeeJuice balance/,
    );
  });
});

describe('nodeDev_setFeeJuiceBalance', () => {
  it("sets the balance aztec.js reads at the address's FeeJuice balance slot", async () => {
    const who = await freshAddress();
    expect(await feeJuice(who)).toBe(0n);
    await dev('nodeDev_setFeeJuiceBalance', [who.toString(), '123456789']);
    expect(await feeJuice(who)).toBe(123456789n);
    await dev('nodeDev_setFeeJuiceBalance', [who.toString(), '5']);
    expect(await feeJuice(who)).toBe(5n);
  });

  it('l2node dev fund and dev set-storage, human and --json', async () => {
    const who = await freshAddress();
    const auth = ['--admin-url', node.adminUrl, '--api-key', node.adminKey as string];
    const human = await l2node(['dev', 'fund', who.toString(), '1000', ...auth]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`${who.toString()} holds 1000 FeeJuice from block \\d+`));
    expect(await feeJuice(who)).toBe(1000n);
    const json = envelopeOf(await l2node(['dev', 'set-storage', '0x99', '3', '0x2a', '--json', ...auth]));
    const { blockNumber } = json.result as { blockNumber: number };
    expect(blockNumber).toBe(await pub<number>('node_getBlockNumber'));
    expect(await pub<string>('node_getPublicStorageAt', ['latest', hex(0x99n), hex(3n)])).toBe(hex(42n));
    const bad = await l2node(['dev', 'fund', who.toString(), '-5', ...auth]);
    expect(bad.code).toBe(2);
  });
});

describe('a follower', () => {
  it('replays the overrides from its upstream and reaches the same blocks and values', async () => {
    const who = await freshAddress();
    await dev('nodeDev_setFeeJuiceBalance', [who.toString(), '777']);
    const tip = await pub<number>('node_getBlockNumber');
    const follower = await spawnNode({ args: ['--sync-from', node.publicUrl] });
    try {
      await until('the follower at the tip', async () =>
        (await pub<number>('node_getBlockNumber', [], follower)) >= tip ? true : undefined,
      );
      for (let n = 1; n <= tip; n++) {
        const [ours, theirs] = await Promise.all([
          pub<{ blockHash: string }>('node_getBlockHeader', [n]),
          pub<{ blockHash: string }>('node_getBlockHeader', [n], follower),
        ]);
        expect(theirs).toEqual(ours);
      }
      const { getFeeJuiceBalance } = await import('@aztec/aztec.js/utils');
      const { createAztecNodeClient } = await import('@aztec/aztec.js/node');
      expect(await getFeeJuiceBalance(who, createAztecNodeClient(follower.publicUrl))).toBe(777n);
    } finally {
      await follower.stop();
    }
  }, 120_000);
});

describe('an FPC funded by nodeDev_setFeeJuiceBalance', () => {
  it("pays the official wallet's fees through the public and the private FPC payment methods", async () => {
    const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
    const { FPCContract } = await import('@aztec/noir-contracts.js/FPC');
    const { PrivateFeePaymentMethod, PublicFeePaymentMethod } = await import('@aztec/aztec.js/fee');
    const { wallet } = session;
    const { contract: token } = await TokenContract.deploy(wallet, alice, 'FeeToken', 'FT', 18).send({
      from: alice,
    });
    const { contract: fpc } = await FPCContract.deploy(wallet, token.address, alice).send({ from: alice });
    expect(await feeJuice(fpc.address)).toBe(0n);
    await dev('nodeDev_setFeeJuiceBalance', [fpc.address.toString(), (10n ** 21n).toString()]);
    expect(await feeJuice(fpc.address)).toBe(10n ** 21n);
    await token.methods.mint_to_public(alice, 10n ** 24n).send({ from: alice });
    await token.methods.mint_to_private(alice, 10n ** 24n).send({ from: alice });
    const aliceJuice = await feeJuice(alice);
    // The FPC takes the tx's whole fee limit in tokens: the gas settings the payment method and the tx share.
    const { GasSettings, GasFees } = await import('@aztec/stdlib/gas');
    const min = await session.node.getCurrentMinFees();
    const gasSettings = GasSettings.default({
      maxFeesPerGas: new GasFees(min.feePerDaGas * 2n, min.feePerL2Gas * 2n),
    });

    const publicFee = new PublicFeePaymentMethod(fpc.address, alice, wallet, gasSettings);
    await token.methods.transfer_in_public(alice, fpc.address, 1n, 0n).send({
      from: alice,
      fee: { paymentMethod: publicFee, gasSettings },
    });
    const afterPublic = await feeJuice(fpc.address);
    expect(afterPublic).toBeLessThan(10n ** 21n);
    const tokensAtFpc = (await token.methods.balance_of_public(fpc.address).simulate({ from: alice })).result;
    expect(tokensAtFpc).toBeGreaterThan(1n);

    const privateFee = new PrivateFeePaymentMethod(fpc.address, alice, wallet, gasSettings);
    await token.methods.transfer_in_public(alice, fpc.address, 1n, 0n).send({
      from: alice,
      fee: { paymentMethod: privateFee, gasSettings },
    });
    expect(await feeJuice(fpc.address)).toBeLessThan(afterPublic);
    // The FPC paid both fees: alice's own FeeJuice did not move.
    expect(await feeJuice(alice)).toBe(aliceJuice);
  }, 300_000);
});
