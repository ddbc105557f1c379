import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, type RunningNode, rpc, spawnNode } from '../helpers/spawn-node.js';

/** Admin API key authentication, spec part 5, against spawned nodes sharing one data directory. */
const UNAUTHORIZED = {
  jsonrpc: '2.0',
  id: null,
  error: { code: -32000, message: 'Unauthorized: invalid or missing API key', data: { code: 'UNAUTHORIZED' } },
};
/** An admin call that never changes anything: with the key it is refused for its params (or not served yet). */
const call = rpc('nodeAdmin_pauseSync', [true]);

let dataDirectory: string;
let first: RunningNode;
let firstKey: string;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const errorOf = (body: unknown) => (body as { error?: { code: number } }).error;
/** Got past authentication: the method itself answered. */
const authorised = (a: { status: number; body: unknown }) =>
  a.status === 200 && [-32601, -32602].includes(errorOf(a.body)?.code ?? 0);

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-auth-'));
  first = await spawnNode({ args: ['--data-directory', dataDirectory] });
  firstKey = first.adminKey as string;
});
afterAll(async () => {
  await first?.stop();
  rmSync(dataDirectory, { recursive: true, force: true });
});

describe('first start with a data directory', () => {
  it('prints a 64-hex key once in a banner that shows both header forms and how to disable', () => {
    expect(firstKey).toMatch(/^[0-9a-f]{64}$/);
    const out = first.stdout();
    expect(out).toContain(`x-api-key: ${firstKey}`);
    expect(out).toContain(`Authorization: Bearer ${firstKey}`);
    expect(out).toContain('--disable-admin-api-key');
    // The key never appears in a log record.
    expect(first.logs().some((l) => JSON.stringify(l).includes(firstKey))).toBe(false);
  });

  it('stores only the SHA-256 of the key text, mode 0600 in a 0700 folder', () => {
    const file = join(dataDirectory, 'admin', 'api_key_hash');
    expect(readFileSync(file, 'utf8')).toBe(sha256(firstKey));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDirectory, 'admin')).mode & 0o777).toBe(0o700);
  });
});

describe('request check', () => {
  it('refuses a request without a key: HTTP 401 with the JSON-RPC -32000 UNAUTHORIZED body', async () => {
    const a = await postJson(first.adminUrl, call);
    expect(a.status).toBe(401);
    expect(a.body).toEqual(UNAUTHORIZED);
    expect(a.headers.get('x-aztec-l1ChainId')).toBeNull();
  });

  it('refuses a wrong key with exactly the same answer', async () => {
    const missing = await postJson(first.adminUrl, call);
    const wrong = await postJson(first.adminUrl, call, { 'x-api-key': 'f'.repeat(64) });
    const wrongBearer = await postJson(first.adminUrl, call, { authorization: `Bearer ${'0'.repeat(64)}` });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toBe(missing.text);
    expect(wrongBearer.text).toBe(missing.text);
  });

  it('accepts the key as x-api-key', async () => {
    expect(authorised(await postJson(first.adminUrl, call, { 'x-api-key': firstKey }))).toBe(true);
  });

  it('accepts the key as Authorization: Bearer', async () => {
    expect(authorised(await postJson(first.adminUrl, call, { authorization: `Bearer ${firstKey}` }))).toBe(true);
  });

  it('lets x-api-key win over Authorization', async () => {
    const a = await postJson(first.adminUrl, call, { 'x-api-key': 'wrong', authorization: `Bearer ${firstKey}` });
    expect(a.status).toBe(401);
  });

  it('exempts GET /status only: HEAD and POST /status, OPTIONS and other paths need the key', async () => {
    expect((await fetch(`${first.adminUrl}/status`)).status).toBe(200);
    expect((await fetch(`${first.adminUrl}/status`, { method: 'HEAD' })).status).toBe(401);
    expect((await fetch(`${first.adminUrl}/status`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(first.adminUrl, { method: 'OPTIONS' })).status).toBe(401);
    expect((await fetch(`${first.adminUrl}/other`)).status).toBe(401);
  });

  it('logs each refusal with the client address', () => {
    expect(
      first.logs().some((l) => l.msg === 'admin request refused: invalid or missing API key' && l.remoteAddress),
    ).toBe(true);
  });
});

describe('across restarts', () => {
  it('reuses the stored key after a restart with the same data directory, without printing it again', async () => {
    await first.stop();
    const second = await spawnNode({ args: ['--data-directory', dataDirectory] });
    try {
      expect(second.adminKey).toBeUndefined();
      expect(second.stdout()).not.toContain('ADMIN API KEY');
      expect(authorised(await postJson(second.adminUrl, call, { 'x-api-key': firstKey }))).toBe(true);
    } finally {
      await second.stop();
    }
  });

  it('makes a new key with --reset-admin-api-key; the old one stops working', async () => {
    const reset = await spawnNode({ args: ['--data-directory', dataDirectory, '--reset-admin-api-key'] });
    try {
      const newKey = reset.adminKey as string;
      expect(newKey).toMatch(/^[0-9a-f]{64}$/);
      expect(newKey).not.toBe(firstKey);
      expect(readFileSync(join(dataDirectory, 'admin', 'api_key_hash'), 'utf8')).toBe(sha256(newKey));
      expect((await postJson(reset.adminUrl, call, { 'x-api-key': firstKey })).status).toBe(401);
      expect(authorised(await postJson(reset.adminUrl, call, { 'x-api-key': newKey }))).toBe(true);
    } finally {
      await reset.stop();
    }
  });

  it('uses a given --admin-api-key-hash (env twin NODE_ADMIN_API_KEY_HASH) and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'l2node-auth-hash-'));
    const key = 'my-operator-chosen-key';
    const node = await spawnNode({
      args: ['--data-directory', dir],
      env: { NODE_ADMIN_API_KEY_HASH: sha256(key) },
    });
    try {
      expect(node.adminKey).toBeUndefined();
      expect(existsSync(join(dir, 'admin', 'api_key_hash'))).toBe(false);
      expect(authorised(await postJson(node.adminUrl, call, { authorization: `Bearer ${key}` }))).toBe(true);
      expect((await postJson(node.adminUrl, call, { 'x-api-key': 'other' })).status).toBe(401);
    } finally {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes --admin-api-key-hash in upper case as well', async () => {
    const key = 'an-upper-case-hash-key';
    const node = await spawnNode({ args: ['--admin-api-key-hash', sha256(key).toUpperCase()] });
    try {
      expect(authorised(await postJson(node.adminUrl, call, { 'x-api-key': key }))).toBe(true);
    } finally {
      await node.stop();
    }
  });

  it('refuses to start on a stored hash that is not 64 hex digits, saying what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'l2node-auth-bad-'));
    const file = join(dir, 'admin', 'api_key_hash');
    await spawnNode({ args: ['--data-directory', dir] }).then((n) => n.stop());
    writeFileSync(file, 'not-a-hash');
    await expect(spawnNode({ args: ['--data-directory', dir], readyTimeoutMs: 10_000 })).rejects.toThrow(
      /is not 64 lowercase hex digits: restore it, or start with --reset-admin-api-key/,
    );
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('--disable-admin-api-key', () => {
  it('serves admin requests without a key, with a loud warning and no banner', async () => {
    const node = await spawnNode({ args: ['--disable-admin-api-key'] });
    try {
      expect(node.adminKey).toBeUndefined();
      expect(node.logs().some((l) => l.level === 40 && /AUTHENTICATION IS DISABLED/.test(l.msg ?? ''))).toBe(true);
      expect(authorised(await postJson(node.adminUrl, call))).toBe(true);
    } finally {
      await node.stop();
    }
  });
});
