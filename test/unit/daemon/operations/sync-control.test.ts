import { describe, expect, it } from 'vitest';
import type { BlockProducer } from '../../../../src/daemon/chain/block-producer.js';
import { productionStatus } from '../../../../src/daemon/operations/production-status.js';
import { SyncControl } from '../../../../src/daemon/operations/sync-control.js';

class FakeProducer implements BlockProducer {
  readonly name = 'fake';
  paused = false;
  pauses = 0;
  resumes = 0;
  target: number | undefined;

  async pause(): Promise<void> {
    this.pauses++;
    this.paused = true;
  }

  resume(): void {
    this.resumes++;
    this.paused = false;
  }

  syncTarget(): number | undefined {
    return this.target;
  }
}

describe('SyncControl', () => {
  it('pauses at the first hold and resumes only when the last is released', async () => {
    const producer = new FakeProducer();
    let changes = 0;
    const sync = new SyncControl(producer, () => changes++);
    await sync.hold('operator');
    await sync.hold('operator');
    await sync.hold('rollback');
    expect(sync.pausedBy).toEqual(['operator', 'rollback']);
    sync.release('operator');
    expect(producer.paused).toBe(true);
    expect(sync.pausedBy).toEqual(['rollback']);
    sync.release('rollback');
    expect(producer.paused).toBe(false);
    expect(producer.resumes).toBe(1);
    // Releasing what is not held does nothing.
    sync.release('snapshot');
    expect(producer.resumes).toBe(1);
    expect(changes).toBe(4);
  });

  it('counts overlapping holds of one kind (two snapshots copying, say)', async () => {
    const producer = new FakeProducer();
    const sync = new SyncControl(producer);
    await sync.hold('snapshot');
    await sync.hold('snapshot');
    sync.release('snapshot');
    expect(producer.paused).toBe(true);
    sync.release('snapshot');
    expect(producer.paused).toBe(false);
  });
});

describe('productionStatus', () => {
  const producer = new FakeProducer();
  const base = { producer, pausedBy: [], blockNumber: 10 } as const;

  it('follows the lifecycle, then paused, syncing with the distance, or synced', () => {
    expect(productionStatus({ ...base, nodeState: 'starting' }).state).toBe('starting');
    expect(productionStatus({ ...base, nodeState: 'stopping' }).state).toBe('stopping');
    expect(productionStatus({ ...base, nodeState: 'running', pausedBy: ['snapshot'] })).toMatchObject({
      state: 'paused',
      pausedBy: ['snapshot'],
    });
    producer.target = 15;
    expect(productionStatus({ ...base, nodeState: 'running' })).toMatchObject({
      state: 'syncing',
      target: 15,
      distance: 5,
    });
    producer.target = 10;
    expect(productionStatus({ ...base, nodeState: 'running' })).toMatchObject({ state: 'synced', distance: 0 });
    producer.target = undefined;
    expect(productionStatus({ ...base, nodeState: 'running' })).toEqual({
      state: 'synced',
      producer: 'fake',
      pausedBy: [],
      blockNumber: 10,
    });
  });
});
