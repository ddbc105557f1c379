/**
 * How a project tests its contracts on l2node from code (docs/dev-chain.md, "From test code"): `nodeFixture` starts
 * one in-memory dev node for the file through `startNode` (imported from the package, as a user imports it),
 * each test runs on a snapshot and the node reverts after it. The official 4.1.2 wallet deploys a Token and mints
 * in setup; one test moves tokens and the next sees the balances back where setup left them.
 */
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { nodeFixture, startNode } from 'l2node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deployAccount, openOfficialWallet, type WalletSession } from '../helpers/official-wallet.js';
import { scaled } from '../helpers/until.js';

let session: WalletSession;
let owner: AztecAddress;
let bob: AztecAddress;
let tokenAddress: AztecAddress;

const fixture = nodeFixture(
  { beforeAll, afterAll, beforeEach, afterEach },
  {
    // This file deploys the account it uses itself (startNode runs no local network set-up unless asked).
    setup: async (node) => {
      session = await openOfficialWallet(node.publicUrl);
      await deployAccount(session, session.accounts[0]);
      owner = session.accounts[0]?.address as AztecAddress;
      bob = session.accounts[1]?.address as AztecAddress;
      const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
      const { contract } = await TokenContract.deploy(session.wallet, owner, 'Example', 'EX', 18).send({
        from: owner,
      });
      await contract.methods.mint_to_public(owner, 100n).send({ from: owner });
      tokenAddress = contract.address;
    },
    timeoutMs: 240_000,
  },
);

afterAll(async () => {
  await session?.stop();
});

async function token() {
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  return TokenContract.at(tokenAddress, session.wallet);
}

async function balances(): Promise<[bigint, bigint]> {
  const t = await token();
  const of = async (who: AztecAddress) =>
    (await t.methods.balance_of_public(who).simulate({ from: owner })).result as bigint;
  return [await of(owner), await of(bob)];
}

describe('startNode and nodeFixture', () => {
  it('serves a dev chain with the funded test accounts and typed cheat codes', async () => {
    const { node } = fixture;
    expect(node.publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node.adminApiKey).toMatch(/^[0-9a-f]{64}$/);
    expect(node.accounts.map((a) => a.address)).toContain(owner.toString());
    expect(node.accounts[0]?.secret).toMatch(/^0x[0-9a-f]{64}$/);
    const [mined] = await node.cheats.mine();
    expect(mined).toBe((await session.node.getBlockNumber()) as number);
  });

  it('moves the tokens the wallet minted in setup', async () => {
    expect(await balances()).toEqual([100n, 0n]);
    await (await token()).methods.transfer_in_public(owner, bob, 30n, 0n).send({ from: owner });
    expect(await balances()).toEqual([70n, 30n]);
  }, 120_000);

  it('starts each test from the state setup left: the transfer above was reverted', async () => {
    expect(await balances()).toEqual([100n, 0n]);
  }, 60_000);

  it('starts a second node on other ports, independent of the first', async () => {
    const other = await startNode({ flags: { 'prefunded-accounts': 'none', 'sponsored-fpc': 'false' } });
    try {
      expect(other.publicUrl).not.toBe(fixture.node.publicUrl);
      expect(other.accounts).toEqual([]);
      await other.cheats.mine(2);
      const { createAztecNodeClient } = await import('@aztec/aztec.js/node');
      expect(await createAztecNodeClient(other.publicUrl).getBlockNumber()).toBe(2);
    } finally {
      await other.stop();
    }
  });

  it(
    'with the local network set-up asked for, answers once it is done: the test accounts and the BananaFPC deployed',
    async () => {
      const local = await startNode({ flags: { 'local-network-setup': 'true' } });
      try {
        const status = (await (await fetch(`${local.publicUrl}/status`)).json()) as {
          localNetworkSetup: { state: string; accounts: string[]; bananaFpc: string };
        };
        expect(status.localNetworkSetup.state).toBe('done');
        expect(status.localNetworkSetup.accounts).toEqual(local.accounts.map((a) => a.address));
        const { createAztecNodeClient } = await import('@aztec/aztec.js/node');
        const { AztecAddress } = await import('@aztec/aztec.js/addresses');
        const client = createAztecNodeClient(local.publicUrl);
        // Three account deployments, then the token and its FPC (their instances published).
        expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(4);
        const fpc = AztecAddress.fromString(status.localNetworkSetup.bananaFpc);
        expect(await client.getContract(fpc)).toBeDefined();
      } finally {
        await local.stop();
      }
    },
    scaled(300_000),
  );
});
