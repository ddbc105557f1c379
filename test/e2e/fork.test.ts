/**
 * `l2node start --fork-url` over the real binary, with the official 4.1.2 wallet: an upstream dev node with a
 * Token deployed and balances moved, a fork of it at its latest block N where the wallet transfers and reads
 * the expected balances while the upstream stays as it was; a follower of the fork (a node that re-executes
 * every block from genesis, holding the upstream's full state at N) checks every root of the fork's new blocks
 * bit for bit; a fork at N-10; an upstream that goes away while a fork is being made. One upstream per file.
 */
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { worldStateInput } from '../../src/daemon/chain/apply-block.js';
import { RpcWitnessSource } from '../../src/daemon/fork/rpc-witness-source.js';
import { UpstreamStateFetcher } from '../../src/daemon/fork/upstream-state-fetcher.js';
import { openNodeDatabase } from '../../src/daemon/store/node-database.js';
import { RpcUpstream } from '../../src/daemon/sync/rpc-upstream.js';
import { MerkleTreeId } from '../../src/daemon/world-state/merkle-tree-id.js';
import { WorldState } from '../../src/daemon/world-state/world-state.js';
import { deployAccount, openOfficialWallet, type WalletSession } from '../helpers/official-wallet.js';
import { startRpcProxy } from '../helpers/rpc-proxy.js';
import { postJson, type RunningNode, rpc, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

let upstream: RunningNode;
let session: WalletSession;
let alice: AztecAddress;
let bob: AztecAddress;
let tokenAddress: AztecAddress;
/** The upstream's latest block once the Token moved: the fork's block. */
let n: number;

async function pub<T>(on: RunningNode, method: string, params: unknown[] = []): Promise<T> {
  const r = await postJson(on.publicUrl, rpc(method, params));
  const body = r.body as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

async function publicBalances(s: WalletSession): Promise<[bigint, bigint]> {
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  const token = TokenContract.at(tokenAddress, s.wallet);
  const of = async (who: AztecAddress) =>
    (await token.methods.balance_of_public(who).simulate({ from: alice })).result as bigint;
  return [await of(alice), await of(bob)];
}

beforeAll(async () => {
  upstream = await spawnNode();
  // Ten empty blocks first, so that N-10 exists below the Token's blocks.
  await postJson(
    upstream.adminUrl,
    { jsonrpc: '2.0', id: 1, method: 'nodeDev_mineBlocks', params: [10] },
    { 'x-api-key': upstream.adminKey as string },
  );
  session = await openOfficialWallet(upstream.publicUrl);
  await deployAccount(session, session.accounts[0]);
  alice = session.accounts[0]?.address as AztecAddress;
  bob = session.accounts[1]?.address as AztecAddress;
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  const { contract: token } = await TokenContract.deploy(session.wallet, alice, 'Forked', 'FK', 18).send({
    from: alice,
  });
  tokenAddress = token.address;
  await token.methods.mint_to_public(alice, 1000n).send({ from: alice });
  await token.methods.transfer_in_public(alice, bob, 100n, 0n).send({ from: alice });
  expect(await publicBalances(session)).toEqual([900n, 100n]);
  n = await pub<number>(upstream, 'node_getBlockNumber');
}, 300_000);

afterAll(async () => {
  await session?.stop();
  await upstream?.stop();
});

describe('a fork at the latest block N', () => {
  let fork: RunningNode;
  let forkSession: WalletSession;

  beforeAll(async () => {
    fork = await spawnNode({ args: ['--fork-url', upstream.publicUrl, '--fork-block', String(n)] });
    forkSession = await openOfficialWallet(fork.publicUrl);
    const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
    const instance = await forkSession.node.getContract(tokenAddress);
    if (!instance) throw new Error('the fork does not serve the Token instance');
    await forkSession.wallet.registerContract(instance, TokenContract.artifact);
  }, 240_000);

  afterAll(async () => {
    await forkSession?.stop();
    await fork?.stop();
  });

  it("has the upstream's chain identity, genesis and blocks up to N", async () => {
    const [ours, theirs] = await Promise.all([
      pub<Record<string, unknown>>(fork, 'node_getNodeInfo'),
      pub<Record<string, unknown>>(upstream, 'node_getNodeInfo'),
    ]);
    expect(ours.l1ChainId).toBe(theirs.l1ChainId);
    expect(ours.rollupVersion).toBe(theirs.rollupVersion);
    for (const b of [0, 1, n - 1, n]) {
      expect(await pub(fork, 'node_getBlockHeader', [b])).toEqual(await pub(upstream, 'node_getBlockHeader', [b]));
    }
    expect(await pub(fork, 'node_getBlockNumber')).toBe(n);
  });

  it('the wallet transfers on the fork and reads the expected balances; the upstream is unchanged', async () => {
    const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
    const token = TokenContract.at(tokenAddress, forkSession.wallet);
    expect(await publicBalances(forkSession)).toEqual([900n, 100n]);
    await token.methods.transfer_in_public(alice, bob, 250n, 0n).send({ from: alice });
    expect(await publicBalances(forkSession)).toEqual([650n, 350n]);
    expect(await pub<number>(fork, 'node_getBlockNumber')).toBeGreaterThan(n);
    expect(await publicBalances(session)).toEqual([900n, 100n]);
    expect(await pub<number>(upstream, 'node_getBlockNumber')).toBe(n);
  }, 120_000);

  it('takes the cheat codes, snapshots and reverts as any dev chain', async () => {
    const dev = async <T>(method: string, params: unknown[] = []) => {
      const r = await postJson(
        fork.adminUrl,
        { jsonrpc: '2.0', id: 1, method, params },
        { 'x-api-key': fork.adminKey as string },
      );
      return (r.body as { result: T }).result;
    };
    const before = await pub<number>(fork, 'node_getBlockNumber');
    const id = await dev<number>('nodeDev_snapshot');
    const { getFeeJuiceBalance } = await import('@aztec/aztec.js/utils');
    await dev('nodeDev_setFeeJuiceBalance', [bob.toString(), '4242']);
    expect(await getFeeJuiceBalance(bob, forkSession.node)).toBe(4242n);
    expect(await dev<number>('nodeDev_revert', [id])).toBe(before);
    expect(await getFeeJuiceBalance(bob, forkSession.node)).not.toBe(4242n);
  });

  it("a follower holding the upstream's full state computes exactly the fork's roots for its new blocks", async () => {
    const tip = await pub<number>(fork, 'node_getBlockNumber');
    expect(tip).toBeGreaterThan(n);
    // The follower re-executes every block from genesis and checks every root and archive against the header
    // before storing it: reaching the fork's tip with the same hashes is the bit-exact check.
    const follower = await spawnNode({ args: ['--sync-from', fork.publicUrl] });
    try {
      await until('the follower at the fork tip', async () =>
        (await pub<number>(follower, 'node_getBlockNumber')) >= tip ? true : undefined,
      );
      for (let b = n; b <= tip; b++) {
        expect(await pub(follower, 'node_getBlockHeader', [b])).toEqual(await pub(fork, 'node_getBlockHeader', [b]));
      }
    } finally {
      await follower.stop();
    }
  }, 120_000);
});

describe('the lazy fork world state over the upstream witness methods', () => {
  it("applies a fork's new blocks from the upstream's block N with exactly their roots, fetching only what they touch", async () => {
    // The replay fork's blocks past N (their headers checked bit-exact by a follower above) are the oracle.
    const fork = await spawnNode({ args: ['--fork-url', upstream.publicUrl, '--fork-block', String(n)] });
    try {
      await postJson(
        fork.adminUrl,
        { jsonrpc: '2.0', id: 1, method: 'nodeDev_setPublicStorage', params: [tokenAddress.toString(), '0x5', '0x7'] },
        { 'x-api-key': fork.adminKey as string },
      );
      await postJson(
        fork.adminUrl,
        { jsonrpc: '2.0', id: 1, method: 'nodeDev_mineBlocks', params: [2] },
        { 'x-api-key': fork.adminKey as string },
      );
      const forkChain = new RpcUpstream({ url: fork.publicUrl, maxResponseSize: 64 << 20 });
      const upstreamChain = new RpcUpstream({ url: upstream.publicUrl, maxResponseSize: 64 << 20 });
      const [atN] = await upstreamChain.blocks(n, 1);
      if (!atN) throw new Error(`the upstream has no block ${n}`);
      const lazy = WorldState.openSparse(openNodeDatabase(null), {
        blockNumber: n,
        blockHash: atN.hash().value,
        state: atN.header.state,
        archive: atN.archive,
      });
      const fetcher = new UpstreamStateFetcher(
        lazy,
        new RpcWitnessSource({ url: upstream.publicUrl, maxResponseSize: 64 << 20 }),
      );
      await fetcher.fetchFrontiers();
      const blocks = await forkChain.blocks(n + 1, 10);
      expect(blocks.length).toBeGreaterThanOrEqual(2);
      for (const b of blocks) {
        const messages =
          b.indexWithinCheckpoint === 0 ? ((await forkChain.l1ToL2Messages(b.checkpointNumber)) ?? []) : [];
        const input = worldStateInput(b, messages, (await forkChain.stateOverrides(b.number)) ?? []);
        // applyBlock refuses a block whose computed state differs from its header's.
        await fetcher.run(() => lazy.applyBlock(input));
        expect(lazy.getArchiveSnapshot().equals(b.archive)).toBe(true);
      }
      // Where a leaf is and since which block comes from the upstream for its part of a tree.
      const hash = (await upstreamChain.blockHash(n - 3)) as bigint;
      const [wire] = await pub<({ l2BlockNumber: number; data: string } | null)[]>(upstream, 'node_findLeavesIndexes', [
        n,
        MerkleTreeId.ARCHIVE,
        [`0x${hash.toString(16).padStart(64, '0')}`],
      ]);
      const [ours] = await fetcher.run(() => lazy.findLeavesIndexes('latest', MerkleTreeId.ARCHIVE, [hash]));
      expect(ours?.index).toBe(BigInt(String(wire?.data)));
      expect(ours?.blockNumber).toBe(n - 3);
      expect(wire?.l2BlockNumber).toBe(n - 3);
      // The fork's blocks touched a few leaves of the upstream's trees, not its whole history.
      expect(fetcher.calls).toBeLessThan(40);
    } finally {
      await fork.stop();
    }
  }, 120_000);
});

describe('a fork at N-10', () => {
  it("is the upstream's block N-10 and builds its own N-9", async () => {
    const at = n - 10;
    const fork = await spawnNode({ args: ['--fork-url', upstream.publicUrl, '--fork-block', String(at)] });
    try {
      expect(await pub(fork, 'node_getBlockHeader', [at])).toEqual(await pub(upstream, 'node_getBlockHeader', [at]));
      expect(await pub(fork, 'node_getBlockNumber')).toBe(at);
      // Nothing past N-10 came over: the Token of block N-3 or so does not exist on this fork.
      expect(await pub(fork, 'node_getContract', [tokenAddress.toString()])).toBeNull();
      const mined = await postJson(
        fork.adminUrl,
        { jsonrpc: '2.0', id: 1, method: 'nodeDev_mineBlocks', params: [1] },
        { 'x-api-key': fork.adminKey as string },
      );
      expect((mined.body as { result: number[] }).result).toEqual([at + 1]);
      const ours = await pub<{ lastArchive: unknown }>(fork, 'node_getBlockHeader', [at + 1]);
      const theirs = await pub<{ lastArchive: unknown }>(upstream, 'node_getBlockHeader', [at + 1]);
      // Built on the same archive as the upstream's own block N-9, but it is another block.
      expect(ours.lastArchive).toEqual(theirs.lastArchive);
      expect(ours).not.toEqual(theirs);
    } finally {
      await fork.stop();
    }
  });
});

describe('refusals', () => {
  it('a fork block past the upstream tip is refused naming the tip', async () => {
    const child = spawnNodeProcess({ args: ['--fork-url', upstream.publicUrl, '--fork-block', String(n + 100)] });
    const status = await child.exited;
    expect(status.code).toBe(1);
    expect(child.stdout() + child.stderr()).toContain(`its latest block is ${n}`);
  });

  it('an upstream that goes away while the fork is made stops the start with a clear error', async () => {
    const proxy = await startRpcProxy(upstream.publicUrl);
    proxy.hold('node_getCheckpoints');
    const child = spawnNodeProcess({ args: ['--fork-url', proxy.url] });
    await until('the fork asking for checkpoints', () => (proxy.count('node_getCheckpoints') > 0 ? true : undefined));
    await proxy.close();
    const status = await child.exited;
    expect(status.code).toBe(1);
    expect(child.stdout() + child.stderr()).toMatch(
      new RegExp(`cannot fork ${proxy.url.replace(/[.:/]/g, '\\$&')}/?: its checkpoints from 1 did not come`),
    );
  });
});
