import { Flags } from '@oclif/core';
import { render, renderToString } from 'ink';
import { EventStreamClient, eventStreamUrl, readSnapshot } from '../rpc/client/event-stream-client.js';
import { RpcClientError } from '../rpc/client/rpc-client-error.js';
import type { SnapshotEvent } from '../rpc/node-stream-event.js';
import { Dashboard as DashboardApp } from '../ui/dashboard.js';
import { initialDashboardState, reduceDashboard } from '../ui/dashboard-state.js';
import { DashboardView } from '../ui/dashboard-view.js';
import { summarizeTrace, type TxTraceSummary } from '../ui/tx-trace-summary.js';
import { resolveAdminKey } from './_lib/admin-key.js';
import { BaseCommand } from './_lib/base-command.js';
import { CliError } from './_lib/cli-error.js';
import { connectionFlags } from './_lib/connection-flags.js';
import { NodeConnection } from './_lib/node-connection.js';
import { rpcFailure } from './_lib/rpc-failure.js';

export default class Dashboard extends BaseCommand {
  static override summary = 'A live view of a running node: tips, sync, mempool, blocks, validators, rates and events.';
  static override description =
    "Connects to the admin listener's event stream (GET /events, WebSocket, with the admin API key) and redraws " +
    'as the node changes; it reconnects on its own when the node restarts. Keys: q quit, p pause or resume sync ' +
    '(asks y/n), Tab next view, ? help. With --once it prints one frame and exits; with --json it prints the ' +
    "stream's snapshot event (identity, tips, pool, sync, validators, recent blocks) and exits, for scripts and " +
    'runs without a terminal. docs/dashboard.md has a capture and the event stream reference.';
  static override examples = [
    '<%= config.bin %> dashboard',
    '<%= config.bin %> dashboard --admin-url http://10.0.0.5:8880',
    '<%= config.bin %> dashboard --once --json | jq .result.tips.proposed.number',
  ];
  static override flags = {
    ...connectionFlags,
    once: Flags.boolean({
      description: 'Print one frame (or with --json the snapshot event) and exit instead of staying live.',
    }),
  };

  protected async execute(): Promise<unknown> {
    const { flags } = await this.parse(Dashboard);
    const adminUrl = flags['admin-url'];
    const { apiKey } = resolveAdminKey(flags['api-key'], adminUrl);
    if (flags.once || this.jsonEnabled()) {
      const snapshot = await this.snapshot(adminUrl, apiKey, flags.timeout);
      if (!this.jsonEnabled()) this.log(this.frame(snapshot, adminUrl));
      return snapshot;
    }
    if (!process.stdout.isTTY) {
      throw CliError.usage('the live dashboard needs a terminal on stdout', [
        'for scripts and pipes: l2node dashboard --once --json',
      ]);
    }
    const source = new EventStreamClient({ adminUrl, apiKey });
    const admin = new NodeConnection({ url: adminUrl, listener: 'admin', apiKey, timeoutMs: flags.timeout });
    const node = new NodeConnection({ url: flags['node-url'], listener: 'public', timeoutMs: flags.timeout });
    const actions = {
      pauseSync: () => admin.call('nodeAdmin_pauseSync'),
      resumeSync: () => admin.call('nodeAdmin_resumeSync'),
      blockTraces: async (blockNumber: number) => {
        const block = await node.call('node_getBlock', blockNumber);
        if (!block) throw new Error(`block ${blockNumber} is not on the node`);
        const summaries: TxTraceSummary[] = [];
        // One at a time: the traces run in the node's public execution workers, and a dashboard should not crowd them.
        for (const effect of block.body.txEffects) {
          const trace = await admin.call('nodeDev_traceTx', effect.txHash.toString());
          if (trace) summaries.push(summarizeTrace(trace));
        }
        return summaries;
      },
    };
    // Interactive even under CI=true (ink would otherwise print only the last frame): stdout is a terminal here.
    const peers = () => admin.call('nodeAdmin_getPeers');
    const app = render(<DashboardApp source={source} actions={actions} target={adminUrl} peers={peers} />, {
      interactive: true,
      alternateScreen: true,
    });
    await app.waitUntilExit();
    return undefined;
  }

  private async snapshot(adminUrl: string, apiKey: string | undefined, timeoutMs: number): Promise<SnapshotEvent> {
    try {
      return await readSnapshot({ adminUrl, apiKey, timeoutMs });
    } catch (err) {
      throw err instanceof RpcClientError ? rpcFailure(err, 'admin') : err;
    }
  }

  /** One frame of the dashboard for the snapshot, at the terminal's size (or 120x40 without one). */
  private frame(snapshot: SnapshotEvent, adminUrl: string): string {
    const received = Date.now();
    const url = eventStreamUrl(adminUrl);
    let state = initialDashboardState(url);
    state = reduceDashboard(state, { kind: 'connection', state: { status: 'open', url }, at: received });
    state = reduceDashboard(state, { kind: 'event', event: snapshot, at: received });
    const columns = process.stdout.columns || 120;
    const rows = process.stdout.rows || 40;
    return renderToString(
      <DashboardView
        state={state}
        now={received}
        tab="overview"
        showHelp={false}
        confirm={undefined}
        keysEnabled={false}
        columns={columns}
        rows={rows}
        target={adminUrl}
        live={false}
      />,
      { columns },
    );
  }
}
