import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotFolder } from '../../src/daemon/snapshots/snapshot-index.js';
import { NODE_DATABASE_FILE } from '../../src/daemon/store/node-database.js';
import { postJson, type RunningNode, rpc, runCli, spawnNode } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * The hostile tester's requests (issue 16, items 4, 7, 8, 9) replayed against the real binary: a key sent in a
 * URL query never reaches a log line and `l2node config` redacts the key hash; snapshot destinations must exist
 * (or be one level under a directory that does) and contain no symlinks, and failures are in the node's words;
 * signature registrations are bounded in length, grammar and count; an id of 1e400 and an unknown log filter
 * key are refused.
 */
type Answer = { id: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };

let dir: string;
let node: RunningNode;
let key: string;
const scratch = mkdtempSync(join(tmpdir(), 'l2node-hostile-'));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'l2node-hostile-data-'));
  node = await spawnNode({
    args: [
      '--data-directory',
      dir,
      ...['--slot-duration', '1', '--blocks-per-slot', '4', '--sequencer-mode', 'interval', '--min-txs-per-block', '0'],
    ],
  });
  key = node.adminKey as string;
  expect(key).toMatch(/^[0-9a-f]{64}$/);
  await until('a block', async () => {
    const n = (await postJson(node.publicUrl, rpc('node_getBlockNumber'))).body as Answer;
    return (n.result as number) >= 1 ? true : undefined;
  });
}, 60_000);
afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const admin = (method: string, params: unknown[] = []) =>
  postJson(node.adminUrl, rpc(method, params), { 'x-api-key': key });

describe('secrets stay out of logs and output (item 7)', () => {
  it('refuses a key in a URL query and logs the path without it, in every line', async () => {
    const a = await postJson(`${node.adminUrl}/?x-api-key=${key}`, rpc('nodeAdmin_getConfig'));
    expect(a.status).toBe(401);
    const upgrade = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${node.adminUrl}/events?token=${key}`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('upgrade', (_res, socket) => {
        socket.destroy();
        resolve(101);
      });
      req.on('error', reject);
      req.end();
    });
    expect(upgrade).toBe(401);
    // A key sent where a hash goes (a param) is not logged either, even at the levels that log params.
    await postJson(node.publicUrl, rpc('node_getTxReceipt', [key]));
    const refused = await node.waitForLog((l) => String(l.msg).includes('event stream refused'));
    expect(refused.path).toBe('/events?<redacted>');
    expect(node.logs().find((l) => String(l.msg).includes('admin request refused'))?.path).toBe('/?<redacted>');
    const lines = node
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.filter((l) => l.includes(key))).toEqual([]);
    expect(node.stderr()).not.toContain(key);
  });

  it('`l2node config` redacts adminApiKeyHash, in text and JSON', async () => {
    const hash = 'ab'.repeat(32);
    const text = await runCli(['config', '--admin-api-key-hash', hash]);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain(hash);
    expect(text.stdout).toMatch(/adminApiKeyHash.*<redacted>/);
    const json = await runCli(['config', '--admin-api-key-hash', hash, '--json']);
    expect(json.stdout).not.toContain(hash);
  });
});

describe('snapshot destinations (item 8)', () => {
  const refusal = async (location: string) => {
    const a = await admin('nodeAdmin_startSnapshotUpload', [location]);
    return (a.body as Answer).error;
  };
  const lastUpload = () =>
    until('the upload to end', async () => {
      const s = (await (await fetch(`${node.publicUrl}/status`)).json()) as {
        snapshot: { running: boolean; last?: { ok: boolean; error?: string } };
      };
      return s.snapshot.running || !s.snapshot.last ? undefined : s.snapshot.last;
    });

  it('refuses a destination two levels below anything that exists, creating nothing', async () => {
    const deep = join(scratch, 'no', 'such', 'place');
    const error = await refusal(pathToFileURL(deep).href);
    expect(error?.code).toBe(-32005);
    expect(error?.message).toMatch(/does not exist, nor does its parent .*create the destination directory first/);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('refuses a symlinked destination', async () => {
    const real = join(scratch, 'real');
    mkdirSync(real);
    symlinkSync(real, join(scratch, 'link'));
    const error = await refusal(pathToFileURL(join(scratch, 'link')).href);
    expect(error?.message).toMatch(/link is a symbolic link: name the real directory/);
    expect(readdirSync(real)).toEqual([]);
  });

  it('never follows a symlink planted inside the destination, and says so in its own words', async () => {
    const target = join(scratch, 'target');
    const elsewhere = join(scratch, 'elsewhere');
    mkdirSync(target);
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(target, snapshotFolder(31337, 1)));
    expect(await refusal(pathToFileURL(target).href)).toBeUndefined();
    const last = await lastUpload();
    expect(last.ok).toBe(false);
    expect(last.error).toMatch(/is a symbolic link: refused/);
    expect(last.error).not.toMatch(/E[A-Z]{3,}:/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('creates one missing level under an existing directory', async () => {
    const fresh = join(scratch, 'fresh');
    expect(await refusal(pathToFileURL(fresh).href)).toBeUndefined();
    const last = await lastUpload();
    expect(last).toMatchObject({ ok: true });
    expect(readdirSync(fresh)).toEqual([snapshotFolder(31337, 1)]);
  }, 30_000);
});

describe('function signature registrations (item 4)', () => {
  const register = async (signatures: string[]) =>
    (await postJson(node.publicUrl, rpc('node_registerContractFunctionSignatures', [signatures]))).body as Answer;
  const rows = () => {
    const db = new Database(join(dir, NODE_DATABASE_FILE), { readonly: true });
    try {
      return db
        .prepare('SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(signature)), 0) AS bytes FROM chain_function_signature')
        .get() as {
        n: number;
        bytes: number;
      };
    } finally {
      db.close();
    }
  };

  it('refuses the flood of 100 x 10,000-character signatures, storing nothing', async () => {
    const before = rows();
    for (let call = 0; call < 5; call++) {
      const a = await register(Array.from({ length: 100 }, (_, i) => `f${call}_${i}(${'Field,'.repeat(1660)}Field)`));
      expect(a.error?.code).toBe(-32602);
      expect(a.error?.message).toMatch(/Signature 0 .* longer than 1024 characters/);
    }
    expect(rows()).toEqual(before);
  });

  it('refuses what is not a Noir signature, naming where', async () => {
    for (const bad of [
      'f(Field',
      'f(Field))',
      '1f(Field)',
      'f(<script>)',
      'f([Field;])',
      `f(${'('.repeat(40)}${')'.repeat(40)})`,
    ]) {
      const a = await register([bad]);
      expect(a.error?.code, bad).toBe(-32602);
      expect(a.error?.message).toMatch(/not a function signature/);
    }
    expect((await register(['transfer((Field),u128)', 'f([u8;32],str<31>,bool)', 'g()'])).error).toBeUndefined();
  });

  it('keeps at most 10,000 signatures, however many calls register them', async () => {
    for (let call = 0; call < 102; call++) {
      const a = await register(Array.from({ length: 100 }, (_, i) => `flood_${call}_${i}(Field,u128)`));
      expect(a.error).toBeUndefined();
    }
    const after = rows();
    expect(after.n).toBe(10_000);
    expect(after.bytes).toBeLessThan(10_000 * 1024);
  }, 60_000);
});

describe('smaller refusals (item 9)', () => {
  it('refuses an id of 1e400 as an invalid request instead of running it and answering id null', async () => {
    const a = await postJson(node.publicUrl, '{"jsonrpc":"2.0","id":1e400,"method":"node_getBlockNumber","params":[]}');
    const body = a.body as Answer;
    expect(body.error?.code).toBe(-32600);
    expect(body.error?.message).toMatch(/id is a number out of range/);
    expect(body.result).toBeUndefined();
  });

  it('refuses an unknown getPublicLogs filter key, naming it', async () => {
    const a = (await postJson(node.publicUrl, rpc('node_getPublicLogs', [{ fromblock: 1 }]))).body as Answer;
    expect(a.error?.code).toBe(-32602);
    expect(a.error?.message).toMatch(/unknown LogFilter key "fromblock"/);
    const ok = (await postJson(node.publicUrl, rpc('node_getPublicLogs', [{ fromBlock: 1 }]))).body as Answer;
    expect(ok.error).toBeUndefined();
  });
});
