/**
 * The container image, built and run for real with podman (docs/deployment.md runs the same commands): a dev node
 * with a data volume answers /status and node_ calls on its published port; the admin listener is neither
 * published nor bound beyond the container's loopback, yet `l2node admin ...` works through `podman exec`; the
 * admin key's hash lands in the volume; a follower in the same network namespace syncs from it; SIGTERM stops the
 * node cleanly and a restart keeps the chain.
 *
 * It builds an image (minutes on a fresh machine), so `npm test` skips it unless L2NODE_CONTAINER_TEST=1, which
 * .ci/run sets for its own step. All traffic stays on loopback: the published port is bound to 127.0.0.1, and the
 * probes of the container's own address run inside the container (the kernel delivers them over `lo`).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../helpers/free-port.js';
import { result } from '../helpers/mempool-e2e.js';
import { REPO_ROOT } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';
import { containerToolsMissing, hostCaBundle, Podman, type Run } from './podman.js';

const BASE_IMAGE = 'localhost/l2node-debian-base:bookworm';
const IMAGE = 'localhost/l2node:test';
const WORK_DIR = '/var/tmp';

const skipReason =
  process.env.L2NODE_CONTAINER_TEST !== '1'
    ? 'set L2NODE_CONTAINER_TEST=1 to build and run the image (.ci/run does, in its own step)'
    : await containerToolsMissing();
if (skipReason) console.log(`container test skipped: ${skipReason}`);

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

interface TipsWire {
  proposed: { number: number; hash: string };
}

describe.skipIf(skipReason)(`container image${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  const id = `l2node-test-${process.pid}`;
  const node = id;
  const follower = `${id}-follower`;
  const data = `${id}-data`;
  const followerData = `${id}-follower-data`;
  let podman: Podman;
  let confDir: string;
  let url: string;
  const started = Date.now();

  const exec = (container: string, args: readonly string[], env: Record<string, string> = {}): Promise<Run> =>
    podman.run(['exec', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), container, ...args]);
  const status = async () => {
    const res = await fetch(`${url}/status`).catch(() => undefined);
    return res?.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
  };
  const logs = async (container: string) => {
    const r = await podman.run(['logs', container]);
    return r.stdout + r.stderr;
  };

  beforeAll(async () => {
    confDir = mkdtempSync(join(WORK_DIR, 'l2node-podman-conf-'));
    podman = new Podman(confDir);

    let t = Date.now();
    const base = await podman.ensureDebianBase(BASE_IMAGE, WORK_DIR);
    console.log(
      `container test: Debian base image ${base === 'cached' ? 'cached' : 'made with debootstrap'} in ${seconds(t)}`,
    );

    t = Date.now();
    const ca = hostCaBundle();
    await podman.ok([
      'build',
      '--isolation',
      'chroot',
      '--network',
      'host',
      '--format',
      'docker',
      '--build-arg',
      `BASE_IMAGE=${BASE_IMAGE}`,
      ...(ca ? ['--secret', `id=ca-certificates,src=${ca}`] : []),
      '-t',
      IMAGE,
      REPO_ROOT,
    ]);
    const size = Number(await podman.ok(['image', 'inspect', '--format', '{{.Size}}', IMAGE]));
    console.log(`container test: image built in ${seconds(t)}, size ${(size / 1e6).toFixed(0)} MB`);

    const port = await freeLoopbackPort();
    url = `http://127.0.0.1:${port}`;
    // docs/deployment.md, "A dev node": the same command, plus a block every interval (empty ones too) so the chain grows, and
    // the native Poseidon2 engine required (start-up fails if the image lacks the addon).
    await podman.ok([
      'run',
      '-d',
      '--name',
      node,
      '-p',
      `127.0.0.1:${port}:8080`,
      '-v',
      `${data}:/data`,
      '-e',
      'NODE_SEQUENCER_MODE=interval',
      '-e',
      'NODE_MIN_TXS_PER_BLOCK=0',
      '-e',
      'NODE_SLOT_DURATION=2',
      '-e',
      'L2NODE_POSEIDON2_ENGINE=native',
      IMAGE,
    ]);
    await until('the container node to answer GET /status with 200', status, 60_000);
  }, 1_800_000);

  afterAll(async () => {
    if (!podman) return;
    await podman.run(['rm', '-f', '-t', '0', follower, node]);
    await podman.run(['volume', 'rm', '-f', followerData, data]);
    rmSync(confDir, { recursive: true, force: true });
    console.log(`container test: ${seconds(started)} in all`);
  });

  it('serves GET /status and node_ methods on the published public port, as the non-root user', async () => {
    const body = await status();
    expect(body).toMatchObject({ status: 'ok', state: 'running', ready: true });
    const info = await result<{ nodeVersion: string; l1ChainId: number }>(url, 'node_getNodeInfo');
    expect(info.l1ChainId).toBe(31337);
    expect(info.nodeVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect((await exec(node, ['id', '-u'])).stdout.trim()).toBe('10001');
    expect((await exec(node, ['node', '--version'])).stdout.trim()).toBe('v24.12.0');
  });

  it('publishes the public port only; the admin listener answers on the container loopback only', async () => {
    expect((await podman.ok(['port', node])).split('\n')).toEqual([`8080/tcp -> ${url.slice('http://'.length)}`]);
    const ip = await podman.ok(['inspect', '--format', '{{.NetworkSettings.IPAddress}}', node]);
    expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // Connections to the container's own address, made inside it: what another machine on its network would see.
    const script =
      'const net=require("node:net");const [ip,...ports]=process.argv.slice(1);' +
      'Promise.all(ports.map((p)=>new Promise((r)=>{const s=net.connect(+p,ip);' +
      's.on("connect",()=>{s.destroy();r(p+" open")});s.on("error",(e)=>r(p+" "+e.code))}))).then((l)=>console.log(l.join(",")))';
    const probe = await exec(node, ['node', '-e', script, ip, '8080', '8880']);
    expect(probe.stdout.trim()).toBe('8080 open,8880 ECONNREFUSED');
  });

  it('keeps the admin key hash in the volume; admin commands work through podman exec, with the key only', async () => {
    const key = (await logs(node)).match(/ADMIN API KEY \(shown once\)\s+([0-9a-f]{64})/)?.[1];
    expect(key).toBeDefined();
    const mountpoint = await podman.ok(['volume', 'inspect', '--format', '{{.Mountpoint}}', data]);
    const stored = readFileSync(join(mountpoint, 'admin', 'api_key_hash'), 'utf8');
    expect(stored).toBe(
      createHash('sha256')
        .update(key as string)
        .digest('hex'),
    );

    // `start` saved the key for the CLI inside the container, so an operator's exec needs none.
    const paused = await exec(node, ['l2node', 'admin', 'pause-sync', '--json']);
    expect(paused.code, paused.stdout + paused.stderr).toBe(0);
    const notReady = await exec(node, ['node', '/app/deploy/status-probe.mjs', 'ready']);
    expect([notReady.code, notReady.stdout.trim()]).toEqual([1, 'not ready: sync state paused by operator']);
    const wrong = await exec(node, ['l2node', 'admin', 'resume-sync', '--json'], {
      NODE_ADMIN_API_KEY: 'f'.repeat(64),
    });
    expect(wrong.code).toBe(3);
    const resumed = await exec(node, ['l2node', 'admin', 'resume-sync', '--json'], {
      NODE_ADMIN_API_KEY: key as string,
    });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const ready = await exec(node, ['node', '/app/deploy/status-probe.mjs', 'ready']);
    expect([ready.code, ready.stdout.trim()]).toEqual([0, 'ready']);
    const health = await podman.run(['healthcheck', 'run', node]);
    expect(health.code, health.stdout + health.stderr).toBe(0);
  });

  it('runs a follower in the same network namespace that syncs the dev chain into its own volume', async () => {
    const tip = await until('a few blocks', async () => {
      const n = await result<number>(url, 'node_getBlockNumber');
      return n >= 3 ? n : undefined;
    });
    // docs/deployment.md, "A follower": here it shares the dev node's network namespace, so its upstream is
    // loopback and its own listeners move to 8081/8881.
    await podman.ok([
      'run',
      '-d',
      '--name',
      follower,
      '--network',
      `container:${node}`,
      '-v',
      `${followerData}:/data`,
      '-e',
      'NODE_SYNC_FROM=http://127.0.0.1:8080',
      '-e',
      'NODE_PORT=8081',
      '-e',
      'NODE_ADMIN_PORT=8881',
      IMAGE,
    ]);
    const cli = ['--json', '--node-url', 'http://127.0.0.1:8081'];
    await until(
      `the follower to reach block ${tip}`,
      async () => {
        const r = await exec(follower, ['l2node', 'rpc', 'node_getBlockNumber', ...cli]);
        return r.code === 0 && (JSON.parse(r.stdout) as { result: number }).result >= tip ? true : undefined;
      },
      90_000,
    );
    const theirs = JSON.parse((await exec(follower, ['l2node', 'rpc', 'node_getBlock', String(tip), ...cli])).stdout);
    expect(theirs.result).toEqual(await result(url, 'node_getBlock', [tip]));
    await podman.ok(['rm', '-f', '-t', '30', follower]);
  }, 120_000);

  it('stops cleanly on SIGTERM and keeps its chain and key across a restart', async () => {
    const before = await result<TipsWire>(url, 'node_getL2Tips');
    const block = await result(url, 'node_getBlock', [before.proposed.number]);
    const t = Date.now();
    await podman.ok(['stop', '-t', '30', node]);
    console.log(`container test: SIGTERM to exit in ${seconds(t)}`);
    expect(await podman.ok(['inspect', '--format', '{{.State.ExitCode}}', node])).toBe('0');
    const stopLogs = await logs(node);
    expect(stopLogs).toContain('"msg":"received SIGTERM: stopping (send it again to force)"');
    expect(stopLogs).toContain('"msg":"node stopped"');

    await podman.ok(['start', node]);
    await until('the restarted node to answer GET /status with 200', status, 60_000);
    expect(await result(url, 'node_getBlock', [before.proposed.number])).toEqual(block);
    const after = await result<TipsWire>(url, 'node_getL2Tips');
    expect(after.proposed.number).toBeGreaterThanOrEqual(before.proposed.number);
    // The stored hash was reused: no second key was generated.
    expect((await logs(node)).match(/ADMIN API KEY \(shown once\)/g)).toHaveLength(1);
  }, 120_000);
});
