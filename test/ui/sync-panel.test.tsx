import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { StreamProduction } from '../../src/rpc/node-stream-event.js';
import { SyncPanel } from '../../src/ui/sync-panel.js';
import { plain } from '../helpers/ink-frames.js';

const synced: StreamProduction = { state: 'synced', producer: 'sequencer', pausedBy: [], blockNumber: 42 };
const following: StreamProduction = { state: 'syncing', producer: 'upstream', pausedBy: [], blockNumber: 1200 };

describe('SyncPanel', () => {
  it('shows a dev node at its own tip, full bar, the observed rate and ETA --', () => {
    const text = plain(render(<SyncPanel production={synced} observedRate={2} barWidth={20} />).lastFrame());
    expect(text).toContain('sequencer · synced');
    expect(text).toContain(`${'█'.repeat(20)} 100.0%`);
    expect(text).toContain('block 42 · at its own tip');
    expect(text).toContain('rate 2.0 blocks/s · ETA --');
  });

  it("shows a follower's progress bar, target, distance, rate and ETA", () => {
    const sync = {
      state: 'syncing',
      upstream: 'http://leader:8080',
      blockNumber: 1200,
      targetBlockNumber: 2000,
      behind: 800,
      percent: 60,
      blocksPerSecond: 350.2,
      etaSeconds: 150,
    };
    const text = plain(
      render(<SyncPanel production={following} sync={sync} observedRate={1} barWidth={20} />).lastFrame(),
    );
    expect(text).toContain('from http://leader:8080 · syncing');
    expect(text).toContain(`${'█'.repeat(12)}${'░'.repeat(8)} 60.0%`);
    expect(text).toContain('block 1,200 of 2,000 · 800 behind');
    expect(text).toContain('rate 350 blocks/s · ETA 2m30s');
  });

  it('never says unknown: a follower that has not polled yet shows --', () => {
    const sync = { state: 'starting', upstream: 'http://leader:8080', blockNumber: 0 };
    const text = plain(
      render(<SyncPanel production={following} sync={sync} observedRate={undefined} barWidth={10} />).lastFrame(),
    );
    expect(text).toContain('block 0 of --');
    expect(text).toContain('rate -- blocks/s · ETA --');
    expect(text).toContain(`${'░'.repeat(10)} --`);
    expect(text).not.toMatch(/unknown|undefined|NaN/);
  });

  it('says who paused it, and shows a refused block in full', () => {
    const paused = { ...following, state: 'paused' as const, pausedBy: ['operator', 'snapshot'] };
    const sync = {
      state: 'refused',
      upstream: 'http://leader:8080',
      blockNumber: 7,
      problem: { subject: 'block 8', message: 'note hash tree root mismatch', since: '2026-01-01T00:00:00Z' },
    };
    const text = plain(
      render(<SyncPanel production={paused} sync={sync} observedRate={undefined} barWidth={10} />).lastFrame(),
    );
    expect(text).toContain('paused by operator, snapshot');
    expect(text).toContain('block 8: note hash tree root mismatch');
  });
});
