import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { RPC_METHODS } from '../../src/rpc/method-table.js';
import type { RpcMethod } from '../../src/rpc/rpc-method.js';
import { hashAdminApiKey } from '../../src/rpc/server/admin-api-key.js';
import { AdminAuthenticator } from '../../src/rpc/server/admin-authenticator.js';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';

/**
 * Auth hardening (issue 12): every admin method of the table and the /events stream refuse without a valid
 * key, a public batch never reaches an admin method, a wrong key costs the same whatever prefix it shares,
 * the key hash file is 0600 and the key is printed once, in the banner, never in a log record.
 */
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});
vi.mock('../../src/rpc/server/admin-api-key.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/rpc/server/admin-api-key.js')>();
  return { ...actual, hashAdminApiKey: vi.fn(actual.hashAdminApiKey) };
});

const ADMIN = (Object.values(RPC_METHODS) as RpcMethod[]).filter((m) => m.listener === 'admin');
const UNAUTHORIZED = { code: -32000, data: { code: 'UNAUTHORIZED' } };

let dataDirectory: string;
let node: RunningNode;
let key: string;

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-auth-hard-'));
  node = await spawnNode({ args: ['--data-directory', dataDirectory] });
  key = node.adminKey as string;
}, 30_000);
afterAll(async () => {
  await node?.stop();
  rmSync(dataDirectory, { recursive: true, force: true });
});

/** A call that gets past authentication but is refused for its params, so it changes nothing. */
const harmless = (m: RpcMethod) =>
  rpc(
    m.name,
    m.params.length === 0
      ? [true]
      : m.params.some((p) => p.presence === 'required')
        ? []
        : // Only optional params (nodeDev_mineBlocks): no params would run it, so send one of the wrong type.
          [{ wrong: true }],
  );
/** Wrong keys that look right: near misses of the real one, other case, padding, other header forms. */
const wrongKeys = () => [
  `${key.slice(0, 63)}${key[63] === '0' ? '1' : '0'}`,
  `${key[0] === '0' ? '1' : '0'}${key.slice(1)}`,
  key.toUpperCase() === key ? 'f'.repeat(64) : key.toUpperCase(),
  `${key}0`,
  key.slice(0, 32),
  '0'.repeat(64),
];

describe('admin methods refuse without a valid key', () => {
  it('every admin method of the table: 401 UNAUTHORIZED without a key and for each wrong key', async () => {
    expect(ADMIN.length).toBeGreaterThan(5);
    for (const m of ADMIN) {
      const headerSets: Record<string, string>[] = [
        {},
        { 'x-api-key': '' },
        { authorization: 'Bearer' },
        { authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` },
        ...wrongKeys().flatMap((k) => [{ 'x-api-key': k }, { authorization: `Bearer ${k}` }]),
        // x-api-key wins over Authorization: a wrong x-api-key is refused even beside the right bearer.
        { 'x-api-key': 'f'.repeat(64), authorization: `Bearer ${key}` },
      ];
      for (const headers of headerSets) {
        const a = await postJson(node.adminUrl, harmless(m), headers);
        expect(a.status, `${m.name} ${JSON.stringify(headers)}`).toBe(401);
        expect((a.body as { error: unknown }).error).toMatchObject(UNAUTHORIZED);
      }
      // A batch without a key is refused as a whole, before any member runs.
      const batch = await postJson(node.adminUrl, [harmless(m), rpc('nodeAdmin_getConfig', [], 2)]);
      expect(batch.status).toBe(401);
      // With the key the method itself answers.
      const ok = await postJson(node.adminUrl, harmless(m), { 'x-api-key': key });
      expect(ok.status, m.name).toBe(200);
      expect((ok.body as { error?: { code: number } }).error?.code, m.name).toBe(-32602);
    }
  });

  it('a public batch never reaches an admin method, even carrying the key', async () => {
    const members = ADMIN.map((m, i) => ({ ...harmless(m), id: i }));
    members.push({ ...rpc('node_getBlockNumber'), id: members.length });
    for (const headers of [{}, { 'x-api-key': key }, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
      const a = await postJson(node.publicUrl, members, headers);
      expect(a.status).toBe(200);
      const answers = a.body as { id: number; result?: unknown; error?: { code: number } }[];
      expect(answers).toHaveLength(members.length);
      for (const answer of answers.slice(0, ADMIN.length)) expect(answer.error?.code).toBe(-32601);
      expect(answers.at(-1)?.result).toEqual(expect.any(Number));
    }
  });
});

/** Opens /events with the given headers; resolves with the HTTP status of a refusal, or 101 and the first message. */
function openEvents(url: string, headers: Record<string, string>): Promise<{ status: number; first?: unknown }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events`, { headers });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('no answer to the /events upgrade within 10 s'));
    }, 10_000);
    ws.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('message', (data) => {
      clearTimeout(timer);
      resolve({ status: 101, first: JSON.parse(String(data)) });
      ws.close();
    });
    ws.once('error', () => {
      // unexpected-response already settled, or the timer reports it.
    });
  });
}

describe('the event stream refuses without a valid key', () => {
  it('/events: 401 without a key and for each wrong key; the snapshot with the key', async () => {
    expect((await openEvents(node.adminUrl, {})).status).toBe(401);
    for (const k of wrongKeys()) {
      expect((await openEvents(node.adminUrl, { 'x-api-key': k })).status).toBe(401);
      expect((await openEvents(node.adminUrl, { authorization: `Bearer ${k}` })).status).toBe(401);
    }
    const ok = await openEvents(node.adminUrl, { 'x-api-key': key });
    expect(ok.status).toBe(101);
    expect(ok.first).toMatchObject({ type: 'snapshot' });
  });

  it('the public listener serves no event stream, key or not', async () => {
    for (const headers of [{}, { 'x-api-key': key }] as Record<string, string>[]) {
      const answer = await openEvents(node.publicUrl, headers).catch(() => ({ status: 0 }));
      expect(answer.status).not.toBe(101);
    }
  });
});

describe('the key at rest and in logs', () => {
  it('the key hash file is 0600', () => {
    expect(statSync(join(dataDirectory, 'admin', 'api_key_hash')).mode & 0o777).toBe(0o600);
  });

  it('the key appears only in the start-up banner: in no log record, nowhere on stderr', () => {
    // By now the node has logged refusals of wrong keys and served requests with the right one.
    const out = node.stdout();
    const lines = out.split('\n').filter((l) => l.includes(key));
    for (const line of lines) {
      expect(line.trimStart().startsWith('{'), `a JSON line holds the key: ${line.slice(0, 200)}`).toBe(false);
    }
    // The banner shows it three times (alone, then in the two header forms); nothing else does.
    const at = out.indexOf('ADMIN API KEY (shown once)');
    expect(at).toBeGreaterThan(0);
    const end = out.indexOf('--disable-admin-api-key', at);
    const banner = out.slice(at, end);
    expect(banner.split(key).length - 1).toBe(3);
    expect(out.slice(0, at).includes(key) || out.slice(end).includes(key)).toBe(false);
    expect(node.stderr()).not.toContain(key);
    expect(node.logs().some((l) => JSON.stringify(l).includes(key))).toBe(false);
    expect(node.logs().some((l) => /admin request refused/.test(String(l.msg)))).toBe(true);
  });
});

describe('a wrong key costs the same whatever it shares with the right one', () => {
  it('is constant-time by construction: the presented key is hashed, then compared with timingSafeEqual', async () => {
    const crypto = await import('node:crypto');
    const equal = vi.mocked(crypto.timingSafeEqual);
    const hash = vi.mocked(hashAdminApiKey);
    const auth = new AdminAuthenticator(hashAdminApiKey(key));
    for (const k of [...wrongKeys(), key, undefined]) {
      equal.mockClear();
      hash.mockClear();
      const accepted = auth.accepts(k === undefined ? {} : { 'x-api-key': k });
      expect(accepted).toBe(k === key);
      // One hash of whatever was presented, one comparison of two 32-byte digests: nothing depends on the prefix.
      expect(hash).toHaveBeenCalledTimes(1);
      expect(hash).toHaveBeenCalledWith(k ?? '');
      expect(equal).toHaveBeenCalledTimes(1);
      const [a, b] = equal.mock.calls[0] as [Buffer, Buffer];
      expect([a.length, b.length]).toEqual([32, 32]);
    }
  });

  it('statistically: the median time of a wrong key sharing 0 or 63 leading characters differs by noise only', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const body = JSON.stringify(rpc('nodeAdmin_getConfig'));
    const url = new URL(node.adminUrl);
    const timeOnce = (apiKey: string) =>
      new Promise<number>((resolve, reject) => {
        const start = process.hrtime.bigint();
        const req = request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method: 'POST',
            path: '/',
            headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-api-key': apiKey },
          },
          (res) => {
            res.resume();
            res.once('end', () => {
              if (res.statusCode !== 401) reject(new Error(`expected 401, got ${res.statusCode}`));
              else resolve(Number(process.hrtime.bigint() - start) / 1e6);
            });
          },
        );
        req.once('error', reject);
        req.end(body);
      });
    const last = key[63] === '0' ? '1' : '0';
    const near = `${key.slice(0, 63)}${last}`;
    const far = [...key].map((c) => (c === '0' ? '1' : '0')).join('');
    const samples = { near: [] as number[], far: [] as number[] };
    for (let i = 0; i < 50; i++) await timeOnce(i % 2 ? near : far); // warm up the connection and the JIT
    // Interleaved, so that load from other processes falls on both alike.
    for (let i = 0; i < 600; i++) {
      if (i % 2) samples.near.push(await timeOnce(near));
      else samples.far.push(await timeOnce(far));
    }
    agent.destroy();
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const q = (xs: number[], p: number) => sorted(xs)[Math.floor(p * (xs.length - 1))] as number;
    const medNear = q(samples.near, 0.5);
    const medFar = q(samples.far, 0.5);
    const noise = Math.max(q(samples.near, 0.75) - q(samples.near, 0.25), q(samples.far, 0.75) - q(samples.far, 0.25));
    console.log(
      `auth timing: median wrong key sharing 63 chars ${medNear.toFixed(3)} ms, sharing 0 ${medFar.toFixed(3)} ms, ` +
        `IQR ${noise.toFixed(3)} ms (${samples.near.length} samples each)`,
    );
    // A prefix-dependent compare would show as a gap far above the spread; keep a floor so a quiet machine's
    // tiny IQR does not make the test flaky.
    expect(Math.abs(medNear - medFar)).toBeLessThan(Math.max(2 * noise, 0.1, 0.25 * Math.min(medNear, medFar)));
  }, 60_000);
});
