import { PassThrough } from 'node:stream';
import { render as renderInk } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventStreamState } from '../../src/rpc/client/event-stream-client.js';
import type { NodeStreamEvent } from '../../src/rpc/node-stream-event.js';
import { Dashboard, type DashboardActions, type DashboardSource } from '../../src/ui/dashboard.js';
import type { TxTraceSummary } from '../../src/ui/tx-trace-summary.js';
import { waitForFrame } from '../helpers/ink-frames.js';
import { blockEvent, proposalTx, sampleL1, sampleSnapshot, T0 } from '../helpers/stream-fixtures.js';

/** The dashboard app with a source and actions the test drives: what the keys do and what the screen says. */
const URL = 'ws://127.0.0.1:8880/events';
const ADMIN = 'http://127.0.0.1:8880';

class TestSource implements DashboardSource {
  readonly url = URL;
  readonly events = new Set<(e: NodeStreamEvent) => void>();
  readonly states = new Set<(s: EventStreamState) => void>();
  started = 0;
  closed = 0;
  onEvent(l: (e: NodeStreamEvent) => void) {
    this.events.add(l);
    return () => this.events.delete(l);
  }
  onState(l: (s: EventStreamState) => void) {
    this.states.add(l);
    return () => this.states.delete(l);
  }
  start() {
    this.started++;
  }
  close() {
    this.closed++;
  }
  push(e: NodeStreamEvent) {
    for (const l of this.events) l(e);
  }
  state(s: EventStreamState) {
    for (const l of this.states) l(s);
  }
  /** Connected, with the sample node. */
  connect() {
    this.state({ status: 'open', url: URL });
    this.push(sampleSnapshot());
  }
}

class TestActions implements DashboardActions {
  readonly calls: string[] = [];
  fail: string | undefined;
  async pauseSync() {
    this.calls.push('pause');
    if (this.fail) throw new Error(this.fail);
  }
  async resumeSync() {
    this.calls.push('resume');
  }
  async blockTraces(blockNumber: number): Promise<readonly TxTraceSummary[]> {
    this.calls.push(`traces ${blockNumber}`);
    return [
      { txHash: `0x${'ab'.repeat(32)}`, executionResult: 'success', calls: 3, l2Gas: 123_456, daGas: 2048 },
      {
        txHash: `0x${'cd'.repeat(32)}`,
        executionResult: 'app_logic_reverted',
        calls: 1,
        l2Gas: 9_000,
        daGas: 512,
        revert: 'Assertion failed: attempt to subtract with overflow (in transfer_in_public)',
      },
    ];
  }
}

const clock = T0;
const now = () => clock;
const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const u of unmounts.splice(0)) u();
});

function mount(size = { columns: 120, rows: 40 }) {
  const source = new TestSource();
  const actions = new TestActions();
  const app = render(<Dashboard source={source} actions={actions} target={ADMIN} now={now} size={size} />);
  unmounts.push(app.unmount);
  return { source, actions, ...app };
}

const paused = {
  type: 'paused',
  at: T0 + 10,
  production: { state: 'paused', producer: 'sequencer', pausedBy: ['operator'], blockNumber: 12 },
} as const satisfies NodeStreamEvent;

describe('Dashboard', () => {
  it('polls the peers and shows them in a peers panel, the lowest score first, updated as they change', async () => {
    const source = new TestSource();
    let answer = [
      {
        id: '16Uiu2HAmAAAAAAaaaaa1',
        direction: 'outbound',
        score: 0,
        gossipScore: 0,
        status: { latestBlockNumber: 12 },
      },
      { id: '16Uiu2HAmBBBBBBbbbbb2', direction: 'inbound', score: -12.5, gossipScore: -20 },
    ];
    let calls = 0;
    const peers = async () => {
      calls++;
      return answer;
    };
    const app = render(
      <Dashboard
        source={source}
        actions={new TestActions()}
        target={ADMIN}
        now={now}
        size={{ columns: 160, rows: 40 }}
        peers={peers}
        peersPollMs={20}
      />,
    );
    unmounts.push(app.unmount);
    source.connect();
    const text = await waitForFrame(app.lastFrame, (t) => t.includes('Peers (2)'), 'the peers panel');
    expect(text).toMatch(/…bbbbb2 in +-12\.5 +-20 --/);
    expect(text).toMatch(/…aaaaa1 out +0 +0 12/);
    expect(text.indexOf('bbbbb2')).toBeLessThan(text.indexOf('aaaaa1'));
    answer = [];
    await waitForFrame(app.lastFrame, (t) => t.includes('no peers'), 'the peers gone');
    expect(calls).toBeGreaterThan(1);
  });

  it('starts its source, draws the snapshot, and follows new blocks', async () => {
    const { source, lastFrame } = mount();
    expect(source.started).toBe(1);
    await waitForFrame(lastFrame, (t) => t.includes('connecting to'), 'the connecting line');
    source.connect();
    await waitForFrame(lastFrame, (t) => t.includes(' SYNCED ') && /proposed\s+12/.test(t), 'the snapshot');
    source.push(blockEvent(13, T0 + 1000, { txCount: 2 }));
    source.push({
      type: 'tips',
      at: T0 + 1000,
      tips: { ...sampleSnapshot().tips, proposed: { number: 13, hash: '0x0d' } },
    });
    const text = await waitForFrame(lastFrame, (t) => /proposed\s+13/.test(t), 'block 13');
    expect(text).toMatch(/13\s+0x0000…000d\s+2/);
    expect(text).toContain('block 13 0x000000…00000d: 2 txs');
  });

  it('p asks first; y pauses through the admin API; n cancels; when paused, p offers to resume', async () => {
    const { source, actions, stdin, lastFrame } = mount();
    source.connect();
    await waitForFrame(lastFrame, (t) => t.includes(' SYNCED '), 'the snapshot');
    stdin.write('p');
    await waitForFrame(lastFrame, (t) => t.includes(`Pause sync of ${ADMIN}? (y/n)`), 'the question');
    stdin.write('n');
    await waitForFrame(lastFrame, (t) => t.includes('pause cancelled'), 'the cancellation');
    expect(actions.calls).toEqual([]);

    stdin.write('p');
    await waitForFrame(lastFrame, (t) => t.includes('(y/n)'), 'the question again');
    stdin.write('y');
    await waitForFrame(lastFrame, (t) => t.includes('nodeAdmin_pauseSync done'), 'the call');
    expect(actions.calls).toEqual(['pause']);
    source.push(paused);
    await waitForFrame(lastFrame, (t) => t.includes(' PAUSED ') && t.includes('paused by operator'), 'PAUSED');

    stdin.write('p');
    await waitForFrame(lastFrame, (t) => t.includes(`Resume sync of ${ADMIN}? (y/n)`), 'the resume question');
    stdin.write('y');
    await waitForFrame(lastFrame, (t) => t.includes('nodeAdmin_resumeSync done'), 'the resume call');
    expect(actions.calls).toEqual(['pause', 'resume']);
  });

  it('shows a failed call in the log, and refuses p while disconnected', async () => {
    const { source, actions, stdin, lastFrame } = mount();
    stdin.write('p');
    await waitForFrame(lastFrame, (t) => t.includes('not connected to the node'), 'the refusal');
    source.connect();
    await waitForFrame(lastFrame, (t) => t.includes(' SYNCED '), 'the snapshot');
    actions.fail = 'nodeAdmin_pauseSync failed: the node is stopping';
    stdin.write('p');
    await waitForFrame(lastFrame, (t) => t.includes('(y/n)'), 'the question');
    stdin.write('y');
    await waitForFrame(
      lastFrame,
      (t) => t.includes('failed: nodeAdmin_pauseSync failed: the node is stopping'),
      'the error',
    );
  });

  it('Tab cycles the overview, blocks and events tabs; ? toggles the help', async () => {
    const { source, stdin, lastFrame } = mount();
    source.connect();
    await waitForFrame(lastFrame, (t) => t.includes('[overview]'), 'the overview');
    stdin.write('\t');
    let text = await waitForFrame(lastFrame, (t) => t.includes('[blocks]'), 'the blocks tab');
    expect(text).not.toContain('Mempool');
    stdin.write('\t');
    text = await waitForFrame(lastFrame, (t) => t.includes('[events]'), 'the events tab');
    expect(text).toContain('connected: l2node 0.1.0 (dev) at block 12, synced');
    stdin.write('?');
    await waitForFrame(lastFrame, (t) => t.includes('pause or resume sync (asks y/n'), 'the help');
    stdin.write('?');
    await waitForFrame(lastFrame, (t) => !t.includes('Ctrl+C  quit'), 'the help closed');
    stdin.write('\t');
    await waitForFrame(lastFrame, (t) => t.includes('[overview]'), 'back to the overview');
  });

  it('the blocks view: arrows select a block, Enter shows its txs trace summaries (calls, gas, revert)', async () => {
    const { source, actions, stdin, lastFrame } = mount();
    source.connect();
    source.push(blockEvent(13, T0 + 1));
    source.push(blockEvent(14, T0 + 2));
    await waitForFrame(lastFrame, (t) => t.includes('[overview]'), 'the overview');
    stdin.write('\t');
    await waitForFrame(lastFrame, (t) => t.includes('>14'), 'the newest block selected');
    stdin.write('\u001B[B');
    await waitForFrame(lastFrame, (t) => t.includes('>13'), 'the block before selected');
    stdin.write('\r');
    const text = await waitForFrame(lastFrame, (t) => t.includes('reverted: Assertion failed'), 'the traces');
    expect(actions.calls).toEqual(['traces 13']);
    expect(text).toContain('Traces of block 13');
    expect(text).toMatch(/3 calls\s+L2 123[,.]?456\s+DA 2[,.]?048\s+success/);
    expect(text).toContain('in transfer_in_public');
  });

  it('says it is reconnecting, with the attempt, and redraws from the new snapshot', async () => {
    const { source, lastFrame } = mount();
    source.connect();
    await waitForFrame(lastFrame, (t) => t.includes(' SYNCED '), 'the snapshot');
    source.state({ status: 'reconnecting', url: URL, attempt: 2, delayMs: 500, reason: 'ECONNREFUSED' });
    await waitForFrame(
      lastFrame,
      (t) => t.includes(`reconnecting to ${URL} (attempt 2, in 500 ms): ECONNREFUSED`) && t.includes('DISCONNECTED'),
      'the reconnecting line',
    );
    source.state({ status: 'open', url: URL });
    source.push(sampleSnapshot({ tips: { ...sampleSnapshot().tips, proposed: { number: 3, hash: '0x03' } } }));
    await waitForFrame(lastFrame, (t) => /proposed\s+3\s/.test(t) && t.includes(' SYNCED '), 'the new snapshot');
  });

  it('fits the layout to the terminal size: side by side when wide, stacked when narrow', async () => {
    const wide = mount({ columns: 120, rows: 40 });
    wide.source.connect();
    const w = await waitForFrame(wide.lastFrame, (t) => t.includes('Mempool'), 'the wide layout');
    expect(w.split('\n').find((l) => l.includes('L2 tips'))).toMatch(/L2 tips.*Sync.*Mempool/);
    expect(w.split('\n').length).toBeLessThanOrEqual(40);
    expect(Math.max(...w.split('\n').map((l) => l.length))).toBeLessThanOrEqual(120);

    const narrow = mount({ columns: 70, rows: 45 });
    narrow.source.connect();
    const n = await waitForFrame(narrow.lastFrame, (t) => t.includes('Mempool'), 'the narrow layout');
    expect(n.split('\n').find((l) => l.includes('L2 tips'))).not.toContain('Mempool');
    expect(Math.max(...n.split('\n').map((l) => l.length))).toBeLessThanOrEqual(70);
    expect(n.split('\n').length).toBeLessThanOrEqual(45);
  });

  it('shows no L1 panel for a node without an L1', async () => {
    const { source, lastFrame } = mount();
    source.connect();
    const text = await waitForFrame(
      lastFrame,
      (t) => t.includes(' SYNCED ') && t.includes('Recent blocks'),
      'the snapshot',
    );
    expect(text).not.toMatch(/╭─*\s*L1\b|│ L1 /);
    expect(text).not.toContain('rollup 0x');
  });

  it("shows the node's L1, follows its polls, and logs a failed proposal and a publisher low on ETH", async () => {
    const { source, lastFrame } = mount({ columns: 120, rows: 44 });
    source.state({ status: 'open', url: URL });
    source.push(sampleSnapshot({ l1: sampleL1() }));
    let text = await waitForFrame(lastFrame, (t) => t.includes('● reachable'), 'the L1 panel');
    expect(text).toContain('chain 31337 · block 1,234');
    expect(text).toContain('rollup 0x5fbdb2…180aa3');
    expect(text).toContain('proposal: --');

    source.push({ type: 'l1', at: T0 + 1000, l1: sampleL1({ blockNumber: 1240, lastProposal: proposalTx(12, 1239) }) });
    text = await waitForFrame(lastFrame, (t) => t.includes('block 1,240'), 'the next poll');
    expect(text).toContain('proposal: checkpoint 12 in L1 block 1239');
    expect(text).toContain('L1 proposal: checkpoint 12 in L1 block 1239');

    const failed = proposalTx(13, 0, { ok: false, l1BlockNumber: undefined, error: 'insufficient funds for gas' });
    source.push({
      type: 'l1',
      at: T0 + 2000,
      l1: sampleL1({
        blockNumber: 1243,
        publisher: { ...sampleL1().publisher, balanceWei: '1000000000000000', lowBalance: true },
        lastProposal: failed,
      }),
    });
    text = await waitForFrame(lastFrame, (t) => t.includes('block 1,243'), 'the low balance');
    expect(text).toContain('0.001 ETH LOW');
    expect(text).toContain('L1 publisher low on ETH: 0.001 ETH');
    expect(text).toContain('L1 proposal: checkpoint 13 FAILED');
    source.push({ type: 'l1', at: T0 + 3000, l1: sampleL1({ blockNumber: 1246, lastProposal: failed }) });
    text = await waitForFrame(lastFrame, (t) => t.includes('block 1,246'), 'the funded publisher');
    expect(text).toContain('L1 publisher funded again: 9999.9861 ETH');
    // A failed proposal is logged once, not once per poll.
    expect(text.match(/checkpoint 13 FAILED/g)).toHaveLength(2);
  });

  it('q quits and closes its source', async () => {
    const { source, stdin, lastFrame, frames } = mount();
    source.connect();
    await waitForFrame(lastFrame, (t) => t.includes(' SYNCED '), 'the snapshot');
    stdin.write('q');
    const deadline = Date.now() + 5000;
    while (source.closed === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(source.closed).toBe(1);
    expect(frames.length).toBeGreaterThan(0);
  });

  it('runs without a terminal on stdin: keys are off, nothing throws', async () => {
    const source = new TestSource();
    const out = Object.assign(new PassThrough(), { columns: 120, rows: 40 });
    let written = '';
    out.on('data', (c: Buffer) => {
      written += c.toString();
    });
    const app = renderInk(
      <Dashboard
        source={source}
        actions={new TestActions()}
        target={ADMIN}
        now={now}
        size={{ columns: 120, rows: 40 }}
      />,
      {
        stdin: new PassThrough() as unknown as NodeJS.ReadStream,
        stdout: out as unknown as NodeJS.WriteStream,
        debug: true,
        patchConsole: false,
      },
    );
    unmounts.push(app.unmount);
    await waitForFrame(
      () => written,
      (t) => t.includes('stdin is not a terminal: keys are off'),
      'the keys-off footer',
    );
    source.connect();
    await waitForFrame(
      () => written,
      (t) => t.includes(' SYNCED '),
      'the snapshot',
    );
  });
});
