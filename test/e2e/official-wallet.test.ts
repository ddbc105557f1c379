/**
 * The official Aztec 4.1.2 wallet (aztec.js, PXE with fake proofs, EmbeddedWallet, Schnorr test accounts) against
 * a spawned dev node, as an Aztec developer uses it: one node and one wallet shared by the file's cases, which
 * run in order (each builds on the chain the previous one left).
 */
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { BlockNumber } from '@aztec/foundation/branded-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { result } from '../helpers/mempool-e2e.js';
import { deployAccount, openOfficialWallet, type WalletSession } from '../helpers/official-wallet.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

let node: RunningNode;
let session: WalletSession;

beforeAll(async () => {
  // No flags: the official test accounts are prefunded by default.
  node = await spawnNode();
  session = await openOfficialWallet(node.publicUrl);
}, 120_000);

afterAll(async () => {
  await session?.stop();
});

describe('official 4.1.2 wallet on a fresh dev chain', () => {
  it('deploys the test accounts as the very first txs of the chain (anchored to genesis)', async () => {
    expect(await session.node.getBlockNumber()).toBe(0);
    // aztec.js's send waits for the receipt and throws when the tx is dropped, as a first tx anchored to genesis
    // was by the block builder before it shared the mempool's block-1 exemption (txExpiredAt).
    for (const account of session.accounts) await deployAccount(session, account);
    const first = await session.node.getBlock(BlockNumber(1));
    expect(first?.body.txEffects.length).toBeGreaterThan(0);
  }, 180_000);

  it('deploys a private contract and runs it: Counter initialize, increment, get_counter', async () => {
    const { CounterContract } = await import('@aztec/noir-test-contracts.js/Counter');
    const owner: AztecAddress = session.accounts[0].address;
    const { contract } = await CounterContract.deploy(session.wallet, 5, owner).send({ from: owner });
    const read = async () => (await contract.methods.get_counter(owner).simulate({ from: owner })).result;
    expect(await read()).toBe(5n);
    await contract.methods.increment(owner).send({ from: owner });
    expect(await read()).toBe(6n);
    expect(await session.node.getContract(contract.address)).toBeDefined();
  }, 120_000);

  describe('public execution (Token)', () => {
    let token: Awaited<ReturnType<typeof deployToken>>;
    const deployToken = async () => {
      const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
      const admin = session.accounts[0].address;
      // The Token's initializer is public: deploying it runs the node's AVM.
      const { contract } = await TokenContract.deploy(session.wallet, admin, 'TestToken', 'TT', 18).send({
        from: admin,
      });
      return contract;
    };

    it('deploys the Token with its public initializer', async () => {
      token = await deployToken();
      const admin = session.accounts[0].address;
      expect((await token.methods.get_admin().simulate({ from: admin })).result).toEqual(admin.toBigInt());
    }, 180_000);

    it('mints and transfers in public; balances read through node_simulatePublicCalls', async () => {
      const [alice, bob] = session.accounts.map((a) => a.address);
      await token.methods.mint_to_public(alice, 1000n).send({ from: alice });
      await token.methods.transfer_in_public(alice, bob, 300n, 0n).send({ from: alice });
      const balance = async (who: AztecAddress) =>
        (await token.methods.balance_of_public(who).simulate({ from: alice })).result;
      expect(await balance(alice)).toBe(700n);
      expect(await balance(bob)).toBe(300n);
      expect((await token.methods.total_supply().simulate({ from: alice })).result).toBe(1000n);
    }, 180_000);

    it('moves balance between public and private: transfer_to_private, transfer_to_public', async () => {
      const [alice, bob] = session.accounts.map((a) => a.address);
      await token.methods.transfer_to_private(bob, 100n).send({ from: alice });
      expect((await token.methods.balance_of_private(bob).simulate({ from: bob })).result).toBe(100n);
      await token.methods.transfer_to_public(bob, bob, 40n, 0n).send({ from: bob });
      expect((await token.methods.balance_of_private(bob).simulate({ from: bob })).result).toBe(60n);
      expect((await token.methods.balance_of_public(bob).simulate({ from: bob })).result).toBe(340n);
      expect((await token.methods.balance_of_public(alice).simulate({ from: alice })).result).toBe(600n);
    }, 240_000);

    it('includes a public call that reverts: fee paid, its effects absent', async () => {
      const [alice, bob] = session.accounts.map((a) => a.address);
      const { receipt } = await token.methods
        .transfer_in_public(alice, bob, 10n ** 12n, 0n)
        .send({ from: alice, wait: { dontThrowOnRevert: true } });
      expect(receipt.executionResult).toBe('app_logic_reverted');
      const effect = await session.node.getTxEffect(receipt.txHash);
      expect(effect?.data.revertCode.getCode()).toBe(1);
      expect(effect?.data.transactionFee.toBigInt()).toBeGreaterThan(0n);
      // Only the fee payment is written in public; the transfer's writes are gone.
      expect(effect?.data.publicDataWrites).toHaveLength(1);
      const balance = async (who: AztecAddress) =>
        (await token.methods.balance_of_public(who).simulate({ from: alice })).result;
      expect(await balance(alice)).toBe(600n);
      expect(await balance(bob)).toBe(340n);
    }, 180_000);
  });

  it('a follower of the node replays its blocks, public txs included, to the same archive roots', async () => {
    const tip = await session.node.getBlockNumber();
    const follower = await spawnNode({
      args: ['--sync-from', node.publicUrl, '--archiver-polling-interval-ms', '100'],
    });
    try {
      await until(
        'the follower to replay the chain',
        async () => ((await result<number>(follower.publicUrl, 'node_getBlockNumber')) >= tip ? true : undefined),
        120_000,
      );
      for (let n = 1; n <= tip; n++) {
        const ours = await result<{ archive: { root: string } }>(follower.publicUrl, 'node_getBlock', [n]);
        expect(ours.archive.root, `block ${n}`).toBe(
          (await session.node.getBlock(BlockNumber(n)))?.archive.root.toString(),
        );
      }
    } finally {
      await follower.stop();
    }
  }, 180_000);
});
