import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { type DashboardState, initialDashboardState, reduceDashboard } from '../../src/ui/dashboard-state.js';
import { HeaderBar } from '../../src/ui/header-bar.js';
import { plain } from '../helpers/ink-frames.js';
import { sampleSnapshot, T0 } from '../helpers/stream-fixtures.js';

const URL = 'ws://127.0.0.1:8880/events';

function connected(overrides: Parameters<typeof sampleSnapshot>[0] = {}): DashboardState {
  let s = initialDashboardState(URL);
  s = reduceDashboard(s, { kind: 'connection', state: { status: 'open', url: URL }, at: T0 });
  return reduceDashboard(s, { kind: 'event', event: sampleSnapshot(overrides), at: T0 });
}

describe('HeaderBar', () => {
  it('shows identity, uptime from the node start (node clock) and the sync badge', () => {
    const { lastFrame } = render(<HeaderBar state={connected()} now={T0 + 5000} />);
    const text = plain(lastFrame());
    expect(text).toContain('l2node 0.1.0 · dev chain · L1 chain 31337 · rollup 1');
    // started 1h02m03s before the snapshot, seen 5 s later
    expect(text).toContain('uptime 1h02m08s');
    expect(text).toContain(' SYNCED ');
    expect(text).toContain(`● connected to ${URL}`);
  });

  it('names a follower and its upstream, and shows PAUSED while paused', () => {
    const state = connected({
      node: { ...sampleSnapshot().node, mode: 'follower', upstream: 'http://leader:8080' },
      production: { state: 'paused', producer: 'upstream', pausedBy: ['operator'], blockNumber: 12 },
    });
    const text = plain(render(<HeaderBar state={state} now={T0} />).lastFrame());
    expect(text).toContain('follower of http://leader:8080');
    expect(text).toContain(' PAUSED ');
  });

  it('says it is reconnecting, with the attempt, and stops claiming an uptime or a sync state', () => {
    const state = reduceDashboard(connected(), {
      kind: 'connection',
      state: { status: 'reconnecting', url: URL, attempt: 3, delayMs: 1000, reason: 'ECONNREFUSED' },
      at: T0 + 1000,
    });
    const text = plain(render(<HeaderBar state={state} now={T0 + 1000} />).lastFrame());
    expect(text).toContain(`reconnecting to ${URL} (attempt 3, in 1 s): ECONNREFUSED`);
    expect(text).toContain(' DISCONNECTED ');
    expect(text).toContain('uptime --');
    expect(text).not.toContain('unknown');
  });

  it('tells how to fix a refused key', () => {
    const state = reduceDashboard(initialDashboardState(URL), {
      kind: 'connection',
      state: { status: 'unauthorized', url: URL, reason: `${URL} refused the admin API key (HTTP 401: wrong key)` },
      at: T0,
    });
    const text = plain(render(<HeaderBar state={state} now={T0} />).lastFrame());
    expect(text).toContain(`✗ ${URL} refused the API key: run l2node admin login, or pass --api-key`);
    expect(state.log.at(-1)?.text).toContain('HTTP 401: wrong key');
    expect(text).toContain(' UNAUTHORIZED ');
  });
});
