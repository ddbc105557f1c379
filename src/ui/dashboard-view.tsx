import { Box } from 'ink';
import { BlockTracesPanel } from './block-traces-panel.js';
import { BlocksPanel } from './blocks-panel.js';
import type { DashboardState } from './dashboard-state.js';
import { type DashboardTab, FooterBar, type PendingConfirm } from './footer-bar.js';
import { HeaderBar } from './header-bar.js';
import { HelpPanel } from './help-panel.js';
import { L1Panel } from './l1-panel.js';
import { LogPanel } from './log-panel.js';
import { MempoolPanel } from './mempool-panel.js';
import { PeersPanel } from './peers-panel.js';
import { averageRate } from './rate-history.js';
import { RatesPanel } from './rates-panel.js';
import { SyncPanel } from './sync-panel.js';
import { TipsPanel } from './tips-panel.js';
import type { BlockTraces } from './tx-trace-summary.js';
import { ValidatorsPanel } from './validators-panel.js';

export interface DashboardViewProps {
  readonly state: DashboardState;
  /** Local time, ms. */
  readonly now: number;
  readonly tab: DashboardTab;
  /** The block the blocks view has selected, and the trace summaries asked of it (Enter). */
  readonly selectedBlock?: number;
  readonly blockTraces?: BlockTraces;
  readonly showHelp: boolean;
  readonly confirm: PendingConfirm | undefined;
  readonly keysEnabled: boolean;
  /** Terminal size; the layout fits in it. */
  readonly columns: number;
  readonly rows: number;
  /** What p acts on, for the question (the admin URL). */
  readonly target: string;
  /** False for the one frame of `--once`. */
  readonly live?: boolean;
}

/** At least this wide, panels sit side by side. */
const WIDE = 110;
const HEADER_ROWS = 4;
const FOOTER_ROWS = 1;
const TOP_ROW = 8;
const RATES_ROWS = 6;

/**
 * The whole screen for one state: header, the tab's panels, footer. Pure (no hooks), so `--once` renders it to a
 * string and tests render it with fixed sizes; the layout follows the terminal size it is given.
 */
export function DashboardView(props: DashboardViewProps) {
  const { state, now, tab, showHelp, confirm, keysEnabled, columns, rows, target, live } = props;
  const tracesRows = Math.min(12, Math.floor(bodyRowsOf(rows) / 2));
  const bodyRows = bodyRowsOf(rows);
  return (
    <Box flexDirection="column" width={columns}>
      <HeaderBar state={state} now={now} />
      <Box flexDirection="column" height={bodyRows} overflow="hidden">
        {showHelp ? (
          <HelpPanel keysEnabled={keysEnabled} />
        ) : tab === 'overview' ? (
          <Overview state={state} now={now} columns={columns} rows={bodyRows} />
        ) : tab === 'blocks' ? (
          <Box flexDirection="column">
            <Box height={bodyRows - tracesRows}>
              <BlocksPanel
                blocks={state.blocks}
                rows={bodyRows - tracesRows - 4}
                selected={props.selectedBlock}
                flexGrow={2}
                height={bodyRows - tracesRows}
              />
              {columns >= WIDE ? (
                <ValidatorsPanel
                  validators={state.validators}
                  rows={bodyRows - tracesRows - 6}
                  flexGrow={1}
                  height={bodyRows - tracesRows}
                />
              ) : null}
            </Box>
            <BlockTracesPanel traces={props.blockTraces} height={tracesRows} />
          </Box>
        ) : (
          <LogPanel lines={state.log} rows={bodyRows - 3} height={bodyRows} />
        )}
      </Box>
      <FooterBar view={tab} confirm={confirm} keysEnabled={keysEnabled} target={target} live={live} />
    </Box>
  );
}

function bodyRowsOf(rows: number): number {
  return Math.max(6, rows - HEADER_ROWS - FOOTER_ROWS);
}

function Overview({
  state,
  now,
  columns,
  rows,
}: {
  state: DashboardState;
  now: number;
  columns: number;
  rows: number;
}) {
  const wide = columns >= WIDE;
  // Side by side the panels share the row; stacked each takes the height it needs.
  const grow = wide ? 1 : undefined;
  const top = [
    <TipsPanel key="tips" tips={state.tips} sync={state.sync} flexGrow={grow} />,
    <SyncPanel
      key="sync"
      production={state.production}
      sync={state.sync}
      observedRate={averageRate(state.rates, now, 'blocks')}
      barWidth={Math.max(10, Math.floor(wide ? columns / 3 : columns) - 14)}
      flexGrow={grow}
    />,
    <MempoolPanel
      key="mempool"
      pool={state.pool}
      rates={{
        adds: averageRate(state.rates, now, 'adds'),
        drops: averageRate(state.rates, now, 'drops'),
        rejects: averageRate(state.rates, now, 'rejects'),
      }}
      flexGrow={grow}
    />,
  ];
  const l1 = state.l1;
  if (!wide) {
    // Narrow terminals: the essentials stacked; the other tabs hold the rest.
    const blocksRows = rows - (l1 ? 4 : 3) * 7;
    return (
      <Box flexDirection="column">
        {top[1]}
        {top[0]}
        {top[2]}
        {l1 ? <L1Panel l1={l1} /> : null}
        {blocksRows >= 5 ? <BlocksPanel blocks={state.blocks} rows={blocksRows - 4} height={blocksRows} /> : null}
      </Box>
    );
  }
  const rest = rows - TOP_ROW - RATES_ROWS;
  const withLog = rest >= 12;
  const middle = withLog ? Math.max(7, Math.ceil(rest * 0.55)) : Math.max(0, rest);
  const seconds = Math.min(120, Math.max(10, columns - 26));
  return (
    <Box flexDirection="column">
      <Box height={TOP_ROW}>{top}</Box>
      {middle >= 5 ? (
        <Box height={middle}>
          <BlocksPanel blocks={state.blocks} rows={middle - 4} flexGrow={3} height={middle} />
          {l1 ? <L1Panel l1={l1} flexGrow={3} height={middle} /> : null}
          <ValidatorsPanel validators={state.validators} rows={middle - 6} flexGrow={2} height={middle} />
          {state.peers ? <PeersPanel peers={state.peers} rows={middle - 3} flexGrow={2} height={middle} /> : null}
        </Box>
      ) : null}
      <RatesPanel rates={state.rates} now={now} seconds={seconds} />
      {withLog ? <LogPanel lines={state.log} rows={rest - middle - 3} height={rest - middle} /> : null}
    </Box>
  );
}
