import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_DATABASE_FILE } from '../../src/daemon/store/node-database.js';
import { postJson, type RunningNode, rpc, runCli, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * The data directory as the hostile tester found it (issue 16, items 1, 2 and 5), through the real binary: a
 * second node on a directory in use is refused naming the holder's pid and the first is unharmed; a directory
 * whose chain store and world state disagree is refused at start (never a TypeError) and repaired offline by
 * `l2node db rollback`; damaged files (random page patches, a zeroed block header, an empty file, a foreign file)
 * are refused at start and reported by `db check` as failures, never re-initialised.
 */
const ARGS = [
  '--disable-admin-api-key',
  '--slot-duration',
  '1',
  '--blocks-per-slot',
  '4',
  '--sequencer-mode',
  'interval',
  '--min-txs-per-block',
  '0',
];
const dirs: string[] = [];
let template: string;
let templateTip: number;

function newDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'l2node-datadir-'));
  dirs.push(d);
  return d;
}

const start = (dir: string) => spawnNode({ args: [...ARGS, '--data-directory', dir] });
const blockNumber = async (url: string) =>
  ((await postJson(url, rpc('node_getBlockNumber'))).body as { result: number }).result;
const dbCheck = async (dir: string) => {
  const r = await runCli(['db', 'check', '--data-directory', dir, '--json']);
  return {
    code: r.code,
    json: JSON.parse(r.stdout) as {
      status: number;
      error?: { code: string; message: string; actions: string[]; data?: { checks: { name: string; ok: boolean }[] } };
    },
  };
};
/** A copy of the template data directory (a stopped node's, blocks 1..templateTip). */
function copyOfTemplate(): string {
  const d = newDir();
  copyFileSync(join(template, NODE_DATABASE_FILE), join(d, NODE_DATABASE_FILE));
  return d;
}
/** Starts a node expected to refuse the directory; returns its exit code and everything it printed. */
async function refusedStart(dir: string): Promise<{ code: number | null; out: string }> {
  const p = spawnNodeProcess({ args: [...ARGS, '--data-directory', dir] });
  const exit = await p.exited;
  return { code: exit.code, out: p.stdout() + p.stderr() };
}

let first: RunningNode;
let shared: string;

beforeAll(async () => {
  shared = newDir();
  first = await start(shared);
  await until('6 blocks', async () => ((await blockNumber(first.publicUrl)) >= 6 ? true : undefined));
}, 60_000);
afterAll(async () => {
  await first?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('one node per data directory (item 1)', () => {
  it('refuses a second node naming the holder pid, and the first keeps serving unharmed', async () => {
    const before = await blockNumber(first.publicUrl);
    const second = await refusedStart(shared);
    expect(second.code).toBe(1);
    expect(second.out).toContain(`is in use by process ${first.pid} (l2node start`);
    expect(second.out).not.toMatch(/UNIQUE constraint failed|TypeError/);
    await until('the first node to build on', async () =>
      (await blockNumber(first.publicUrl)) > before ? true : undefined,
    );
  });

  it('refuses an offline db rollback while the node runs; read-only db check still works', async () => {
    const r = await runCli(['db', 'rollback', '1', '--data-directory', shared, '--json']);
    expect(r.code).toBe(1);
    const env = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(env.error.code).toBe('DATA_DIRECTORY_LOCKED');
    expect(env.error.message).toContain(`process ${first.pid}`);
    const check = await dbCheck(shared);
    expect(check.code).toBe(0);
  });

  it('rolls back through the one node that runs, leaving a directory that checks clean and starts again', async () => {
    const r = await postJson(first.adminUrl, rpc('nodeAdmin_rollbackTo', [3, true]));
    expect((r.body as { error?: unknown }).error).toBeUndefined();
    await first.stop();
    expect((await dbCheck(shared)).code).toBe(0);
    template = newDir();
    copyFileSync(join(shared, NODE_DATABASE_FILE), join(template, NODE_DATABASE_FILE));
    const db = new Database(join(template, NODE_DATABASE_FILE), { readonly: true });
    templateTip = db.prepare('SELECT MAX(number) FROM chain_block').pluck().get() as number;
    db.close();
    expect(templateTip).toBeGreaterThanOrEqual(3);
    const again = await start(shared);
    expect(await blockNumber(again.publicUrl)).toBeGreaterThanOrEqual(3);
    await again.stop();
  }, 60_000);
});

describe('offline repair (item 2)', () => {
  it('refuses a directory whose stores disagree with the repair command, and db rollback repairs it', async () => {
    const d = copyOfTemplate();
    // The state two nodes on one directory left: the chain store behind the world state and its checkpoints.
    const db = new Database(join(d, NODE_DATABASE_FILE));
    db.prepare('DELETE FROM chain_block WHERE number > ?').run(templateTip - 2);
    db.close();
    const refused = await refusedStart(d);
    expect(refused.code).toBe(1);
    expect(refused.out).not.toContain('TypeError');
    expect(refused.out).toContain(`l2node db rollback ${templateTip - 2} --data-directory ${d}`);
    const check = await dbCheck(d);
    expect(check.code).toBe(1);
    expect(check.json.error?.code).toBe('DB_CHECK_FAILED');
    expect(check.json.error?.actions.join(' ')).toContain(
      `l2node db rollback ${templateTip - 2} --data-directory ${d}`,
    );
    const repair = await runCli(['db', 'rollback', String(templateTip - 2), '--data-directory', d, '--json']);
    expect(repair.code, repair.stdout + repair.stderr).toBe(0);
    expect(JSON.parse(repair.stdout).result).toMatchObject({ targetBlockNumber: templateTip - 2, rederived: true });
    expect((await dbCheck(d)).code).toBe(0);
    const node = await start(d);
    expect(await blockNumber(node.publicUrl)).toBeGreaterThanOrEqual(templateTip - 2);
    await node.stop();
  }, 60_000);
});

describe('corruption is detected (item 5)', () => {
  const expectRefusedAndReported = async (d: string, startMessage: RegExp, checkName: RegExp) => {
    const refused = await refusedStart(d);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(startMessage);
    expect(refused.out).not.toMatch(/TypeError|chain open at block/);
    const check = await dbCheck(d);
    expect(check.code).toBe(1);
    expect(check.json.error?.code).toBe('DB_CHECK_FAILED');
    expect(check.json.error?.data?.checks.find((c) => !c.ok)?.name).toMatch(checkName);
  };

  it('random page patches: refused at start, reported by db check', async () => {
    const d = copyOfTemplate();
    const file = join(d, NODE_DATABASE_FILE);
    const pages = Math.floor(statSync(file).size / 4096);
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const fd = openSync(file, 'r+');
    for (let i = 0; i < 12; i++) {
      const page = 1 + Math.floor(random() * (pages - 1));
      writeSync(fd, Buffer.from(Array.from({ length: 64 }, () => Math.floor(random() * 256))), 0, 64, page * 4096);
    }
    closeSync(fd);
    await expectRefusedAndReported(d, /is damaged and was not opened/, /^(sqlite integrity|database file)$/);
  }, 30_000);

  it('a block header zeroed in place: refused at start, reported by db check, with the repair named', async () => {
    const d = copyOfTemplate();
    const db = new Database(join(d, NODE_DATABASE_FILE));
    db.prepare('UPDATE chain_block SET header = zeroblob(length(header)) WHERE number = ?').run(templateTip - 1);
    db.close();
    await expectRefusedAndReported(d, /block headers fail their hash check \(block \d+: its header/, /^chain blocks$/);
    const check = await dbCheck(d);
    expect(check.json.error?.actions.join(' ')).toContain(`l2node db rollback ${templateTip - 2}`);
  }, 30_000);

  it('an empty database file: refused, never re-initialised as a new chain', async () => {
    const d = newDir();
    writeFileSync(join(d, NODE_DATABASE_FILE), '');
    await expectRefusedAndReported(d, /is an empty file \(0 bytes\), not a node database/, /^database file$/);
    expect(statSync(join(d, NODE_DATABASE_FILE)).size).toBe(0);
  }, 30_000);

  it('a foreign file: refused, left as it was', async () => {
    const d = newDir();
    writeFileSync(join(d, NODE_DATABASE_FILE), 'my notes, not a database\n'.repeat(100));
    await expectRefusedAndReported(d, /is not an SQLite database/, /^database file$/);
    expect(readFileSync(join(d, NODE_DATABASE_FILE), 'utf8')).toMatch(/^my notes/);
  }, 30_000);
});
