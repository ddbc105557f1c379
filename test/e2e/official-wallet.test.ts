/**
 * The official Aztec 4.1.2 wallet (aztec.js, PXE with fake proofs, EmbeddedWallet, Schnorr test accounts) against
 * a spawned dev node, as an Aztec developer uses it: one node and one wallet shared by the file's cases, which
 * run in order (each builds on the chain the previous one left).
 */
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { BlockNumber } from '@aztec/foundation/branded-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deployAccount,
  openOfficialWallet,
  testAccountAddresses,
  type WalletSession,
} from '../helpers/official-wallet.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';

let node: RunningNode;
let session: WalletSession;

beforeAll(async () => {
  const prefunded = await testAccountAddresses();
  node = await spawnNode({ args: ['--prefunded-accounts', prefunded.join(',')] });
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
});
