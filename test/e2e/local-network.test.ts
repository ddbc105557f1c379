/**
 * The local network an Aztec developer reaches for: `l2node start` with no flags but its ports and a data
 * directory, and the official Aztec 4.1.2 wallet (aztec.js, PXE with fake proofs, EmbeddedWallet) used as
 * 4.1.2's own local network is used: the test accounts and the sponsored FPC are there at genesis, a brand-new
 * account pays for its deployment through `SponsoredFeePaymentMethod`, another with its own FeeJuice, then a
 * private contract and the Token (public) run. One node and one wallet serve the file's cases, in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { BlockNumber } from '@aztec/foundation/branded-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployAccount, openOfficialWallet, type WalletSession } from '../helpers/official-wallet.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';

const FEE_JUICE_AT_GENESIS = 10n ** 22n;

let dataDirectory: string;
let node: RunningNode;
let session: WalletSession;
let sponsoredFpc: AztecAddress;

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-local-network-'));
  node = await spawnNode({ bare: true, args: ['--data-directory', dataDirectory] });
  session = await openOfficialWallet(node.publicUrl);
  // The canonical address, as 4.1.2's local network computes it.
  const { SPONSORED_FPC_SALT } = await import('@aztec/constants');
  const { Fr } = await import('@aztec/aztec.js/fields');
  const { getContractInstanceFromInstantiationParams } = await import('@aztec/aztec.js/contracts');
  const { SponsoredFPCContract } = await import('@aztec/noir-contracts.js/SponsoredFPC');
  const instance = await getContractInstanceFromInstantiationParams(SponsoredFPCContract.artifact, {
    salt: new Fr(SPONSORED_FPC_SALT),
  });
  sponsoredFpc = instance.address;
}, 120_000);

afterAll(async () => {
  await session?.stop();
  await node?.stop();
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
});

async function feeJuice(address: AztecAddress): Promise<bigint> {
  const { getFeeJuiceBalance } = await import('@aztec/aztec.js/utils');
  return getFeeJuiceBalance(address, session.node);
}

describe('l2node start with no flags, as a local network for the official 4.1.2 wallet', () => {
  it('prints the test accounts with their keys and the sponsored FPC; both are funded at genesis', async () => {
    const banner = node.stdout();
    for (const a of session.accounts) {
      expect(banner).toContain(a.address.toString());
      expect(banner).toContain(`secret ${String(a.secret)}`);
    }
    expect(banner).toContain(`Sponsored FPC ${sponsoredFpc}`);
    expect(await session.node.getBlockNumber()).toBe(0);
    for (const a of session.accounts) expect(await feeJuice(a.address)).toBe(FEE_JUICE_AT_GENESIS);
    expect(await feeJuice(sponsoredFpc)).toBe(FEE_JUICE_AT_GENESIS);
    // Its instance and class are on the node from genesis, so a wallet can register it from there.
    const instance = await session.node.getContract(sponsoredFpc);
    expect(instance?.address.toString()).toBe(sponsoredFpc.toString());
    expect(await session.node.getContractClass(instance!.currentContractClassId)).toBeDefined();
    // This node skips the local network set-up (test/helpers/spawn-node.ts): its accounts wait to be deployed.
    const status = (await (await fetch(`${node.publicUrl}/status`)).json()) as { localNetworkSetup: unknown };
    expect(status.localNetworkSetup).toEqual({
      state: 'skipped',
      reason: 'turned off (--local-network-setup false)',
    });
  });

  it('deploys the test accounts as the first txs: one through SponsoredFeePaymentMethod, one with its own FeeJuice', async () => {
    const { SponsoredFeePaymentMethod } = await import('@aztec/aztec.js/fee');
    const { SponsoredFPCContract } = await import('@aztec/noir-contracts.js/SponsoredFPC');
    const instance = await session.node.getContract(sponsoredFpc);
    await session.wallet.registerContract(instance!, SponsoredFPCContract.artifact);
    const [sponsored, selfPaying, third] = session.accounts;

    await deployAccount(session, sponsored!, new SponsoredFeePaymentMethod(sponsoredFpc));
    const first = await session.node.getBlock(BlockNumber(1));
    const firstFee = first?.body.txEffects[0]?.transactionFee.toBigInt() ?? 0n;
    expect(first?.body.txEffects).toHaveLength(1);
    expect(firstFee).toBeGreaterThan(0n);
    // The FPC paid; the new account kept all of its FeeJuice.
    expect(await feeJuice(sponsoredFpc)).toBe(FEE_JUICE_AT_GENESIS - firstFee);
    expect(await feeJuice(sponsored!.address)).toBe(FEE_JUICE_AT_GENESIS);

    await deployAccount(session, selfPaying!);
    const second = await session.node.getBlock(BlockNumber(2));
    const secondFee = second?.body.txEffects[0]?.transactionFee.toBigInt() ?? 0n;
    expect(secondFee).toBeGreaterThan(0n);
    expect(await feeJuice(selfPaying!.address)).toBe(FEE_JUICE_AT_GENESIS - secondFee);
    expect(await feeJuice(sponsoredFpc)).toBe(FEE_JUICE_AT_GENESIS - firstFee);

    await deployAccount(session, third!);
    expect(await session.node.getBlockNumber()).toBe(3);
    // Each deployment was a block of its own (the instant sequencer), the chain's first three.
    for (const n of [1, 2, 3]) expect((await session.node.getBlock(BlockNumber(n)))?.body.txEffects).toHaveLength(1);
  }, 240_000);

  it('runs a private contract: Counter initialize, increment, get_counter', async () => {
    const { CounterContract } = await import('@aztec/noir-test-contracts.js/Counter');
    const owner = session.accounts[0]!.address;
    const { contract } = await CounterContract.deploy(session.wallet, 5, owner).send({ from: owner });
    const read = async () => (await contract.methods.get_counter(owner).simulate({ from: owner })).result;
    expect(await read()).toBe(5n);
    await contract.methods.increment(owner).send({ from: owner });
    expect(await read()).toBe(6n);

    // The wallet's default wait, as its sendTx runs it right after node_sendTx: aztec.js's waitForTx with its
    // defaults (until checkpointed, polling every second). Timed for bench/cli (L2NODE_WALLET_WAIT_RUNS).
    const { NO_WAIT } = await import('@aztec/aztec.js/contracts');
    const { waitForTx } = await import('@aztec/aztec.js/node');
    const runs = Number(process.env.L2NODE_WALLET_WAIT_RUNS ?? 2);
    const waitMs: number[] = [];
    const receiptMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { txHash } = await contract.methods.increment(owner).send({ from: owner, wait: NO_WAIT });
      const sent = performance.now();
      const receipt = await waitForTx(session.node, txHash);
      waitMs.push(performance.now() - sent);
      expect(receipt.status).toMatch(/^(checkpointed|proven|finalized)$/);
      const asked = performance.now();
      await session.node.getTxReceipt(txHash);
      receiptMs.push(performance.now() - asked);
    }
    expect(await read()).toBe(6n + BigInt(runs));
    console.log(`wallet-wait: ${JSON.stringify({ runs, waitMs, receiptMs })}`);
  }, 180_000);

  it('runs the Token in public, its txs paid through the sponsored FPC', async () => {
    const { SponsoredFeePaymentMethod } = await import('@aztec/aztec.js/fee');
    const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
    const fee = { paymentMethod: new SponsoredFeePaymentMethod(sponsoredFpc) };
    const [alice, bob] = session.accounts.map((a) => a.address);
    const before = await feeJuice(alice!);
    const { contract: token } = await TokenContract.deploy(session.wallet, alice!, 'TestToken', 'TT', 18).send({
      from: alice!,
      fee,
    });
    await token.methods.mint_to_public(alice!, 1000n).send({ from: alice!, fee });
    const { receipt } = await token.methods.transfer_in_public(alice!, bob!, 300n, 0n).send({ from: alice!, fee });
    expect(receipt.blockNumber).toBe(await session.node.getBlockNumber());
    const balance = async (who: AztecAddress) =>
      (await token.methods.balance_of_public(who).simulate({ from: alice! })).result;
    expect(await balance(alice!)).toBe(700n);
    expect(await balance(bob!)).toBe(300n);
    expect(await feeJuice(alice!)).toBe(before);
  }, 240_000);
});
