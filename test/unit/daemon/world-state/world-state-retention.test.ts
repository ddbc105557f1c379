import { afterEach, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from '../chain/dev-chain-fixture.js';

let dev: DevChain | undefined;
afterEach(async () => {
  await dev?.close();
  dev = undefined;
});

describe('world-state retention (--world-state-history-blocks)', () => {
  it('keeps every block by default in dev mode', async () => {
    dev = await startDevChain({ 'min-txs-per-block': '0', 'proof-delay': '0', 'finality-delay': '0' });
    dev.advanceBlocks(12);
    const ws = dev.service.worldState;
    expect(ws.latestBlockNumber).toBeGreaterThan(5);
    expect(ws.getSyncStatus().finalizedBlockNumber).toBeGreaterThan(2);
    expect(ws.getSyncStatus().oldestHistoricBlockNumber).toBe(0);
    expect(() => ws.getStateReference(1)).not.toThrow();
  });

  it('prunes finalized history past the window, and a read there names the oldest block left', async () => {
    dev = await startDevChain({
      'world-state-history-blocks': '3',
      'min-txs-per-block': '0',
      'proof-delay': '0',
      'finality-delay': '0',
    });
    dev.advanceBlocks(12);
    const ws = dev.service.worldState;
    const status = ws.getSyncStatus();
    expect(status.finalizedBlockNumber).toBeGreaterThan(4);
    expect(status.oldestHistoricBlockNumber).toBeGreaterThan(0);
    expect(() => ws.getStateReference(status.oldestHistoricBlockNumber)).not.toThrow();
    expect(() => ws.getStateReference(status.oldestHistoricBlockNumber - 1)).toThrow(
      new RegExp(`oldest available block is ${status.oldestHistoricBlockNumber}`),
    );
  });
});
