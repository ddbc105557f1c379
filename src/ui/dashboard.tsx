import { useApp, useInput, useStdin, useWindowSize } from 'ink';
import { useCallback, useEffect, useReducer, useState } from 'react';
import type { EventStreamState } from '../rpc/client/event-stream-client.js';
import type { NodeStreamEvent } from '../rpc/node-stream-event.js';
import { initialDashboardState, pausedByOperator, reduceDashboard } from './dashboard-state.js';
import { DashboardView } from './dashboard-view.js';
import { DASHBOARD_TABS, type DashboardTab, type PendingConfirm } from './footer-bar.js';
import type { PeerRow } from './peers-panel.js';
import type { BlockTraces, TxTraceSummary } from './tx-trace-summary.js';

/** Where the dashboard's events come from: the admin event stream client (src/rpc/client/event-stream-client.ts). */
export interface DashboardSource {
  readonly url: string;
  onEvent(listener: (event: NodeStreamEvent) => void): () => void;
  onState(listener: (state: EventStreamState) => void): () => void;
  start(): void;
  close(): void;
}

/** What the keys do on the node, through the admin RPC client. */
export interface DashboardActions {
  pauseSync(): Promise<unknown>;
  resumeSync(): Promise<unknown>;
  /** The trace summaries of a block's txs (nodeDev_traceTx of each), asked for with Enter in the blocks view. */
  blockTraces(blockNumber: number): Promise<readonly TxTraceSummary[]>;
}

export interface DashboardProps {
  readonly source: DashboardSource;
  readonly actions: DashboardActions;
  /** What p acts on, named in the question (the admin URL). */
  readonly target: string;
  /** Local clock, ms (tests pass their own). */
  readonly now?: () => number;
  /** How often the uptime and the rates redraw without an event (default 1 s). */
  readonly tickMs?: number;
  /** A fixed size instead of the terminal's (tests). */
  readonly size?: { readonly columns: number; readonly rows: number };
  /** The node's peers (nodeAdmin_getPeers), polled every `peersPollMs`; without it there is no peers panel. */
  readonly peers?: () => Promise<readonly PeerRow[]>;
  /** Default 2 s. */
  readonly peersPollMs?: number;
}

/**
 * `l2node dashboard`: a live view of a node over its admin event stream. Keys: q quits, p pauses or resumes
 * sync after a y/n question, Tab switches the tab, ? shows the help; in the blocks view the arrow keys select a
 * block and Enter traces its txs (calls, gas, revert). Without a terminal on stdin the keys are
 * off (ink cannot read them without raw mode) and the view still runs.
 */
export function Dashboard({
  source,
  actions,
  target,
  now = Date.now,
  tickMs = 1000,
  size,
  peers,
  peersPollMs = 2000,
}: DashboardProps) {
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const terminal = useWindowSize();
  const { columns, rows } = size ?? terminal;
  const [state, dispatch] = useReducer(reduceDashboard, source.url, initialDashboardState);
  const [clock, setClock] = useState(now);
  const [tab, setTab] = useState<DashboardTab>('overview');
  const [help, setHelp] = useState(false);
  const [confirm, setConfirm] = useState<PendingConfirm | undefined>();
  /** The block the blocks view has selected (undefined: the newest), and the traces asked of it. */
  const [selected, setSelected] = useState<number | undefined>();
  const [traces, setTraces] = useState<BlockTraces | undefined>();
  const keysEnabled = isRawModeSupported === true;

  useEffect(() => {
    const offEvent = source.onEvent((event) => dispatch({ kind: 'event', event, at: now() }));
    const offState = source.onState((s) => dispatch({ kind: 'connection', state: s, at: now() }));
    source.start();
    return () => {
      offEvent();
      offState();
      source.close();
    };
  }, [source, now]);

  useEffect(() => {
    const timer = setInterval(() => setClock(now()), tickMs);
    return () => clearInterval(timer);
  }, [now, tickMs]);

  useEffect(() => {
    if (!peers) return;
    let stopped = false;
    // One call at a time: a slow node is not asked again before it answered.
    const poll = async () => {
      try {
        const list = await peers();
        if (!stopped) dispatch({ kind: 'peers', peers: list });
      } catch {
        // The connection state and the event stream say when the node is unreachable.
      }
      if (!stopped) timer = setTimeout(poll, peersPollMs);
    };
    let timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [peers, peersPollMs]);

  const note = useCallback(
    (level: 'info' | 'warn' | 'error', text: string) => dispatch({ kind: 'note', level, text, at: now() }),
    [now],
  );

  const run = useCallback(
    (what: PendingConfirm) => {
      const method = what === 'pause' ? 'nodeAdmin_pauseSync' : 'nodeAdmin_resumeSync';
      note('info', `${method} sent to ${target}`);
      (what === 'pause' ? actions.pauseSync() : actions.resumeSync()).then(
        () => note('info', `${method} done`),
        (err: unknown) => note('error', `${method} failed: ${err instanceof Error ? err.message : String(err)}`),
      );
    },
    [actions, note, target],
  );

  const traceBlock = useCallback(
    (blockNumber: number) => {
      setTraces({ blockNumber, status: 'loading' });
      actions.blockTraces(blockNumber).then(
        (txs) => setTraces((t) => (t?.blockNumber === blockNumber ? { blockNumber, status: 'done', txs } : t)),
        (err: unknown) => {
          const error = err instanceof Error ? err.message : String(err);
          setTraces((t) => (t?.blockNumber === blockNumber ? { blockNumber, status: 'failed', error } : t));
        },
      );
    },
    [actions],
  );

  /** Moves the selection by `step` blocks (up is newer), within the blocks the view holds. */
  const select = (step: number) => {
    const numbers = state.blocks.map((b) => b.number);
    if (numbers.length === 0) return;
    const at = selected === undefined ? numbers.length - 1 : Math.max(0, numbers.indexOf(selected));
    setSelected(numbers[Math.min(numbers.length - 1, Math.max(0, at + step))]);
  };

  useInput(
    (input, key) => {
      if (confirm) {
        if (input === 'y' || input === 'Y') {
          setConfirm(undefined);
          run(confirm);
        } else if (input === 'n' || input === 'N' || key.escape || input === 'q') {
          setConfirm(undefined);
          note('info', `${confirm} cancelled`);
        }
        return;
      }
      if (input === 'q') exit();
      else if (input === '?') setHelp((h) => !h);
      else if (key.escape && help) setHelp(false);
      else if (key.tab) {
        const step = key.shift ? -1 : 1;
        setTab(
          (t) =>
            DASHBOARD_TABS[
              (DASHBOARD_TABS.indexOf(t) + step + DASHBOARD_TABS.length) % DASHBOARD_TABS.length
            ] as DashboardTab,
        );
        setHelp(false);
      } else if (tab === 'blocks' && (key.upArrow || key.downArrow)) {
        select(key.upArrow ? 1 : -1);
      } else if (tab === 'blocks' && key.return) {
        const blockNumber = selected ?? state.blocks.at(-1)?.number;
        if (blockNumber !== undefined) traceBlock(blockNumber);
      } else if (input === 'p') {
        if (!state.production || state.connection.status !== 'open')
          note('warn', 'not connected to the node: p needs a live connection');
        else setConfirm(pausedByOperator(state) ? 'resume' : 'pause');
      }
    },
    { isActive: keysEnabled },
  );

  return (
    <DashboardView
      state={state}
      now={clock}
      tab={tab}
      selectedBlock={selected ?? state.blocks.at(-1)?.number}
      blockTraces={traces}
      showHelp={help}
      confirm={confirm}
      keysEnabled={keysEnabled}
      columns={columns}
      rows={rows}
      target={target}
    />
  );
}
