import type { StreamSnapshotUpload as SnapshotStatus } from '../../rpc/node-stream-event.js';
import { CliError } from './cli-error.js';
import { EXIT_CODES } from './exit-codes.js';
import type { NodeConnection } from './node-connection.js';

const POLL_MS = 500;

/** The snapshot part of the listener's GET /status; unreachable is exit 5. */
export async function snapshotStatus(node: NodeConnection, url: string): Promise<SnapshotStatus> {
  const health = await node.health();
  const snapshot = (health?.body as { snapshot?: SnapshotStatus } | undefined)?.snapshot;
  if (snapshot === undefined) {
    throw new CliError(`cannot read the snapshot upload's status from ${url}/status`, {
      exitCode: EXIT_CODES.unreachable,
      code: 'UNREACHABLE',
    });
  }
  return snapshot;
}

/**
 * Polls GET /status until the node has finished an upload other than `before` (the last result seen before this
 * one was started: one upload runs at a time), and returns its result. `onStatus` gets each phase and progress.
 */
export async function waitForSnapshot(
  node: NodeConnection,
  url: string,
  before: SnapshotStatus['last'] | undefined,
  onStatus: (text: string) => void,
): Promise<NonNullable<SnapshotStatus['last']>> {
  const seen = JSON.stringify(before ?? null);
  for (;;) {
    const s = await snapshotStatus(node, url);
    if (!s.running && s.last && JSON.stringify(s.last) !== seen) return s.last;
    if (s.running && s.phase) {
      const p = s.progress;
      onStatus(p && p.total > 0 ? `${s.phase} ${Math.floor((100 * p.done) / p.total)}%` : s.phase);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
