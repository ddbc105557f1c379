/**
 * DevTools: the snapshot limit, reverts that consume later snapshots, state files that are refused; the state
 * cheat codes' queue, the block that applies it, its record beside the block and its unwind.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { computeFeePayerBalanceLeafSlot, computePublicDataTreeLeafSlot } from '../../../../src/core/hash/siloing.js';
import { copyDatabaseTo, StateFileError } from '../../../../src/daemon/dev/database-copy.js';
import {
  DevSnapshotLimitError,
  DevTools,
  StateOverrideRefusedError,
  UnknownSnapshotError,
} from '../../../../src/daemon/dev/dev-tools.js';
import { loadDevState } from '../../../../src/daemon/dev/load-state.js';
import type { SequencerMode } from '../../../../src/daemon/sequencer/sequencer-settings.js';
import { openNodeDatabase } from '../../../../src/daemon/store/node-database.js';
import { type DevChain, startDevChain } from '../chain/dev-chain-fixture.js';

const log = pino({ level: 'silent' });
let dev: DevChain | undefined;
let tools: DevTools | undefined;
let dir: string | undefined;
afterEach(async () => {
  await tools?.stop();
  await dev?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dev = undefined;
  tools = undefined;
  dir = undefined;
});

async function open(
  limit = 16,
  dumpState?: string,
  mode: SequencerMode = 'instant',
): Promise<{ dev: DevChain; tools: DevTools }> {
  dev = await startDevChain({ 'sequencer-mode': mode });
  const d = dev;
  tools = new DevTools({
    config: {
      dataDirectory: undefined,
      devSnapshotLimit: limit,
      dumpState,
      loadState: undefined,
      localNetworkSetup: false,
    },
    db: d.db,
    chain: d.service,
    exclusive: async (fn) => {
      await d.service.sequencer.pause();
      try {
        return await fn();
      } finally {
        d.service.sequencer.resume();
      }
    },
    sequencer: d.service.sequencer,
    sequencerMode: () => mode,
    log,
  });
  await tools.start();
  return { dev: d, tools };
}

describe('DevTools', () => {
  it('refuses a snapshot over the limit until a revert consumes some', async () => {
    const { dev, tools } = await open(2);
    const a = await tools.snapshot();
    await dev.service.sequencer.mineBlocks(1);
    await tools.snapshot();
    await expect(tools.snapshot()).rejects.toThrow(DevSnapshotLimitError);
    await expect(tools.snapshot()).rejects.toThrow(/2 snapshots are live, the limit \(--dev-snapshot-limit 2\)/);
    expect(await tools.revert(a)).toBe(0);
    expect(dev.service.chain.latestBlockNumber).toBe(0);
    // Both consumed: two more fit.
    await tools.snapshot();
    await tools.snapshot();
  });

  it('a revert restores the time warp and refuses an id that is not live', async () => {
    const { dev, tools } = await open();
    const id = await tools.snapshot();
    const warp = dev.service.slots.warpMs;
    await tools.increaseTime(3600);
    await dev.service.sequencer.mineBlocks(2);
    expect(await tools.revert(id)).toBe(0);
    expect(dev.service.slots.warpMs).toBe(warp);
    await expect(tools.revert(id)).rejects.toThrow(UnknownSnapshotError);
    await expect(tools.revert(99)).rejects.toThrow(/No live snapshot 99: live ones are none/);
    // The sequencer builds on the restored chain.
    expect(await dev.service.sequencer.mineBlocks(1)).toEqual([1]);
  });

  it('--dump-state on stop, and --load-state refuses a database with blocks or a file that is no state', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'l2node-dev-tools-'));
    dir = tmp;
    const file = join(tmp, 'state.sqlite');
    const { dev, tools: t } = await open(16, file);
    await dev.service.sequencer.mineBlocks(3);
    await t.stop();
    const into = openNodeDatabase(null);
    loadDevState(into, file, log);
    expect(into.prepare('SELECT MAX(number) FROM chain_block').pluck().get()).toBe(3);
    expect(() => loadDevState(into, file, log)).toThrow(/already holds 3 blocks/);
    into.close();

    // A dumped state whose tip no longer hashes to its stored hash: refused, and nothing of it is kept.
    const damaged = join(tmp, 'damaged.sqlite');
    const copy = new Database(file);
    copy.prepare('UPDATE chain_block SET hash = zeroblob(32) WHERE number = 3').run();
    copyDatabaseTo(copy, damaged);
    copy.close();
    const target = openNodeDatabase(null);
    expect(() => loadDevState(target, damaged, log)).toThrow(/cannot load the state of .*: it is damaged: /);
    expect(target.prepare('SELECT COUNT(*) FROM chain_block').pluck().get()).toBe(0);
    target.close();

    const junk = join(tmp, 'junk.sqlite');
    writeFileSync(junk, 'not a database at all, just text that is long enough to be read as a header');
    const fresh = openNodeDatabase(null);
    expect(() => loadDevState(fresh, junk, log)).toThrow(StateFileError);
    expect(() => loadDevState(fresh, join(tmp, 'missing.sqlite'), log)).toThrow(/does not exist/);
    // A database of another schema.
    const other = openNodeDatabase(null, { migrate: false });
    other.exec('CREATE TABLE something (x INTEGER)');
    copyDatabaseTo(other, join(tmp, 'other.sqlite'));
    other.close();
    expect(() => loadDevState(fresh, join(tmp, 'other.sqlite'), log)).toThrow(/not a database of this l2node's schema/);
    fresh.close();
  });

  it('a state override is applied by a block built at once in instant mode, and recorded beside it', async () => {
    const { dev, tools } = await open();
    const ws = dev.service.worldState;
    const slot = computePublicDataTreeLeafSlot(0x1234n, 7n);
    expect(await tools.setPublicStorage(0x1234n, 7n, 42n)).toBe(1);
    expect(ws.getPublicStorageAt('latest', slot)).toBe(42n);
    expect(ws.getPublicStorageAt(0, slot)).toBe(0n);
    expect(dev.service.chain.store.stateOverrides.ofBlock(1)).toEqual([{ leafSlot: slot, value: 42n }]);
    expect(dev.service.chain.store.pendingStateOverrides.count()).toBe(0);
    expect(await tools.setFeeJuiceBalance(0x99n, 1000n)).toBe(2);
    expect(ws.getPublicStorageAt('latest', computeFeePayerBalanceLeafSlot(0x99n))).toBe(1000n);
    await expect(tools.setFeeJuiceBalance(0x99n, 2n ** 128n)).rejects.toThrow(StateOverrideRefusedError);
    // An unwind drops the block and its record; re-deriving the world state from the stored blocks replays them.
    dev.service.chain.unwindTo(1, { force: true, rederive: true });
    expect(dev.service.chain.store.stateOverrides.ofBlock(2)).toEqual([]);
    expect(ws.getPublicStorageAt('latest', slot)).toBe(42n);
    expect(ws.getPublicStorageAt('latest', computeFeePayerBalanceLeafSlot(0x99n))).toBe(0n);
  });

  it('in interval mode an override waits for the next block; a revert puts the queue back too', async () => {
    const { dev, tools } = await open(16, undefined, 'interval');
    const id = await tools.snapshot();
    expect(await tools.setPublicStorage(0x77n, 1n, 5n)).toBeUndefined();
    expect(dev.service.chain.store.pendingStateOverrides.count()).toBe(1);
    expect(await dev.service.sequencer.mineBlocks(1)).toEqual([1]);
    expect(dev.service.worldState.getPublicStorageAt('latest', computePublicDataTreeLeafSlot(0x77n, 1n))).toBe(5n);
    expect(dev.service.chain.store.pendingStateOverrides.count()).toBe(0);
    expect(await tools.setPublicStorage(0x77n, 1n, 6n)).toBeUndefined();
    expect(await tools.revert(id)).toBe(0);
    expect(dev.service.chain.store.pendingStateOverrides.count()).toBe(0);
  });
});
