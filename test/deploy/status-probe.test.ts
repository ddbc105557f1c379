/**
 * deploy/container/status-probe.mjs, the image's HEALTHCHECK and the chart's readiness probe, run against a real
 * node outside any container: it finds the node from the same NODE_* variables, and `ready` fails exactly when the
 * node is up but must not get traffic (paused, or its data directory cannot take writes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../helpers/free-port.js';
import { adminOk } from '../helpers/operations-e2e.js';
import { runCommand } from '../helpers/run-command.js';
import { REPO_ROOT, type RunningNode, spawnNode } from '../helpers/spawn-node.js';

const PROBE = join(REPO_ROOT, 'deploy/container/status-probe.mjs');

async function probe(mode: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const r = await runCommand(process.execPath, [PROBE, mode], { env: { PATH: process.env.PATH ?? '', ...env } });
  return { code: r.code, out: (r.stdout + r.stderr).trim() };
}

describe('status probe', () => {
  let node: RunningNode;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'l2node-probe-'));
    node = await spawnNode({ args: ['--data-directory', dataDir] });
    env = { NODE_HOST: '127.0.0.1', NODE_PORT: new URL(node.publicUrl).port, NODE_DATA_DIRECTORY: dataDir };
  });
  afterAll(async () => {
    await node?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('live and ready while the node runs and follows its chain', async () => {
    expect(await probe('live', env)).toEqual({ code: 0, out: 'live' });
    expect(await probe('ready', env)).toEqual({ code: 0, out: 'ready' });
    // A wildcard host (the image's NODE_HOST=0.0.0.0) is probed on loopback.
    expect(await probe('ready', { ...env, NODE_HOST: '0.0.0.0' })).toEqual({ code: 0, out: 'ready' });
  });

  it('not ready, yet live, while sync is paused; ready again after resume', async () => {
    await adminOk(node, 'nodeAdmin_pauseSync');
    try {
      expect(await probe('live', env)).toEqual({ code: 0, out: 'live' });
      expect(await probe('ready', env)).toEqual({ code: 1, out: 'not ready: sync state paused by operator' });
    } finally {
      await adminOk(node, 'nodeAdmin_resumeSync');
    }
    expect((await probe('ready', env)).code).toBe(0);
  });

  it('not ready when the data directory cannot take writes', async () => {
    const missing = join(dataDir, 'gone');
    const r = await probe('ready', { ...env, NODE_DATA_DIRECTORY: missing });
    expect(r).toEqual({ code: 1, out: `data directory ${missing} is not writable (ENOENT)` });
    expect((await probe('live', { ...env, NODE_DATA_DIRECTORY: missing })).code).toBe(0);
  });

  it('fails with the reason when no node answers, and refuses an unknown mode', async () => {
    const port = await freeLoopbackPort();
    const r = await probe('live', { NODE_HOST: '127.0.0.1', NODE_PORT: String(port) });
    expect(r).toEqual({ code: 1, out: `no answer from http://127.0.0.1:${port}/status (ECONNREFUSED)` });
    expect(await probe('healthy', env)).toEqual({ code: 2, out: 'usage: status-probe.mjs live|ready' });
  });
});
