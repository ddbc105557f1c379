import { afterEach, describe, expect, it } from 'vitest';
import { RollbackRefusedError, rollbackChain } from '../../../../src/daemon/operations/chain-rollback.js';
import { type DevChain, startDevChain } from '../chain/dev-chain-fixture.js';

/** A chain of empty blocks (one per block interval), with each block's world state recorded as it was built. */
async function chainWithBlocks(blocks: number): Promise<{ dev: DevChain; roots: Map<number, string> }> {
  const dev = await startDevChain({ 'min-txs-per-block': '0' });
  const roots = new Map<number, string>();
  // The sequencer may have built a block at start, before this listener: take every block not recorded yet.
  const record = () => {
    const ws = dev.service.worldState;
    for (let n = 0; n <= dev.service.chain.latestBlockNumber; n++) {
      if (!roots.has(n)) roots.set(n, JSON.stringify(ws.getStateReference(n)));
    }
  };
  dev.service.chain.events.on('block', record);
  record();
  while (dev.service.chain.latestBlockNumber < blocks) dev.advanceBlocks(1);
  return { dev, roots };
}

let dev: DevChain | undefined;
afterEach(async () => {
  await dev?.close();
  dev = undefined;
});

describe('rollbackChain', () => {
  it('unwinds blocks, world state and tips to the target, and the chain builds on from there', async () => {
    const built = await chainWithBlocks(8);
    dev = built.dev;
    const chain = dev.service.chain;
    const finalized = chain.readTips().finalized.block.number;
    const target = Math.max(finalized, 5);
    const result = rollbackChain(
      { chain, clearPool: () => expect.unreachable(), isPending: () => false },
      target,
      false,
    );
    expect(result).toMatchObject({ targetBlockNumber: target, rederived: false });
    expect(result.removedBlocks).toBeGreaterThan(0);
    expect(chain.latestBlockNumber).toBe(target);
    expect(chain.readTips().proposed.number).toBe(target);
    expect(JSON.stringify(chain.worldState.getStateReference('latest'))).toBe(built.roots.get(target));
    expect(chain.store.getBlock(target + 1)).toBeUndefined();

    dev.advanceBlocks(4);
    expect(chain.latestBlockNumber).toBeGreaterThan(target);
    const next = chain.store.getBlock(target + 1);
    expect(next?.header.lastArchive.equals(chain.worldState.getArchiveSnapshot(target))).toBe(true);
  });

  it('refuses a target above the tip, and below the finalized block without force; the tip is a no-op', async () => {
    const built = await chainWithBlocks(4);
    dev = built.dev;
    const chain = dev.service.chain;
    while (chain.readTips().finalized.block.number < 2) dev.advanceBlocks(1);
    const latest = chain.latestBlockNumber;
    const parts = { chain, clearPool: () => {}, isPending: () => false };
    expect(() => rollbackChain(parts, latest + 1, false)).toThrow(
      new RollbackRefusedError(`Cannot roll back to block ${latest + 1}: the chain's tip is block ${latest}`),
    );
    expect(() => rollbackChain(parts, 1, false)).toThrow(/before the finalized block \d+\. Pass force/);
    expect(rollbackChain(parts, latest, false)).toEqual({
      targetBlockNumber: latest,
      removedBlocks: 0,
      removedTxs: 0,
      returnedTxs: 0,
      rederived: false,
    });
    expect(chain.latestBlockNumber).toBe(latest);
  });

  it('with force below finality, clears world state and pool data and re-derives them from the stored blocks', async () => {
    const built = await chainWithBlocks(4);
    dev = built.dev;
    const chain = dev.service.chain;
    while (chain.readTips().finalized.block.number < 4) dev.advanceBlocks(1);
    const latest = chain.latestBlockNumber;
    let cleared = 0;
    const result = rollbackChain({ chain, clearPool: () => cleared++, isPending: () => false }, 2, true);
    expect(result).toMatchObject({ targetBlockNumber: 2, removedBlocks: latest - 2, returnedTxs: 0, rederived: true });
    expect(cleared).toBe(1);
    // Every kept block's state reads back as it was built: the trees were rebuilt block by block.
    for (const n of [0, 1, 2]) {
      expect(JSON.stringify(chain.worldState.getStateReference(n))).toBe(built.roots.get(n));
    }
    const tips = chain.readTips();
    expect(tips.proposed.number).toBe(2);
    expect(tips.finalized.block.number).toBeLessThanOrEqual(2);
    expect(chain.worldState.getSyncStatus().finalizedBlockNumber).toBe(tips.finalized.block.number);
    dev.advanceBlocks(3);
    expect(chain.latestBlockNumber).toBeGreaterThan(2);
  });

  it('is all or nothing: a failure inside the transaction leaves blocks, world state and tips as they were', async () => {
    const built = await chainWithBlocks(4);
    dev = built.dev;
    const chain = dev.service.chain;
    while (chain.readTips().finalized.block.number < 2) dev.advanceBlocks(1);
    const before = { tips: chain.readTips(), state: JSON.stringify(chain.worldState.getStateReference('latest')) };
    expect(() =>
      rollbackChain(
        {
          chain,
          clearPool: () => {
            throw new Error('disk full');
          },
          isPending: () => false,
        },
        1,
        true,
      ),
    ).toThrow('disk full');
    expect(chain.readTips()).toEqual(before.tips);
    expect(JSON.stringify(chain.worldState.getStateReference('latest'))).toBe(before.state);
    expect(chain.store.getBlock(before.tips.proposed.number)).toBeDefined();
  });
});
