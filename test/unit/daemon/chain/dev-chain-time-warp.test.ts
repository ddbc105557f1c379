/** nodeDev_increaseTime / nodeDev_setNextBlockTimestamp on the dev chain: slots, block timestamps, tx expiry. */
import { afterEach, describe, expect, it } from 'vitest';
import { TimeWarpRefusedError } from '../../../../src/daemon/chain/chain-state.js';
import { type DevChain, startDevChain } from './dev-chain-fixture.js';

let dev: DevChain | undefined;
afterEach(async () => {
  await dev?.close();
  dev = undefined;
});

const DAY = 86_400;
const timestampOf = (d: DevChain, n: number) => d.service.chain.store.getHeader(n)?.globalVariables.timestamp;

describe('time warp', () => {
  it('increaseTime: the next block is at least that long after the latest one (ahead of the clock), and a tx past its expiry is dropped', async () => {
    dev = await startDevChain({ 'sequencer-mode': 'instant' });
    const { service } = dev;
    expect(await service.sequencer.mineBlocks(2)).toEqual([1, 2]);
    const before = timestampOf(dev, 2) as bigint;
    // Anchored to block 2: it expires a day after block 2's timestamp.
    const tx = dev.tx();
    const now = service.increaseTime(2 * DAY);
    // Block 2 went a slot ahead of the clock (two blocks mined in one slot): the warp counts from it, as aztec.js's
    // warpL2TimeAtLeastBy does, and the next block carries exactly that time.
    expect(now).toBe(Math.max(Math.floor(dev.clock.now() / 1000), Number(before)) + 2 * DAY);
    dev.source.add(tx);
    expect(await service.sequencer.mineBlocks(1)).toEqual([3]);
    expect(timestampOf(dev, 3)).toBe(BigInt(now));
    expect(timestampOf(dev, 3)).toBeGreaterThanOrEqual(before + BigInt(2 * DAY));
    // The block builder refused the tx by the same rule the mempool uses (txExpiredAt).
    expect(service.chain.store.getBlock(3)?.body.txEffects).toHaveLength(0);
    expect(dev.source.dropped).toEqual([
      { hash: tx.txHash.toString(), reason: expect.stringMatching(/^Invalid expiration timestamp: tx expired at/) },
    ]);
  });

  it('setNextBlockTimestamp: the next block carries exactly that timestamp and time runs on from it', async () => {
    dev = await startDevChain({ 'sequencer-mode': 'instant' });
    const { service } = dev;
    await service.sequencer.mineBlocks(1);
    const target = Number(timestampOf(dev, 1)) + 1000;
    service.setNextBlockTimestamp(target);
    expect(await service.sequencer.mineBlocks(2)).toEqual([2, 3]);
    expect(timestampOf(dev, 2)).toBe(BigInt(target));
    expect(timestampOf(dev, 3)).toBe(BigInt(target + 4));
    // The slots go on one by one: no slot number is skipped or repeated by the warp.
    expect(service.chain.store.getBlock(2)?.slot).toBe((service.chain.store.getBlock(1)?.slot ?? 0) + 1);
  });

  it('refuses to go back before the latest block, either way', async () => {
    dev = await startDevChain({ 'sequencer-mode': 'instant' });
    const { service } = dev;
    service.increaseTime(DAY);
    await service.sequencer.mineBlocks(1);
    const last = Number(timestampOf(dev, 1));
    expect(() => service.setNextBlockTimestamp(last - 1)).toThrow(TimeWarpRefusedError);
    expect(() => service.setNextBlockTimestamp(last - 1)).toThrow(/before block 1's timestamp/);
    expect(() => service.increaseTime(-2 * DAY)).toThrow(TimeWarpRefusedError);
    // Back, but not before the latest block: allowed.
    service.increaseTime(100);
    expect(service.increaseTime(-50)).toBeGreaterThanOrEqual(last);
  });

  it('the interval sequencer builds in the warped slot, and a reopened chain keeps the warp', async () => {
    dev = await startDevChain({ 'sequencer-mode': 'interval', 'min-txs-per-block': '0' });
    const { service } = dev;
    service.increaseTime(DAY);
    dev.advanceBlocks(2);
    const latest = service.chain.store.getBlock(service.chain.latestBlockNumber);
    expect(Number(latest?.timestamp)).toBeGreaterThanOrEqual(Math.floor(dev.clock.now() / 1000) + DAY - 8);
    const warp = service.slots.warpMs;
    expect(warp).toBe(DAY * 1000);
    service.reloadTime();
    expect(service.slots.warpMs).toBe(warp);
  });
});
