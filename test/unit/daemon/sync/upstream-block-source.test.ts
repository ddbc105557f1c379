import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Fr } from '../../../../src/core/fr.js';
import { PrivateLog } from '../../../../src/core/logs/private-log.js';
import type { SyncStatus } from '../../../../src/daemon/sync/sync-status.js';
import { type DevChain, startDevChain } from '../chain/dev-chain-fixture.js';
import { ChainUpstream, type Follower, startFollower } from './follower-fixture.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function leaderChain(flags: Record<string, string> = {}): Promise<DevChain> {
  const dev = await startDevChain({ 'blocks-per-slot': '1', 'proof-delay': '86400', ...flags });
  open.push(dev);
  return dev;
}

async function follow(up: ChainUpstream, o: Parameters<typeof startFollower>[1] = {}): Promise<Follower> {
  const f = await startFollower(up, o);
  open.push(f);
  return f;
}

let nonce = 0n;
/** One block per call, `txs` txs each with a note hash, a nullifier and a private log. */
function build(dev: DevChain, txs = 1): void {
  for (let i = 0; i < txs; i++) {
    const k = ++nonce;
    dev.source.add(
      dev.tx({
        noteHashes: [new Fr(1000n + k)],
        nullifiers: [new Fr(5000n + k)],
        privateLogs: [PrivateLog.fromEmitted([new Fr(77n), new Fr(k)])],
      }),
    );
  }
  dev.advanceBlocks();
}

/** The chain a node shows: tips, every block, the state after each, its checkpoints. */
function snapshot(dev: DevChain['service']['chain'] | Follower['chain']) {
  const n = dev.latestBlockNumber;
  return {
    tips: dev.readTips(),
    blocks: dev.store.getBlocks(1, n).map((b) => b.toBuffer().toString('hex')),
    states: Array.from({ length: n + 1 }, (_, i) => dev.worldState.getStateReference(i).toJSON()),
    checkpoints: dev.store.checkpoints.getRange(1, 1000).map((c) => c.header.toString('hex')),
  };
}

const status = (f: Follower): SyncStatus => f.source.status();

describe('the upstream block source', () => {
  it('follows a leader: same blocks, state roots, messages, checkpoints and tips', async () => {
    const leader = await leaderChain({ 'blocks-per-slot': '2', 'proof-delay': '1', 'finality-delay': '1' });
    const up = new ChainUpstream(leader.service, leader.config);
    leader.service.devL1.sendL1ToL2Message(0x4242n);
    for (let i = 0; i < 6; i++) build(leader, 1 + (i % 3));
    leader.advanceBlocks(12);
    const tips = leader.service.chain.readTips();
    expect(tips.finalized.block.number).toBeGreaterThan(0);
    expect(tips.proposed.number).toBeGreaterThan(tips.checkpointed.block.number - 1);

    const f = await follow(up);
    await f.sync();
    expect(snapshot(f.chain)).toEqual(snapshot(leader.service.chain));
    expect(f.chain.store.l1ToL2Messages.find(0x4242n)?.blockNumber).toBe(1);
    expect(f.chain.settlement.findInboxMessage(0x4242n)?.checkpoint).toBe(1);
    expect(status(f)).toMatchObject({ state: 'synced', behind: 0, blockNumber: tips.proposed.number });
    expect(status(f).problem).toBeUndefined();
    // One status line where it started, one once caught up; the same figures as `sync` events.
    expect(f.logs.map((l) => l.msg)).toContain(
      `sync from http://leader.test: block 0 of ${tips.proposed.number} (0%), ${tips.proposed.number} behind, -- blocks/s, ETA --`,
    );
    expect(f.logs.map((l) => l.msg)).toContain(
      `sync from http://leader.test: caught up at block ${tips.proposed.number}`,
    );
    const states = (f.events as SyncStatus[]).map((e) => e.state);
    expect(states).toContain('syncing');
    expect(states.at(-1)).toBe('synced');

    // New blocks (one proposed, not checkpointed yet) arrive at the next poll.
    build(leader, 2);
    await f.sync();
    expect(snapshot(f.chain)).toEqual(snapshot(leader.service.chain));
  });

  it('refuses a block whose note hash was changed, stores nothing of it, and recovers once the upstream is fixed', async () => {
    const leader = await leaderChain();
    const up = new ChainUpstream(leader.service, leader.config);
    for (let i = 0; i < 3; i++) build(leader);
    up.tamper = (b) => {
      const header = b.header as { globalVariables: { blockNumber: number } };
      if (header.globalVariables.blockNumber !== 2) return;
      const effect = (b.body as { txEffects: { noteHashes: string[] }[] }).txEffects[0] as { noteHashes: string[] };
      effect.noteHashes[0] = `0x${'00'.repeat(31)}2a`;
    };
    const f = await follow(up);
    await f.sync();
    expect(f.chain.latestBlockNumber).toBe(1);
    expect(f.chain.worldState.latestBlockNumber).toBe(1);
    expect(f.chain.store.getBlock(2)).toBeUndefined();
    const s = status(f);
    expect(s.state).toBe('refused');
    expect(s.problem?.subject).toBe('block 2');
    expect(s.problem?.message).toMatch(
      /refused block 2 from http:\/\/leader\.test: its body does not match its header/,
    );
    // One error line, not one per poll.
    expect(f.logs.filter((l) => l.level === 50 && /refused block 2/.test(l.msg))).toHaveLength(1);

    up.tamper = undefined;
    await f.sync();
    expect(snapshot(f.chain)).toEqual(snapshot(leader.service.chain));
    expect(status(f).state).toBe('synced');
    expect(status(f).problem).toBeUndefined();
    expect(f.logs.some((l) => /recovered at block 3/.test(l.msg))).toBe(true);
  });

  it('refuses a header whose roots were changed (applyBlock checks the roots)', async () => {
    const leader = await leaderChain();
    const up = new ChainUpstream(leader.service, leader.config);
    build(leader);
    up.tamper = (b) => {
      const state = b.header as { state: { partial: { nullifierTree: { root: string } } } };
      state.state.partial.nullifierTree.root = `0x${'00'.repeat(31)}07`;
    };
    const f = await follow(up);
    await f.sync();
    expect(f.chain.latestBlockNumber).toBe(0);
    expect(status(f).problem?.message).toMatch(/refused block 1/);
  });

  it('unwinds to the common ancestor when the upstream reorganises, then follows the new chain', async () => {
    const leader = await leaderChain();
    const up = new ChainUpstream(leader.service, leader.config);
    for (let i = 0; i < 4; i++) build(leader);
    const f = await follow(up);
    await f.sync();
    expect(f.chain.latestBlockNumber).toBe(4);
    const old3 = f.chain.store.getBlockHash(3);

    // The upstream rolls back to block 2 and builds other blocks 3 to 5.
    leader.service.chain.unwindTo(2);
    leader.advanceBlocks();
    for (let i = 0; i < 3; i++) build(leader, 2);
    expect(leader.service.chain.latestBlockNumber).toBe(5);
    await f.sync();
    expect(snapshot(f.chain)).toEqual(snapshot(leader.service.chain));
    expect(f.chain.store.getBlockHash(3)).not.toBe(old3);
    expect(f.logs.some((l) => /unwound 2 blocks to the common ancestor, block 2/.test(l.msg))).toBe(true);

    // Rolled back and not rebuilt yet: the follower goes back with it.
    leader.service.chain.unwindTo(3);
    await f.sync();
    expect(f.chain.latestBlockNumber).toBe(3);
    expect(snapshot(f.chain)).toEqual(snapshot(leader.service.chain));
  });

  it('never unwinds its finalized blocks: an upstream on another chain stops the sync', async () => {
    const leader = await leaderChain({ 'proof-delay': '1', 'finality-delay': '1' });
    const up = new ChainUpstream(leader.service, leader.config);
    for (let i = 0; i < 3; i++) build(leader);
    leader.advanceBlocks(12);
    const f = await follow(up);
    await f.sync();
    const finalized = f.chain.readTips().finalized.block.number;
    expect(finalized).toBeGreaterThan(0);
    const before = snapshot(f.chain);

    const other = await leaderChain();
    for (let i = 0; i < 5; i++) build(other, 2);
    up.switchTo(other.service, other.config);
    await f.sync();
    expect(snapshot(f.chain)).toEqual(before);
    expect(status(f).state).toBe('diverged');
    expect(status(f).problem?.message).toMatch(new RegExp(`no longer has this node's finalized block ${finalized}`));
    expect(f.logs.some((l) => l.level === 50 && /^SYNC STOPPED/.test(l.msg))).toBe(true);
  });

  it('refuses a checkpoint with L1-to-L2 messages from an upstream that does not serve them', async () => {
    const leader = await leaderChain();
    const up = new ChainUpstream(leader.service, leader.config);
    up.noMessages = true;
    build(leader);
    leader.service.devL1.sendL1ToL2Message(0x77n);
    build(leader);
    const f = await follow(up);
    await f.sync();
    // Block 1 inserted no message: its tree root did not change, so it needs none from the upstream.
    expect(f.chain.latestBlockNumber).toBe(1);
    expect(status(f).problem?.message).toMatch(/checkpoint 2 inserts L1-to-L2 messages.*node_getL1ToL2Messages/);
  });

  it('pauses and resumes: nothing is fetched or applied while paused', async () => {
    const leader = await leaderChain();
    const up = new ChainUpstream(leader.service, leader.config);
    build(leader);
    const f = await follow(up);
    await f.sync();
    await f.source.pause();
    expect(f.source.paused).toBe(true);
    build(leader);
    await f.sync();
    expect(f.chain.latestBlockNumber).toBe(1);
    expect(status(f).state).toBe('paused');
    f.source.resume();
    await f.sync();
    expect(f.chain.latestBlockNumber).toBe(2);
    expect(f.source.syncTarget()).toBe(2);
  });

  it('polls every archiverPollingIntervalMS, read again at every poll (nodeAdmin_setConfig changes it in place)', async () => {
    const leader = await leaderChain();
    const up = new ChainUpstream(leader.service, leader.config);
    const f = await follow(up);
    const settle = () => new Promise((r) => setTimeout(r, 20));
    f.clock.advance(0);
    await settle();
    expect(up.polls).toBe(1);
    f.clock.advance(499);
    await settle();
    expect(up.polls).toBe(1);
    f.clock.advance(1);
    await settle();
    expect(up.polls).toBe(2);
    f.config.archiverPollingIntervalMS = 2000;
    f.clock.advance(500);
    await settle();
    expect(up.polls).toBe(3);
    f.clock.advance(1999);
    await settle();
    expect(up.polls).toBe(3);
    build(leader);
    f.clock.advance(1);
    await settle();
    expect(up.polls).toBe(4);
    expect(f.chain.latestBlockNumber).toBe(1);
  });

  it('resumes after a restart from its last block, also in the middle of a checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'l2node-follower-'));
    try {
      const path = join(dir, 'node.sqlite');
      const leader = await leaderChain({ 'blocks-per-slot': '2' });
      const up = new ChainUpstream(leader.service, leader.config);
      build(leader);
      expect(leader.service.chain.readTips().checkpointed.block.number).toBe(0);
      const first = await startFollower(up, { path });
      await first.sync();
      expect(first.chain.latestBlockNumber).toBe(1);
      await first.close();

      build(leader, 3);
      build(leader);
      leader.advanceBlocks(4);
      const again = await follow(up, { path });
      await again.sync();
      expect(snapshot(again.chain)).toEqual(snapshot(leader.service.chain));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports an unreachable upstream and carries on when it is back', async () => {
    const leader = await leaderChain();
    const up = new ChainUpstream(leader.service, leader.config);
    const f = await follow(up);
    up.down = true;
    build(leader);
    await f.sync();
    expect(status(f)).toMatchObject({ state: 'unreachable', problem: { subject: 'upstream' } });
    up.down = false;
    await f.sync();
    expect(status(f).state).toBe('synced');
    expect(f.chain.latestBlockNumber).toBe(1);
  });
});

describe('start-up against the upstream', () => {
  it('refuses an upstream with another genesis, naming --prefunded-accounts', async () => {
    const leader = await leaderChain();
    const up = new ChainUpstream(leader.service, leader.config);
    await expect(startFollower(up, { flags: { 'prefunded-accounts': 'none' } })).rejects.toThrow(
      /genesis block 0x[0-9a-f]{64}, this node 0x[0-9a-f]{64}: .*same --prefunded-accounts as the upstream/,
    );
  });

  it('takes the chain id and rollup version from the upstream unless they were set, then they must match', async () => {
    const leader = await leaderChain({ 'l1-chain-id': '1234', 'rollup-version': '7' });
    const up = new ChainUpstream(leader.service, leader.config);
    build(leader);
    const f = await follow(up);
    expect(f.config.l1ChainId).toBe(1234);
    expect(f.config.rollupVersion).toBe(7);
    await f.sync();
    expect(f.chain.latestBlockNumber).toBe(1);
    await expect(startFollower(up, { flags: { 'l1-chain-id': '5' }, explicit: ['l1ChainId'] })).rejects.toThrow(
      /--l1-chain-id \(NODE_L1_CHAIN_ID\) is 5 but the upstream http:\/\/leader\.test has L1 chain id 1234/,
    );
  });

  it('gives up on an upstream that does not answer, saying which', async () => {
    const leader = await leaderChain();
    const up = new ChainUpstream(leader.service, leader.config);
    up.down = true;
    await expect(startFollower(up)).rejects.toThrow(/cannot reach the upstream http:\/\/leader\.test .*--sync-from/);
  });
});
