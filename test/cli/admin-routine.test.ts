import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2node } from '../helpers/cli.js';
import { type CommandRun, runCommand } from '../helpers/run-command.js';
import { CONFIG_HOME, postJson, REPO_ROOT, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';

/**
 * scripts/admin-routine.sh (bash, set -e): pause sync, roll back, resume, upload a snapshot, check status, against
 * one spawned node. The script must stop at the first step that fails, with that step's exit code.
 *
 * Which steps the node serves is probed (each method called with a param it does not take: a served method
 * refuses the param, one not served yet says "not available yet"; nothing runs either way). While an operation is
 * not served, the script must stop at its step with exit 1; once all are served, it must run to the end. No edit is
 * needed here when the operations land.
 */
const SCRIPT = join(REPO_ROOT, 'scripts', 'admin-routine.sh');
const STEPS = [
  ['admin pause-sync', 'nodeAdmin_pauseSync'],
  ['admin rollback', 'nodeAdmin_rollbackTo'],
  ['admin resume-sync', 'nodeAdmin_resumeSync'],
  ['admin snapshot upload', 'nodeAdmin_startSnapshotUpload'],
] as const;

let node: RunningNode;
let dataDirectory: string;
let snapshots: string;
let env: Record<string, string>;

function routine(args: readonly string[]): Promise<CommandRun> {
  return runCommand('bash', [SCRIPT, ...args], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...env,
      L2NODE: `${process.execPath} ${join(REPO_ROOT, 'bin', 'run.js')}`,
      XDG_CONFIG_HOME: CONFIG_HOME,
    },
  });
}

/** The first step whose method this node does not serve yet, if any. */
async function firstUnservedStep(): Promise<string | undefined> {
  for (const [step, method] of STEPS) {
    const answer = (
      await postJson(node.adminUrl, rpc(method, ['a', 'b', 'c']), { 'x-api-key': node.adminKey as string })
    ).body as { error?: { message: string } };
    if (/is not available yet/.test(answer.error?.message ?? '')) return step;
  }
  return undefined;
}

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-cli-routine-'));
  snapshots = mkdtempSync(join(tmpdir(), 'l2node-cli-snapshots-'));
  // No proof during the file: a rollback to block 1 must not meet a finalized block 2 when the machine is slow.
  node = await spawnNode({
    args: ['--data-directory', dataDirectory, '--sequencer-mode', 'on-demand', '--proof-delay', '3600'],
  });
  env = { NODE_URL: node.publicUrl, NODE_ADMIN_URL: node.adminUrl };
  // Three blocks, so there is something to roll back.
  for (let i = 0; i < 3; i++) {
    const built = await l2node(['tx', 'build', '--note-hash', `0x${(i + 1).toString(16)}`], { env });
    const sent = await l2node(['tx', 'send', '-', '--wait', 'proposed'], { env, input: built.stdout });
    expect(sent.code, sent.stderr).toBe(0);
  }
});
afterAll(async () => {
  await node?.stop();
  rmSync(dataDirectory, { recursive: true, force: true });
  rmSync(snapshots, { recursive: true, force: true });
});

describe('scripts/admin-routine.sh', () => {
  it('stops at the first failing step with its exit code: the node refuses a rollback past its tip (exit 1)', async () => {
    const run = await routine(['99999', `file://${snapshots}`]);
    const unserved = await firstUnservedStep();
    expect(run.code).toBe(1);
    if (unserved === 'admin pause-sync') {
      expect(run.stdout).not.toContain('== admin rollback');
    } else {
      // Paused, then the rollback is refused: no later step runs, but the exit trap resumes sync (issue 17).
      expect(run.stdout).toContain('== admin rollback 99999 --yes');
      expect(run.stderr).toMatch(/nodeAdmin_rollbackTo failed: .*99999/);
      expect(run.stdout).not.toContain('== admin resume-sync');
      expect(run.stderr).toContain('step failed (exit 1): resuming sync before exiting');
      const status = (await (await fetch(`${node.publicUrl}/status`)).json()) as { sync: { state: string } };
      expect(status.sync.state, 'sync was left paused').not.toBe('paused');
    }
  });

  it('a wrong API key stops it at the first step with exit 3', async () => {
    const saved = env;
    env = { ...env, NODE_ADMIN_API_KEY: 'f'.repeat(64) };
    try {
      const run = await routine(['1', `file://${snapshots}`]);
      expect(run.code).toBe(3);
      expect(run.stdout.trim().split('\n')).toEqual(['== admin pause-sync']);
      expect(run.stderr).toContain('l2node admin login');
    } finally {
      env = saved;
    }
  });

  it('runs pause, rollback, resume, snapshot upload and status, or stops with exit 1 at the first step not served yet', async () => {
    const unserved = await firstUnservedStep();
    const run = await routine(['1', `file://${snapshots}`]);
    if (unserved) {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is not available yet/);
      expect(run.stdout.trim().split('\n').at(-1)).toContain(`== ${unserved}`);
      return;
    }
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    for (const [step] of STEPS) expect(run.stdout).toContain(`== ${step}`);
    expect(run.stdout).toMatch(/^node\s+http:\/\/127\.0\.0\.1:\d+\s+ok/m);
    expect(run.stdout).toContain('== done: rolled back to block 1');
    // The unwound txs return to the pool and may be mined again at once: the node's log tells the rollback.
    expect(
      node
        .logs()
        .some((l) =>
          /^rolled back to block 1: \d+ blocks? removed, \d+ of their \d+ txs back in the pool$/.test(l.msg ?? ''),
        ),
    ).toBe(true);
    // The upload runs in the node; it writes into the location once done.
    const deadline = Date.now() + 60_000;
    while (!(existsSync(snapshots) && readdirSync(snapshots).length > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(readdirSync(snapshots).length).toBeGreaterThan(0);
  }, 90_000);

  it('refuses to run without its two arguments (exit 2)', async () => {
    const run = await routine(['1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^usage: .*admin-routine\.sh <rollback-block> <snapshot-location>/);
  });
});
