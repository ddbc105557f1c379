/** `--sequencer-mode instant` (the default): a block as soon as a tx is pending, checkpointed and proven at once. */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import { type DevChain, startDevChain } from './dev-chain-fixture.js';

let dev: DevChain | undefined;
afterEach(async () => {
  await dev?.close();
  dev = undefined;
});

describe('instant sequencer', () => {
  it('is the default mode', () => {
    expect(resolveConfig({}, {}).config.sequencerMode).toBe('instant');
  });

  it('builds each tx into its own checkpointed block at once, taking the next slot when the current one is used', async () => {
    dev = await startDevChain({ 'sequencer-mode': 'instant', 'proof-delay': '1', 'finality-delay': '1' });
    const { service, source } = dev;
    // The pool is polled on the clock; a tx arriving is built at the next tick (the node's pool also notifies).
    source.add(dev.tx());
    dev.clock.advance(100);
    let tips = service.chain.readTips();
    expect(tips.proposed.number).toBe(1);
    expect(tips.checkpointed.block.number).toBe(1);
    expect(tips.proven.block.number).toBe(0);
    const slot1 = service.chain.store.getBlock(1)?.slot ?? -1;
    expect(slot1).toBe(service.slots.currentSlot());

    // A second tx within the same slot does not wait for the next one: it goes ahead of the wall clock.
    source.add(dev.tx());
    dev.clock.advance(100);
    tips = service.chain.readTips();
    expect(tips.checkpointed.block.number).toBe(2);
    expect(tips.checkpointed.checkpoint.number).toBe(2);
    expect(service.chain.store.getBlock(2)?.slot).toBe(slot1 + 1);

    // Proven proof-delay after publication, finalized finality-delay after that, whatever the epoch.
    dev.clock.advance(1_000);
    tips = service.chain.readTips();
    expect(tips.proven).toEqual(tips.checkpointed);
    expect(tips.finalized.block.number).toBe(0);
    dev.clock.advance(1_000);
    expect(service.chain.readTips().finalized).toEqual(tips.checkpointed);
  });

  it('builds nothing while the pool is empty', async () => {
    dev = await startDevChain({ 'sequencer-mode': 'instant' });
    dev.clock.advance(20_000);
    expect(dev.service.chain.latestBlockNumber).toBe(0);
  });
});
