/**
 * `l2node start --fork-url` over the real binary, with the official 4.1.2 wallet: an upstream dev node with a
 * Token deployed and balances moved; a lazy fork of it (the default mode) at its latest block N, started without
 * replaying, which serves the upstream's logs below N (public, class and private, by range and by tx, as the 4.1.2
 * client reads them from the upstream) with its own above, and where the wallet transfers and reads the expected
 * balances while the upstream stays as it was; the
 * fork's new blocks checked bit for bit by a full world state holding the upstream's whole state (every upstream
 * block applied from genesis, then the fork's, each root checked against its header); then the upstream goes
 * away and a read that needs it answers a clear error while nothing is committed. A lazy fork at N-10, a replay
 * fork (--fork-mode replay) checked by a follower, and the refusals. One upstream per file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockHeader } from '../../src/core/block/block-header.js';
import {
  publicBalances as balancesOf,
  dev,
  expectForkRootsBitExact,
  openForkWallet,
  pub,
  slot,
  startTokenUpstream,
  type TokenUpstream,
} from '../helpers/fork-e2e.js';
import type { WalletSession } from '../helpers/official-wallet.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { postJson, type RunningNode, rpc, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

let up: TokenUpstream;
let upstream: RunningNode;
let session: WalletSession;
let alice: AztecAddress;
let bob: AztecAddress;
let mintTxHash: string;
let tokenAddress: AztecAddress;
/** The upstream's latest block once the Token moved: the fork's block. */
let n: number;

const publicBalances = (s: WalletSession) => balancesOf(up, s);

/** The upstream's tx that emitted public logs (TestLog's events), in the block below N. */
let publicLogTxHash: string;

beforeAll(async () => {
  // A hundred empty blocks first, so that N-10 exists below the Token's blocks and a log range from block 1 reaches
  // more upstream blocks below the fork than one request may read.
  up = await startTokenUpstream({ emptyBlocks: 100 });
  ({ node: upstream, session, alice, bob, mintTxHash, tokenAddress } = up);
  const { TestLogContract } = await import('@aztec/noir-test-contracts.js/TestLog');
  const { contract: testLog } = await TestLogContract.deploy(session.wallet).send({ from: alice });
  const { receipt } = await testLog.methods.emit_unencrypted_events([1n, 2n, 3n, 4n]).send({ from: alice });
  publicLogTxHash = receipt.txHash.toString();
  // One more block, so that the logs' block is the upstream's on a fork at N.
  await dev(upstream, 'nodeDev_mineBlocks', [1]);
  n = await pub<number>(upstream, 'node_getBlockNumber');
}, 300_000);

afterAll(async () => {
  await up?.stop();
});

describe('a lazy fork at the latest block N', () => {
  let proxy: RpcProxy;
  let fork: RunningNode;
  let forkSession: WalletSession;

  beforeAll(async () => {
    // Through a proxy, so that the upstream can go away while the fork serves (the last case).
    proxy = await startRpcProxy(upstream.publicUrl);
    fork = await spawnNode({ args: ['--fork-url', proxy.url, '--fork-block', String(n)] });
    forkSession = await openForkWallet(up, fork);
  }, 240_000);

  afterAll(async () => {
    await forkSession?.stop();
    await fork?.stop();
    await proxy?.close();
  });

  it("starts without replaying and has the upstream's chain identity, genesis and blocks up to N", async () => {
    const started = fork.logs().find((l) => String(l.msg).includes('lazy mode'));
    expect(started?.msg).toContain(`at block ${n} (lazy mode`);
    // No block before N's checkpoint was asked for whole (a replay asks for checkpoints from 1).
    expect(proxy.count('node_getCheckpoints')).toBe(1);
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
    // The history taken from the upstream is final on the fork: a wallet skips to block N instead of syncing
    // the upstream's blocks from genesis.
    const tips = await pub<{ finalized: { block: { number: number } } }>(fork, 'node_getL2Tips');
    expect(tips.finalized.block.number).toBe(n);
    // Ranges of blocks come from the upstream below the fork (checked against the archive), then from the fork.
    expect(await pub(fork, 'node_getBlocks', [n - 2, 5])).toEqual(await pub(upstream, 'node_getBlocks', [n - 2, 3]));
    // An upstream block below the fork by its hash or archive root (the upstream names its number; the checked
    // block must carry what was asked); a hash no chain has is null, as on any node.
    const theirBlock = await pub<{ header: unknown; archive: { root: string } }>(upstream, 'node_getBlock', [2]);
    const hash = BlockHeader.fromJSON(theirBlock.header as never)
      .hash()
      .toString();
    const root = theirBlock.archive.root;
    expect(await pub(fork, 'node_getBlockByHash', [hash])).toEqual(theirBlock);
    expect(await pub(fork, 'node_getBlock', [hash])).toEqual(theirBlock);
    expect(await pub(fork, 'node_getBlockHeader', [hash])).toEqual(theirBlock.header);
    expect(await pub(fork, 'node_getBlockByArchive', [root])).toEqual(theirBlock);
    expect(await pub(fork, 'node_getBlockHeaderByArchive', [root])).toEqual(theirBlock.header);
    expect(await pub(fork, 'node_getBlockByHash', [slot(0x1234n)])).toBeNull();
    // Checkpoints of the upstream's history are not served here: a clear error says whom to ask.
    await expect(pub(fork, 'node_getCheckpoints', [1, 5])).rejects.toThrow(/below this lazy fork's first checkpoint/);
    await expect(pub(fork, 'node_getCheckpointedBlocks', [1, 5])).rejects.toThrow(
      /does not serve the upstream's checkpointed blocks \(their L1 publication cannot be checked here\)/,
    );
    // A tx the upstream mined below the fork has its receipt here, from its block.
    const [forkReceipt, upstreamReceipt] = await Promise.all([
      pub<Record<string, unknown>>(fork, 'node_getTxReceipt', [mintTxHash]),
      pub<Record<string, unknown>>(upstream, 'node_getTxReceipt', [mintTxHash]),
    ]);
    for (const field of ['txHash', 'blockNumber', 'blockHash', 'executionResult', 'transactionFee', 'epochNumber']) {
      expect(forkReceipt[field], field).toEqual(upstreamReceipt[field]);
    }
    expect(forkReceipt.status).not.toBe('dropped');
  });

  it("serves the upstream's logs below the fork, then its own, as one chain (the 4.1.2 client reads the same)", async () => {
    // A range spanning the fork's block N (its own) and ten upstream blocks below it, read through the official
    // 4.1.2 node client from both nodes: the upstream's TestLog events and Token class come from its blocks.
    const span = { fromBlock: n - 10, toBlock: n + 1 };
    const theirs = await session.node.getPublicLogs(span);
    expect(theirs.logs.length).toBeGreaterThan(1);
    expect(theirs.logs[0]?.id.txHash.toString()).toBe(publicLogTxHash);
    expect(await forkSession.node.getPublicLogs(span)).toEqual(theirs);
    expect(await forkSession.node.getPublicLogs({ txHash: theirs.logs[0]?.id.txHash })).toEqual(
      await session.node.getPublicLogs({ txHash: theirs.logs[0]?.id.txHash }),
    );
    // Paged with afterLog as on any chain.
    const after = { ...span, afterLog: theirs.logs[0]?.id };
    expect(await forkSession.node.getPublicLogs(after)).toEqual(await session.node.getPublicLogs(after));
    const classLogs = await session.node.getContractClassLogs(span);
    expect(classLogs.logs.length).toBeGreaterThan(0);
    expect(await forkSession.node.getContractClassLogs(span)).toEqual(classLogs);
    const privateLogs = await pub<unknown[]>(upstream, 'node_getPrivateLogs', [n - 10, 11]);
    expect(privateLogs.length).toBeGreaterThan(0);
    expect(await pub(fork, 'node_getPrivateLogs', [n - 10, 11])).toEqual(privateLogs);
    // A range reaching more than 100 upstream blocks is refused, naming the maximum and where to start.
    const tooFar = new RegExp(`at most 100 of them \\(here ${n - 1}\\); start at block ${n - 100} or later`);
    await expect(pub(fork, 'node_getPublicLogs', [{ fromBlock: 1 }])).rejects.toThrow(tooFar);
    await expect(pub(fork, 'node_getContractClassLogs', [{}])).rejects.toThrow(tooFar);
    await expect(pub(fork, 'node_getPrivateLogs', [1, 1000])).rejects.toThrow(/at most 100 of them/);
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
    const before = await pub<number>(fork, 'node_getBlockNumber');
    const id = (await dev<number>(fork, 'nodeDev_snapshot')).result;
    const { getFeeJuiceBalance } = await import('@aztec/aztec.js/utils');
    await dev(fork, 'nodeDev_setFeeJuiceBalance', [bob.toString(), '4242']);
    expect(await getFeeJuiceBalance(bob, forkSession.node)).toBe(4242n);
    expect((await dev<number>(fork, 'nodeDev_revert', [id])).result).toBe(before);
    expect(await getFeeJuiceBalance(bob, forkSession.node)).not.toBe(4242n);
    // A public slot of the upstream's Token set on the fork (an in-place update of an upstream leaf).
    await dev(fork, 'nodeDev_setPublicStorage', [tokenAddress.toString(), slot(5n), slot(7n)]);
    await dev(fork, 'nodeDev_mineBlocks', [1]);
    expect(await pub(fork, 'node_getPublicStorageAt', ['latest', tokenAddress.toString(), slot(5n)])).toBe(
      `0x${'7'.padStart(64, '0')}`,
    );
  }, 60_000);

  it("a world state holding the upstream's whole state computes exactly the fork's roots for its new blocks", async () => {
    await expectForkRootsBitExact(upstream, fork, n);
  }, 120_000);

  it('an upstream that goes away while a fork serves: a read that needs it answers a clear error, nothing is committed', async () => {
    // A fork of its own, which has read nothing but what this case reads: the shared fork above has read so much
    // of the upstream's public data tree that a slot it could not answer alone is not found by trying (an indexed
    // tree's low leaf proves a whole range empty; CI once tried 8 random slots, all inside known ranges).
    const gate = await startRpcProxy(upstream.publicUrl);
    const served = await spawnNode({ args: ['--fork-url', gate.url, '--fork-block', String(n)] });
    try {
      const token = tokenAddress.toString();
      const read = (s: string) => pub<string>(served, 'node_getPublicStorageAt', ['latest', token, s]);
      const known = slot(5n);
      const before = await read(known);
      expect(before).toBe(await pub(upstream, 'node_getPublicStorageAt', [n, token, known]));
      await gate.close();
      const tip = await pub<number>(served, 'node_getBlockNumber');
      const gone = new RegExp(`${gate.url.replace(/[.:/]/g, '\\$&')}/? did not give`);
      // An upstream block the fork never served.
      await expect(pub(served, 'node_getBlockHeader', [2])).rejects.toThrow(gone);
      // A public slot of the upstream's state the fork has not read (one whose low leaf is the one read above
      // would be answered alone: try another then).
      let unread: string | undefined;
      for (let i = 1n; i <= 8n && !unread; i++) {
        const s = slot(0xabcdefn * i ** 7n + 0x1234567890abcdefn * i);
        const r = await postJson(served.publicUrl, rpc('node_getPublicStorageAt', ['latest', token, s]));
        const error = (r.body as { error?: { message: string } }).error;
        if (error) {
          expect(error.message).toMatch(gone);
          unread = s;
        }
      }
      if (!unread) throw new Error('every slot tried was answered without the upstream');
      // A block that needs it is not built: the attempt answers an error naming the upstream (the instant block
      // of the override itself, or, when the sequencer was busy then, a block mined on request), and the chain
      // stays where it was.
      const set = await dev(served, 'nodeDev_setPublicStorage', [token, unread, slot(1n)]);
      const refusal =
        set.error?.message ??
        (await until('a block attempt that names the upstream', async () => {
          const mined = await dev(served, 'nodeDev_mineBlocks', [1]);
          return mined.error && !/try again/.test(mined.error.message) ? mined.error.message : undefined;
        }));
      expect(refusal).toMatch(gone);
      expect(await pub<number>(served, 'node_getBlockNumber')).toBe(tip);
      // What it fetched before still answers.
      expect(await read(known)).toBe(before);
    } finally {
      await served.stop();
      await gate.close();
    }
  }, 90_000);
});

describe('a lazy fork on a data directory: restart and dump/load', () => {
  it("keeps the upstream's blocks it fetched, restarts without asking again, and its dump loads only with an upstream", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'l2node-fork-dir-'));
    const dump = join(dir, 'fork-state.db');
    const data = join(dir, 'data');
    const token = tokenAddress.toString();
    const first = await startRpcProxy(upstream.publicUrl);
    const fork = await spawnNode({
      args: ['--fork-url', first.url, '--fork-block', String(n), '--data-directory', data, '--dump-state', dump],
    });
    const old = await pub(upstream, 'node_getBlocks', [1, 5]);
    // The upstream's logs below the fork, and the witness of its note-hash tree's last leaf (the frontier the
    // fork's appends extend), read once before the restart: the restarted fork answers them alone.
    const span = [{ fromBlock: n - 10, toBlock: n + 1 }];
    const logs = await pub(upstream, 'node_getPublicLogs', span);
    const lastBlocks = await pub<{ body: { txEffects: { noteHashes: string[] }[] } }[]>(upstream, 'node_getBlocks', [
      n - 10,
      11,
    ]);
    const lastNote = lastBlocks.flatMap((b) => b.body.txEffects.flatMap((e) => e.noteHashes)).at(-1) as string;
    const witness = await pub(upstream, 'node_getNoteHashMembershipWitness', [n, lastNote]);
    expect(witness).not.toBeNull();
    let tip: number;
    try {
      expect(await pub(fork, 'node_getPublicLogs', span)).toEqual(logs);
      expect(await pub(fork, 'node_getNoteHashMembershipWitness', ['latest', lastNote])).toEqual(witness);
      expect(await pub(fork, 'node_getBlocks', [1, 5])).toEqual(old);
      expect(await pub(fork, 'node_getTxReceipt', [mintTxHash])).toMatchObject({ status: 'finalized' });
      await dev(fork, 'nodeDev_setPublicStorage', [token, slot(9n), slot(3n)]);
      tip = (await dev<number[]>(fork, 'nodeDev_mineBlocks', [1])).result?.[0] as number;
    } finally {
      await fork.stop();
    }
    try {
      // Restarted on its data directory (its fork block taken from there): once serving, the upstream goes away,
      // and what the fork fetched before still answers.
      const second = await startRpcProxy(upstream.publicUrl);
      const again = await spawnNode({ args: ['--fork-url', second.url, '--data-directory', data] });
      try {
        await second.close();
        expect(await pub(again, 'node_getBlockNumber')).toBe(tip);
        expect(await pub(again, 'node_getBlocks', [1, 5])).toEqual(old);
        expect(await pub(again, 'node_getTxReceipt', [mintTxHash])).toMatchObject({ status: 'finalized' });
        expect(await pub(again, 'node_getPublicStorageAt', ['latest', token, slot(9n)])).toBe(slot(3n));
        expect(await pub(again, 'node_getPublicLogs', span)).toEqual(logs);
        expect(await pub(again, 'node_getNoteHashMembershipWitness', ['latest', lastNote])).toEqual(witness);
      } finally {
        await again.stop();
      }
      // The dump needs the upstream: loaded without --fork-url it is refused naming it; with it, it serves.
      const alone = spawnNodeProcess({ args: ['--load-state', dump] });
      expect((await alone.exited).code).toBe(1);
      expect(alone.stdout() + alone.stderr()).toContain(`is a lazy fork of block ${n} of ${first.url}`);
      const loaded = await spawnNode({ args: ['--load-state', dump, '--fork-url', upstream.publicUrl] });
      try {
        expect(await pub(loaded, 'node_getBlockNumber')).toBe(tip);
        expect(await pub(loaded, 'node_getPublicStorageAt', ['latest', token, slot(9n)])).toBe(slot(3n));
        expect(await pub(loaded, 'node_getBlocks', [1, 5])).toEqual(old);
        expect((await dev<number[]>(loaded, 'nodeDev_mineBlocks', [1])).result).toEqual([tip + 1]);
      } finally {
        await loaded.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a lazy fork at N-10', () => {
  it("is the upstream's block N-10 and builds its own N-9", async () => {
    const at = n - 10;
    const fork = await spawnNode({ args: ['--fork-url', upstream.publicUrl, '--fork-block', String(at)] });
    try {
      expect(await pub(fork, 'node_getBlockHeader', [at])).toEqual(await pub(upstream, 'node_getBlockHeader', [at]));
      expect(await pub(fork, 'node_getBlockNumber')).toBe(at);
      // Nothing past N-10 came over: the Token, deployed later upstream, does not exist on this fork.
      expect(await pub(fork, 'node_getContract', [tokenAddress.toString()])).toBeNull();
      // An hour later than the upstream's N-9 (whose slot, after a burst of empty blocks, may be the one the fork
      // would take next): the fork's own block is then another block even when both are empty.
      await dev(fork, 'nodeDev_increaseTime', [3600]);
      const mined = await dev<number[]>(fork, 'nodeDev_mineBlocks', [1]);
      expect(mined.result).toEqual([at + 1]);
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

describe('a replay fork (--fork-mode replay)', () => {
  it('replays blocks 1 to N-10; a follower re-deriving it from genesis gets exactly its blocks', async () => {
    const at = n - 10;
    const fork = await spawnNode({
      args: ['--fork-url', upstream.publicUrl, '--fork-block', String(at), '--fork-mode', 'replay'],
    });
    try {
      expect(fork.logs().some((l) => String(l.msg).includes('replay mode'))).toBe(true);
      await dev(fork, 'nodeDev_setPublicStorage', ['0x' + '0'.repeat(62) + '05', '0x5', '0x7']);
      await dev(fork, 'nodeDev_mineBlocks', [2]);
      const tip = await pub<number>(fork, 'node_getBlockNumber');
      const follower = await spawnNode({ args: ['--sync-from', fork.publicUrl] });
      try {
        await until('the follower at the fork tip', async () =>
          (await pub<number>(follower, 'node_getBlockNumber')) >= tip ? true : undefined,
        );
        for (let b = at; b <= tip; b++) {
          expect(await pub(follower, 'node_getBlockHeader', [b])).toEqual(await pub(fork, 'node_getBlockHeader', [b]));
        }
      } finally {
        await follower.stop();
      }
    } finally {
      await fork.stop();
    }
  }, 120_000);
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
      new RegExp(`cannot fork ${proxy.url.replace(/[.:/]/g, '\\$&')}/?: its checkpoint \\d+ did not come`),
    );
  });
});
