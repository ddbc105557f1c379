import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LogLine, postJson, rpc, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

const started = (logs: LogLine[]) => logs.filter((l) => /^started /.test(l.msg ?? '')).map((l) => l.service);
const stopped = (logs: LogLine[]) => logs.filter((l) => /^stopped /.test(l.msg ?? '')).map((l) => l.service);

describe('daemon lifecycle (spawned bin/run.js start)', () => {
  it('logs each RPC request at debug with method, code and duration ("debug: rpc")', async () => {
    const node = await spawnNode({ args: ['--log-level', 'info; debug: rpc'] });
    try {
      await postJson(node.publicUrl, rpc('node_getBlockNumber'));
      await postJson(node.publicUrl, rpc('node_getBlock', ['yesterday']));
      const ok = await node.waitForLog((l) => l.method === 'node_getBlockNumber' && l.code === 0);
      expect(ok).toMatchObject({ level: 20, ms: expect.any(Number) });
      const refused = await node.waitForLog((l) => l.method === 'node_getBlock' && l.code === -32602);
      expect(refused.msg).toMatch(/^node_getBlock error -32602 in [0-9.]+ ms$/);
    } finally {
      await node.stop();
    }
  });

  it('stops on SIGTERM within 5 s with exit code 0, running the stop hook of every started service', async () => {
    const node = await spawnNode();
    const services = started(node.logs());
    expect(services).toContain('database');
    // The listeners start once everything they serve runs; only the local network set-up, which talks to the node
    // through its public listener, comes after them.
    expect(services.filter((s) => s !== 'local-network-setup').at(-1)).toBe('rpc');
    if (services.includes('local-network-setup')) {
      expect(services.indexOf('local-network-setup')).toBeGreaterThan(services.indexOf('rpc'));
    }
    const t0 = Date.now();
    node.signal('SIGTERM');
    const exit = await node.exited;
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(exit).toEqual({ code: 0, signal: null });
    // Every started service is stopped, in reverse order: the listeners close first.
    expect(stopped(node.logs())).toEqual([...services].reverse());
    expect(node.logs().some((l) => l.msg === 'node stopped')).toBe(true);
  });

  it('a second signal forces the exit while the graceful stop still waits', async () => {
    const node = await spawnNode();
    // A request whose headers never finish keeps its connection busy, so the graceful stop has to wait.
    const url = new URL(node.publicUrl);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    socket.on('error', () => {});
    node.signal('SIGTERM');
    await node.waitForLog((l) => /^received SIGTERM: stopping/.test(l.msg ?? ''));
    // A repeat within 1 s is the same request (a terminal's Ctrl-C reaches the node twice); a later one forces.
    await new Promise((r) => setTimeout(r, 1_500));
    node.signal('SIGTERM');
    const exit = await node.exited;
    socket.destroy();
    expect(exit.code).toBe(143);
    expect(node.logs().some((l) => /forcing exit/.test(l.msg ?? ''))).toBe(true);
  });

  it.each([
    [['--port', '70000'], {}, /--port: expected an integer from 0 to 65535, got 70000/],
    [['--admin-api-key-hash', 'xyz'], {}, /--admin-api-key-hash: expected a SHA-256 hash as 64 lowercase hex digits/],
    [[], { NODE_RPC_MAX_BATCH_SIZE: 'abc' }, /NODE_RPC_MAX_BATCH_SIZE \(--rpc-max-batch-size\): expected an integer/],
    [['--log-level', 'loud'], {}, /--log-level: unknown log level "loud"/],
  ])(
    'bad settings %j %j stop start-up with one line naming the setting, nothing listening',
    async (args, env, message) => {
      const proc = spawnNodeProcess({ args, env });
      const exit = await proc.exited;
      expect(exit.code).toBe(2);
      const lines = proc.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(proc.logs().some((l) => l.msg === 'rpc listening')).toBe(false);
      expect(proc.stdout()).not.toMatch(/started /);
    },
  );

  it('a port already in use stops start-up naming the listener and its flags, and stops what had started', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const proc = spawnNodeProcess({ args: ['--admin-port', String(port)] });
      const exit = await proc.exited;
      expect(exit.code).toBe(1);
      const fatal = proc.logs().find((l) => l.level === 60);
      expect(fatal?.msg).toBe(
        `node failed to start: the admin RPC listener cannot listen on 127.0.0.1:${port} (--admin-host/--admin-port): address already in use`,
      );
      // Everything that had started is stopped again, in reverse order; the listeners never started.
      const before = started(proc.logs());
      expect(before).toContain('database');
      expect(before).not.toContain('rpc');
      expect(stopped(proc.logs())).toEqual([...before].reverse());
    } finally {
      blocker.close();
    }
  });

  it('SIGTERM during start-up (the L1 deployment) stops what had started, anvil and forge included, and frees the directory', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-interrupted-'));
    try {
      const proc = spawnNodeProcess({ args: ['--l1', 'anvil', '--data-directory', dataDirectory] });
      const anvil = await proc.waitForLog((l) => l.msg?.startsWith('anvil listening on') === true, 60_000);
      await proc.waitForLog((l) => l.msg === 'deploying L1', 60_000);
      const t0 = Date.now();
      proc.signal('SIGTERM');
      const exit = await proc.exited;
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(exit).toEqual({ code: 0, signal: null });
      // What had started is stopped, in reverse order; the L1 never counted as started, its anvil is stopped too.
      const before = started(proc.logs());
      expect(before).toEqual(['data directory lock', 'database']);
      expect(stopped(proc.logs())).toEqual([...before].reverse());
      expect(proc.logs().some((l) => l.level === 60)).toBe(false);
      // anvil's supervisor kills it when the node's pipe closes: just after the node's exit.
      await until('the node’s anvil to be gone', () => (alive(anvil.pid as number) ? undefined : true), {
        timeoutMs: 10_000,
      });
      expect(forgeDeployingTo(anvil.rpcUrl as string)).toBe(false);
      // The lock is free: the next start on the directory gets past it.
      const next = spawnNodeProcess({ args: ['--data-directory', dataDirectory] });
      await next.waitForLog((l) => l.msg === 'started database', 30_000);
      next.signal('SIGTERM');
      expect((await next.exited).code).toBe(0);
    } finally {
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  }, 120_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether a forge process still runs a deployment against this node's anvil (its state lives in the directory). */
/** Whether a forge deployment to this node's anvil runs (other tests' nodes may deploy to theirs meanwhile). */
function forgeDeployingTo(rpcUrl: string): boolean {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes('forge') && cmd.includes('DeployAztecL1Contracts') && cmd.includes(rpcUrl)) return true;
    } catch {
      // The process ended while being read.
    }
  }
  return false;
}
