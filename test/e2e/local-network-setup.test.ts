/**
 * `l2node start` as `aztec start --local-network` of 4.1.2: block 0 is that network's genesis (the test accounts,
 * the BananaFPC and the SponsoredFPC funded; the published packages compute the values), and at the first start
 * the node deploys the test accounts and sets up the BananaFPC with its BananaCoin in the background, saying so
 * in GET /status. Then a script written for the local network runs unchanged: the test accounts from
 * `getInitialTestAccountsData` used without deploying them, a fee paid in BananaCoin through the BananaFPC. The
 * other tests skip the set-up (test/helpers/spawn-node.ts); this file turns it on.
 */
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2node } from '../helpers/cli.js';
import { type LocalNetworkGenesis, localNetworkGenesis } from '../helpers/local-network-oracle.js';
import { openOfficialWallet, type WalletSession } from '../helpers/official-wallet.js';
import { rpcResult } from '../helpers/rpc-result.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { scaled, until } from '../helpers/until.js';

interface SetupStatus {
  state: string;
  accounts?: string[];
  bananaCoin?: string;
  bananaFpc?: string;
  error?: string;
  reason?: string;
}

let node: RunningNode;
let oracle: LocalNetworkGenesis;
let session: WalletSession;

async function setupStatus(url: string): Promise<SetupStatus> {
  const body = (await (await fetch(`${url}/status`)).json()) as { localNetworkSetup: SetupStatus };
  return body.localNetworkSetup;
}

beforeAll(async () => {
  node = await spawnNode({ env: { NODE_LOCAL_NETWORK_SETUP: 'true' } });
  oracle = await localNetworkGenesis();
}, 120_000);

afterAll(async () => {
  await session?.stop();
  await node?.stop();
});

describe("l2node start as 4.1.2's local network", () => {
  it("block 0 is 4.1.2's local network genesis: the test accounts and both FPCs funded", async () => {
    const header = await rpcResult(node.publicUrl, 'node_getBlockHeader', 0);
    expect(header?.state.partial.publicDataTree.root.toString()).toBe(oracle.publicDataRoot);
    expect(node.stdout()).toContain(`BananaFPC ${oracle.bananaFpc}`);
    expect(node.stdout()).toContain(`Sponsored FPC ${oracle.sponsoredFpc}`);
  });

  it(
    'deploys the test accounts and the BananaFPC in the background, GET /status saying when it is done',
    async () => {
      // The listeners answer before the set-up ends: start-up does not wait for it.
      expect((await setupStatus(node.publicUrl)).state).toMatch(/running|done/);
      const done = await until(
        'the local network set-up to end',
        async () => {
          const s = await setupStatus(node.publicUrl);
          return s.state === 'running' ? undefined : s;
        },
        { timeoutMs: 300_000, intervalMs: 1000 },
      );
      expect(done.error).toBeUndefined();
      expect(done.state).toBe('done');
      expect(done.bananaCoin).toBe(oracle.bananaCoin);
      expect(done.bananaFpc).toBe(oracle.bananaFpc);
      expect(node.logs().some((l) => l.msg?.startsWith('local network set-up done'))).toBe(true);
      session = await openOfficialWallet(node.publicUrl);
      expect(done.accounts).toEqual(session.accounts.map((a) => a.address.toString()));
      const status = await l2node(['status', '--full', '--node-url', node.publicUrl, '--admin-url', node.adminUrl]);
      expect(status.stdout).toMatch(
        new RegExp(`local network +set up in [0-9.]+ s: test accounts deployed, BananaFPC ${oracle.bananaFpc}`),
      );
    },
    scaled(360_000),
  );

  it(
    'a script written for the local network runs unchanged: deployed accounts, a fee paid through the BananaFPC',
    async () => {
      const { getInitialTestAccountsData } = await import('@aztec/accounts/testing');
      const { Fr } = await import('@aztec/aztec.js/fields');
      const { getContractInstanceFromInstantiationParams } = await import('@aztec/aztec.js/contracts');
      const { PublicFeePaymentMethod } = await import('@aztec/aztec.js/fee');
      const { GasFees, GasSettings } = await import('@aztec/stdlib/gas');
      const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
      const { FPCContract } = await import('@aztec/noir-contracts.js/FPC');
      const { wallet } = session;

      // As a tutorial for `aztec start --local-network`: the accounts are there, the wallet only registers them.
      const [aliceData, bobData] = await getInitialTestAccountsData();
      const alice: AztecAddress = (
        await wallet.createSchnorrAccount(aliceData!.secret, aliceData!.salt, aliceData!.signingKey)
      ).address;
      const bob: AztecAddress = (await wallet.createSchnorrAccount(bobData!.secret, bobData!.salt, bobData!.signingKey))
        .address;
      // The BananaCoin and its FPC, registered as registerDeployedBanana*InWalletAndGetAddress of @aztec/aztec do.
      const coin = await getContractInstanceFromInstantiationParams(TokenContract.artifact, {
        constructorArgs: [alice, 'BC', 'BC', 18n],
        salt: new Fr(0),
      });
      const fpc = await getContractInstanceFromInstantiationParams(FPCContract.artifact, {
        constructorArgs: [coin.address, alice],
        salt: new Fr(0),
      });
      await wallet.registerContract(coin, TokenContract.artifact);
      await wallet.registerContract(fpc, FPCContract.artifact);
      const bananaCoin = await TokenContract.at(coin.address, wallet);

      await bananaCoin.methods.mint_to_public(alice, 10n ** 21n).send({ from: alice });
      const min = await session.node.getCurrentMinFees();
      const gasSettings = GasSettings.default({
        maxFeesPerGas: new GasFees(min.feePerDaGas * 2n, min.feePerL2Gas * 2n),
      });
      const paymentMethod = new PublicFeePaymentMethod(fpc.address, alice, wallet, gasSettings);
      await bananaCoin.methods
        .transfer_in_public(alice, bob, 7n, 0n)
        .send({ from: alice, fee: { paymentMethod, gasSettings } });

      const balance = async (who: AztecAddress) =>
        (await bananaCoin.methods.balance_of_public(who).simulate({ from: alice })).result as bigint;
      expect(await balance(bob)).toBe(7n);
      // The fee went to the FPC in BananaCoin.
      expect(await balance(fpc.address)).toBeGreaterThan(0n);
      expect(await balance(alice)).toBe(10n ** 21n - 7n - (await balance(fpc.address)));
    },
    scaled(300_000),
  );
});
