import { CheckpointHeader as StdCheckpointHeader } from '@aztec/stdlib/rollup';
import pino from 'pino';
import { encodePacked, sha256 } from 'viem';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CheckpointHeader } from '../../../../src/core/block/checkpoint-header.js';
import { Fr } from '../../../../src/core/fr.js';
import {
  L1CheckpointCheck,
  type RollupCheckpoint,
  type RollupCheckpointReader,
  type RollupTips,
} from '../../../../src/daemon/sync/l1-checkpoint-check.js';
import { CheckpointNotOnL1Error, L1ReadError } from '../../../../src/daemon/sync/l1-checkpoint-errors.js';
import { SyncRefusedError } from '../../../../src/daemon/sync/sync-refused-error.js';
import type { UpstreamCheckpoint, UpstreamIdentity } from '../../../../src/daemon/sync/upstream.js';
import { UpstreamMismatchError } from '../../../../src/daemon/sync/upstream-identity.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';
import { type DevChain, startDevChain } from '../chain/dev-chain-fixture.js';
import { ChainUpstream, type Follower, startFollower } from './follower-fixture.js';

const ROLLUP = '0x' + 'ab'.repeat(20);
const DEPLOYMENT = {
  chainId: 31337,
  rollupVersion: 7,
  addresses: { rollupAddress: ROLLUP, registryAddress: '0x' + 'cd'.repeat(20) } as never,
};

/** The rollup contract as a follower reads it: checkpoints proposed to it by number, its tips set by hand. */
class FakeRollup implements RollupCheckpointReader {
  readonly held = new Map<number, { archive: bigint; headerHash: bigint }>();
  proven = 0;
  finalized = 0;
  /** Checkpoints whose log the rollup no longer keeps (older than its ring buffer). */
  forgotten = new Set<number>();
  down = false;
  reads = 0;

  get pending(): number {
    return this.held.size;
  }

  propose(archive: bigint, headerHash: bigint): void {
    this.held.set(this.held.size + 1, { archive, headerHash });
  }

  async tips(): Promise<RollupTips> {
    this.reads++;
    if (this.down) throw new L1ReadError('reading the tips of the rollup on L1 failed: HTTP request failed');
    return { pending: this.pending, proven: this.proven, finalized: this.finalized };
  }

  async checkpoint(n: number): Promise<RollupCheckpoint> {
    if (this.down) throw new L1ReadError(`reading checkpoint ${n} of the rollup on L1 failed: HTTP request failed`);
    const c = this.held.get(n);
    return {
      pending: this.pending,
      archive: c?.archive ?? 0n,
      headerHash: c && !this.forgotten.has(n) ? c.headerHash : undefined,
    };
  }
}

type LogLine = { level: number; msg: string };
function capture(): { log: pino.Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log = pino({ level: 'debug' }, { write: (l: string) => lines.push(JSON.parse(l) as LogLine) });
  return { log, lines };
}

function checkOn(rollup: FakeRollup, log = capture().log): L1CheckpointCheck {
  return new L1CheckpointCheck({ rollup, deployment: DEPLOYMENT, upstreamUrl: 'http://leader.test', log });
}

/** An upstream checkpoint with `header` (its blocks play no part in the L1 check). */
function checkpoint(n: number, header: CheckpointHeader, archive: bigint): UpstreamCheckpoint {
  return { number: n, header, archiveRoot: new Fr(archive), blocks: [], l1: {} as never, attestations: [] };
}

beforeAll(initAztecOracle);

describe('the L1 checkpoint check', () => {
  it("takes a checkpoint whose archive and header hash are the rollup's; 4.1.2's header hash is the rollup's", async () => {
    const std = StdCheckpointHeader.random();
    const ours = CheckpointHeader.fromBuffer(std.toBuffer());
    // The rollup's ProposedHeaderLib.hash: sha256 of the packed header, its first 31 bytes as a field.
    const packed = encodePacked(
      [
        'bytes32',
        'bytes32',
        'bytes32',
        'bytes32',
        'bytes32',
        'uint256',
        'uint64',
        'address',
        'bytes32',
        'uint128',
        'uint128',
        'bytes32',
      ],
      [
        std.lastArchiveRoot.toString(),
        std.blockHeadersHash.toString(),
        std.blobsHash.toString(),
        std.inHash.toString(),
        std.epochOutHash.toString(),
        BigInt(std.slotNumber),
        std.timestamp,
        std.coinbase.toString(),
        std.feeRecipient.toString() as `0x${string}`,
        std.gasFees.feePerDaGas,
        std.gasFees.feePerL2Gas,
        std.totalManaUsed.toString(),
      ] as never,
    );
    const onL1 = BigInt(sha256(packed)) >> 8n;
    expect(std.hash().toBigInt()).toBe(onL1);
    expect(ours.hash().value).toBe(onL1);

    const rollup = new FakeRollup();
    rollup.propose(0x1234n, onL1);
    await expect(checkOn(rollup).verify(checkpoint(1, ours, 0x1234n))).resolves.toBeUndefined();
  });

  it('refuses a checkpoint whose archive or header hash is not the rollup’s, naming both values', async () => {
    const header = CheckpointHeader.empty({ slotNumber: 3 });
    const rollup = new FakeRollup();
    rollup.propose(0x1234n, header.hash().value);
    const check = checkOn(rollup);
    const wrongArchive = check.verify(checkpoint(1, header, 0x9999n));
    await expect(wrongArchive).rejects.toBeInstanceOf(SyncRefusedError);
    await expect(wrongArchive).rejects.toThrow(
      new RegExp(`^checkpoint 1: its archive root 0x0+9999 is not the one the rollup ${ROLLUP} holds, 0x0+1234$`),
    );
    const other = CheckpointHeader.empty({ slotNumber: 4 });
    await expect(check.verify(checkpoint(1, other, 0x1234n))).rejects.toThrow(
      `checkpoint 1: its header hash ${other.hash()} is not the one the rollup ${ROLLUP} holds, ${header.hash()}`,
    );
  });

  it('checks the archive alone of a checkpoint whose log the rollup no longer keeps', async () => {
    const rollup = new FakeRollup();
    rollup.propose(0x1234n, 0x5555n);
    rollup.forgotten.add(1);
    const check = checkOn(rollup);
    await expect(check.verify(checkpoint(1, CheckpointHeader.empty(), 0x1234n))).resolves.toBeUndefined();
    await expect(check.verify(checkpoint(1, CheckpointHeader.empty(), 0x1235n))).rejects.toThrow(/archive root/);
  });

  it('a checkpoint not on L1 yet: not taken, said once at info however often it is polled', async () => {
    const rollup = new FakeRollup();
    const { log, lines } = capture();
    const check = checkOn(rollup, log);
    // The upstream has 3 checkpoints, the follower none, L1 none: it may take none.
    for (let i = 0; i < 5; i++) expect(await check.poll(3, 0)).toBe(0);
    await expect(check.verify(checkpoint(1, CheckpointHeader.empty(), 1n))).rejects.toBeInstanceOf(
      CheckpointNotOnL1Error,
    );
    const waits = lines.filter((l) => /is not on L1 yet/.test(l.msg));
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({ level: 30, checkpoint: 1 });
    expect(waits[0]?.msg).toBe(
      'checkpoint 1 of http://leader.test is not on L1 yet (the rollup holds up to checkpoint 0): its blocks are ' +
        'synced as proposed, and it is recorded once the rollup holds it',
    );
    // Two on L1: the follower may take them; the third is waited for (a new line, once).
    rollup.propose(1n, 1n);
    rollup.propose(2n, 2n);
    rollup.proven = 2;
    rollup.finalized = 1;
    expect(await check.poll(3, 0)).toBe(2);
    expect(check.tips).toEqual({ pending: 2, proven: 2, finalized: 1 });
    expect(lines.filter((l) => /is not on L1 yet/.test(l.msg))).toHaveLength(1);
    expect(await check.poll(3, 2)).toBe(2);
    expect(await check.poll(3, 2)).toBe(2);
    expect(lines.filter((l) => /is not on L1 yet/.test(l.msg)).map((l) => l.msg.split(' of ')[0])).toEqual([
      'checkpoint 1',
      'checkpoint 3',
    ]);
    // L1 ahead of the upstream: no further than the upstream's.
    rollup.propose(3n, 3n);
    rollup.propose(4n, 4n);
    expect(await check.poll(3, 2)).toBe(3);
  });

  it('refuses an upstream that settles on another rollup, chain or version', () => {
    const check = checkOn(new FakeRollup());
    const identity = (over: Partial<UpstreamIdentity>, rollupAddress = ROLLUP): UpstreamIdentity =>
      ({ l1ChainId: 31337, rollupVersion: 7, l1ContractAddresses: { rollupAddress }, ...over }) as UpstreamIdentity;
    expect(() => check.checkUpstream(identity({}, ROLLUP.toUpperCase().replace('0X', '0x')))).not.toThrow();
    for (const wrong of [
      identity({}, `0x${'ee'.repeat(20)}`),
      identity({ l1ChainId: 1 }),
      identity({ rollupVersion: 8 }),
    ]) {
      expect(() => check.checkUpstream(wrong)).toThrow(UpstreamMismatchError);
    }
    expect(() => check.checkUpstream(identity({}, `0x${'ee'.repeat(20)}`))).toThrow(
      `the upstream http://leader.test settles on rollup 0x${'ee'.repeat(20)} (version 7) on L1 chain 31337, but ` +
        `--registry-address 0x${'cd'.repeat(20)} names rollup ${ROLLUP} (version 7) on L1 chain 31337: give the ` +
        "registry of the upstream's deployment",
    );
  });
});

// ---- a follower with an L1, over a leader dev chain ----

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function leaderWithCheckpoints(): Promise<DevChain> {
  const dev = await startDevChain({ 'blocks-per-slot': '1', 'proof-delay': '86400', 'min-txs-per-block': '0' });
  open.push(dev);
  for (let i = 0; i < 5; i++) dev.advanceBlocks();
  return dev;
}

/** Proposes the leader's checkpoints up to `n` to the fake rollup, as its sequencer will. */
function proposeUpTo(rollup: FakeRollup, dev: DevChain, n: number): void {
  for (const row of dev.service.chain.store.checkpoints.getRange(rollup.pending + 1, n - rollup.pending)) {
    rollup.propose(Fr.fromBuffer(row.archiveRoot).value, CheckpointHeader.fromBuffer(row.header).hash().value);
  }
}

async function follower(dev: DevChain, rollup: FakeRollup): Promise<Follower> {
  const up = new ChainUpstream(dev.service, dev.config);
  // The leader's deployment: the one its node info names.
  const deployment = {
    chainId: dev.config.l1ChainId,
    rollupVersion: dev.config.rollupVersion,
    addresses: dev.service.chain.settlement.l1ContractAddresses(),
  };
  const f = await startFollower(up, {
    l1: (log) => new L1CheckpointCheck({ rollup, deployment, upstreamUrl: up.url, log }),
  });
  open.push(f);
  return f;
}

const checkpointed = (f: Follower) => f.chain.readTips().checkpointed.checkpoint.number;

describe('a follower with an L1', () => {
  it("syncs every block but records only the checkpoints the rollup holds; proven and finalized are the rollup's", async () => {
    const dev = await leaderWithCheckpoints();
    const upstreamCheckpoints = dev.service.chain.readTips().checkpointed.checkpoint.number;
    expect(upstreamCheckpoints).toBeGreaterThanOrEqual(4);
    const rollup = new FakeRollup();
    const f = await follower(dev, rollup);
    await f.sync();
    expect(f.chain.latestBlockNumber).toBe(dev.service.chain.latestBlockNumber);
    expect(checkpointed(f)).toBe(0);
    expect(f.source.status()).toMatchObject({ state: 'synced' });
    expect(f.source.status().problem).toBeUndefined();
    expect(f.logs.filter((l) => /checkpoint 1 of http:\/\/leader\.test is not on L1 yet/.test(l.msg))).toHaveLength(1);

    proposeUpTo(rollup, dev, 2);
    rollup.proven = 2;
    rollup.finalized = 1;
    await f.sync();
    expect(checkpointed(f)).toBe(2);
    const tips = f.chain.readTips();
    expect([tips.proven.checkpoint.number, tips.finalized.checkpoint.number]).toEqual([2, 1]);
    // The same checkpoints as the upstream's, recorded over the blocks synced before.
    expect(f.chain.store.checkpoints.getRange(1, 10)).toEqual(dev.service.chain.store.checkpoints.getRange(1, 2));

    // The rollup proves further than the follower holds: capped at its checkpoints.
    rollup.proven = 9;
    rollup.finalized = 9;
    proposeUpTo(rollup, dev, upstreamCheckpoints);
    await f.sync();
    expect(checkpointed(f)).toBe(upstreamCheckpoints);
    expect(f.chain.readTips().proven.checkpoint.number).toBe(upstreamCheckpoints);
  });

  it('refuses a checkpoint the rollup holds with another archive, and recovers once they agree', async () => {
    const dev = await leaderWithCheckpoints();
    const rollup = new FakeRollup();
    proposeUpTo(rollup, dev, 1);
    const real = rollup.held.get(1) as { archive: bigint; headerHash: bigint };
    rollup.held.set(1, { ...real, archive: 0x77n });
    const f = await follower(dev, rollup);
    await f.sync();
    expect(checkpointed(f)).toBe(0);
    const s = f.source.status();
    expect(s.state).toBe('refused');
    expect(s.problem?.subject).toBe('checkpoint 1');
    const refusals = f.logs.filter((l) => l.level === 50 && /refused checkpoint 1/.test(l.msg));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.msg).toContain(
      `its archive root ${new Fr(real.archive)} is not the one the rollup ${dev.service.chain.settlement.l1ContractAddresses().rollupAddress} holds, 0x${'0'.repeat(62)}77`,
    );
    // Nothing of the refused checkpoint was applied.
    const first = dev.service.chain.store.checkpoints.get(1)?.firstBlock as number;
    expect(f.chain.latestBlockNumber).toBe(first - 1);

    rollup.held.set(1, real);
    await f.sync();
    expect(checkpointed(f)).toBe(1);
    expect(f.chain.latestBlockNumber).toBe(dev.service.chain.latestBlockNumber);
    expect(f.source.status().state).toBe('synced');
  });

  it('an L1 that does not answer stalls the sync as unreachable, said once, and it resumes when L1 answers', async () => {
    const dev = await leaderWithCheckpoints();
    const rollup = new FakeRollup();
    rollup.down = true;
    const f = await follower(dev, rollup);
    await f.sync();
    await f.sync();
    expect(f.source.status()).toMatchObject({ state: 'unreachable', problem: { subject: 'l1' } });
    expect(f.logs.filter((l) => l.level === 40 && /rollup on L1 failed/.test(l.msg))).toHaveLength(1);
    rollup.down = false;
    await f.sync();
    expect(f.source.status().state).toBe('synced');
    expect(f.chain.latestBlockNumber).toBe(dev.service.chain.latestBlockNumber);
  });
});
