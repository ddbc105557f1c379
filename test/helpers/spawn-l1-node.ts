/**
 * `l2node start --l1 anvil` for e2e tests: the node runs anvil as its child process and deploys Aztec's L1
 * contracts into it (about a minute on a loaded machine, hence the long start-up timeout).
 */
import { type RunningNode, spawnNode } from './spawn-node.js';
import { untilTrue } from './until.js';

/**
 * Starts a node on its own anvil with its state in `dataDirectory`, building a block every interval of a slot
 * even without txs, so the chain (its checkpoints on L1, the Inbox's trees, the epochs to prove) runs on by itself.
 */
export function spawnAnvilNode(dataDirectory: string, extraArgs: readonly string[] = []): Promise<RunningNode> {
  return spawnNode({ args: anvilNodeArgs(dataDirectory, extraArgs), readyTimeoutMs: ANVIL_NODE_START_MS });
}

/**
 * Waits until a node that settles on an L1 produces blocks: it serves before its KZG set-up is built (a few
 * seconds on a quiet machine, tens under load) and holds block production until then (GET /status `ready`
 * false, paused by `kzg`). A case that waits for checkpoints starts its clock after this.
 */
export async function untilProducing(node: RunningNode): Promise<void> {
  await untilTrue(
    'the node to produce blocks (its KZG set-up built)',
    async () => ((await (await fetch(`${node.publicUrl}/status`)).json()) as { ready: boolean }).ready,
    { timeoutMs: ANVIL_NODE_START_MS, intervalMs: 250 },
  );
}

/** How long an --l1 anvil start may take (unscaled): a deployment on a loaded machine. */
export const ANVIL_NODE_START_MS = 120_000;

/** The flags of spawnAnvilNode, for a test that watches the start itself (spawnNodeProcess). */
export function anvilNodeArgs(dataDirectory: string, extraArgs: readonly string[] = []): string[] {
  return [
    '--l1',
    'anvil',
    '--data-directory',
    dataDirectory,
    '--sequencer-mode',
    'interval',
    '--min-txs-per-block',
    '0',
    ...extraArgs,
  ];
}

/** The URL the node's anvil listens on, from the node's log. */
export function anvilUrlOf(node: RunningNode): string {
  const line = node.logs().find((l) => l.msg?.startsWith('anvil listening on'));
  if (!line) throw new Error('the node did not report anvil');
  return line.rpcUrl as string;
}

/**
 * The checkpoint a restarted node kept when it found that the rollup pruned its unproven checkpoints while it was
 * down (a restart that outlasts the epoch's proof window: tens of seconds on a busy machine), from its log;
 * undefined when nothing was pruned. Only proven checkpoints are sure to survive such a restart.
 */
export function prunedOnRestart(node: RunningNode): number | undefined {
  const line = node.logs().find((l) => String(l.msg).startsWith('the rollup prunes the unproven checkpoints after'));
  return line === undefined ? undefined : (line.keptCheckpoint as number);
}
