import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, type Envelope, envelopeOf, l2node, shapeOf } from '../helpers/cli.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';

/**
 * The offline `db` commands on the data directory of one spawned node, while it runs (they open the database
 * read-only, beside the node's writes): stats, check (SQLite's checks and the cross-checks between chain store,
 * world state and mempool, also on a copy tampered with), backup.
 */
let node: RunningNode;
let dataDirectory: string;
let scratch: string;

const cli = (args: readonly string[]) => l2node(args);

async function both(args: readonly string[], code = 0): Promise<{ human: CliRun; json: Envelope }> {
  const [human, jsonRun] = await Promise.all([cli(args), cli([...args, '--json'])]);
  expect(human.code, `${args.join(' ')}: ${human.stderr}`).toBe(code);
  expect(jsonRun.code).toBe(code);
  const json = envelopeOf(jsonRun);
  expect(json.status).toBe(code);
  return { human, json };
}

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'l2node-cli-db-'));
  scratch = mkdtempSync(join(tmpdir(), 'l2node-cli-db-scratch-'));
  node = await spawnNode({ args: ['--data-directory', dataDirectory, '--sequencer-mode', 'on-demand'] });
  const env = { NODE_URL: node.publicUrl };
  for (const n of ['0x11', '0x12']) {
    const built = await l2node(['tx', 'build', '--note-hash', n], { env });
    const sent = await l2node(['tx', 'send', '-', '--wait', 'proposed'], { env, input: built.stdout });
    expect(sent.code, sent.stderr).toBe(0);
  }
});
afterAll(async () => {
  await node?.stop();
  rmSync(dataDirectory, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('db stats', () => {
  it('reports sizes, tips and rows per table of a running node database', async () => {
    const { human, json } = await both(['db', 'stats', '--data-directory', dataDirectory]);
    const r = json.result as {
      chain: { latestBlock: number; txs: number };
      worldState: { latestBlock: number };
      tables: { name: string; rows: number }[];
    };
    expect(r.chain.latestBlock).toBeGreaterThanOrEqual(2);
    expect(r.worldState.latestBlock).toBe(r.chain.latestBlock);
    expect(r.chain.txs).toBe(2);
    expect(r.tables.find((t) => t.name === 'chain_block')?.rows).toBe(r.chain.latestBlock);
    expect(human.stdout).toMatch(/^database\s+.*l2node\.sqlite$/m);
    expect(human.stdout).toMatch(/^chain_block\s+\d+/m);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('takes the directory from NODE_DATA_DIRECTORY too', async () => {
    const run = await l2node(['db', 'stats', '--json'], { env: { NODE_DATA_DIRECTORY: dataDirectory } });
    expect(run.code).toBe(0);
  });

  it('a directory without a node database exits 4; no directory at all exits 2', async () => {
    const { human } = await both(['db', 'stats', '--data-directory', scratch], 4);
    expect(human.stderr).toContain(`no node database at ${join(scratch, 'l2node.sqlite')}`);
    const { json } = await both(['db', 'stats'], 2);
    expect(json.error?.message).toMatch(/data-directory/);
  });
});

describe('db check', () => {
  it('passes every check on the live database', async () => {
    const { human, json } = await both(['db', 'check', '--data-directory', dataDirectory]);
    const checks = (json.result as { checks: { name: string; ok: boolean }[] }).checks;
    expect(checks.map((c) => c.name)).toEqual([
      'sqlite integrity',
      'foreign keys',
      'schema',
      'chain blocks',
      'world state vs chain',
      'tx effects',
      'checkpoints',
      'mempool',
      'not checked',
    ]);
    expect(checks.every((c) => c.ok)).toBe(true);
    expect(human.stdout).toMatch(/not checked\s+the records themselves .*--full/);
    expect(human.stdout).toMatch(/^ok\s+world state vs chain\s+both at block \d+, every block hash agrees$/m);
    expect(shapeOf(json.result)).toMatchSnapshot();
  });

  it('fails (exit 1) on a copy whose world state disagrees with the chain, naming the check', async () => {
    const copy = join(scratch, 'tampered');
    mkdirSync(copy, { recursive: true });
    const backup = await cli(['db', 'backup', join(copy, 'l2node.sqlite'), '--data-directory', dataDirectory]);
    expect(backup.code, backup.stderr).toBe(0);
    const db = new Database(join(copy, 'l2node.sqlite'));
    db.prepare('UPDATE ws_block SET hash = zeroblob(32) WHERE block = 1').run();
    db.prepare('DELETE FROM chain_tx WHERE id = (SELECT MAX(id) FROM chain_tx)').run();
    db.close();
    const { human, json } = await both(['db', 'check', '--data-directory', copy], 1);
    expect(json.error?.code).toBe('DB_CHECK_FAILED');
    const { checks } = (json.error?.data ?? { checks: [] }) as {
      checks: { name: string; ok: boolean; detail: string }[];
    };
    expect(checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['world state vs chain', 'tx effects']);
    expect(human.stdout).toMatch(/^FAIL\s+world state vs chain\s+1 blocks hash differently/m);
    expect(human.stderr).toMatch(/2 of 9 checks failed on .*: world state vs chain, tx effects/);
  });
});

describe('db backup', () => {
  it('copies the database consistently while the node runs, into a file or a directory', async () => {
    const file = join(scratch, 'backup.sqlite');
    const dir = join(scratch, 'restore');
    mkdirSync(dir);
    const [human, jsonRun] = await Promise.all([
      cli(['db', 'backup', file, '--data-directory', dataDirectory]),
      cli(['db', 'backup', dir, '--data-directory', dataDirectory, '--json']),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^quick_check\s+ok$/m);
    const json = envelopeOf(jsonRun);
    expect(json.status).toBe(0);
    expect((json.result as { destination: string }).destination).toBe(join(dir, 'l2node.sqlite'));
    expect(shapeOf(json.result)).toMatchSnapshot();
    // The copy is a node database in its own right.
    const check = await cli(['db', 'check', '--data-directory', dir]);
    expect(check.code, check.stdout).toBe(0);
  });

  it('keeps an existing destination unless --force (exit 2)', async () => {
    const file = join(scratch, 'existing.sqlite');
    copyFileSync(join(dataDirectory, 'l2node.sqlite'), file);
    const { json } = await both(['db', 'backup', file, '--data-directory', dataDirectory], 2);
    expect(json.error?.message).toContain('--force');
    expect((await cli(['db', 'backup', file, '--data-directory', dataDirectory, '--force'])).code).toBe(0);
    expect(existsSync(file)).toBe(true);
  });
});
