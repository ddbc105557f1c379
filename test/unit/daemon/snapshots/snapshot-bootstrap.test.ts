import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHex64 } from '../../../../src/core/fr.js';
import { bootstrapFromSnapshot } from '../../../../src/daemon/snapshots/snapshot-bootstrap.js';
import type { SnapshotIndex } from '../../../../src/daemon/snapshots/snapshot-index.js';
import { SnapshotUploader } from '../../../../src/daemon/snapshots/snapshot-uploader.js';
import { NODE_DATABASE_FILE, openNodeDatabase } from '../../../../src/daemon/store/node-database.js';
import { type DevChain, startDevChain } from '../chain/dev-chain-fixture.js';

const log = pino({ level: 'silent' });
let root: string;
let dev: DevChain;
let location: string;
let indexPath: string;

// No test here reaches an object store: the endpoints are loopback ports nothing listens on.
const objectStores = { s3Endpoint: 'http://127.0.0.1:9', gcsEndpoint: 'http://127.0.0.1:9' };

/** An uploader of the dev chain's database, for a node whose data directory is `dataDirectory`. */
function uploaderFor(dataDirectory: string, now: () => number = () => Date.now()): SnapshotUploader {
  return new SnapshotUploader({
    db: dev.db,
    chain: dev.service.chain,
    l1ChainId: 31337,
    rollupVersion: 1,
    dataDirectory,
    uploadRoots: undefined,
    objectStores,
    whilePaused: (copy) => copy(),
    now,
    log,
    onStatus: () => {},
  });
}

/** Uploads a snapshot of the dev chain's database and waits for the result. */
async function snapshot(): Promise<void> {
  const uploader = uploaderFor(join(root, 'source'));
  await uploader.start(location);
  await uploader.idle();
  const last = uploader.status().last;
  if (!last?.ok) throw new Error(`snapshot failed: ${last?.ok === false ? last.error : 'no result'}`);
}

const options = (dataDirectory: string, overrides: object = {}) => ({
  snapshotUrl: location,
  dataDirectory,
  l1ChainId: 31337,
  rollupVersion: 1,
  objectStores,
  genesisBlockHash: () => dev.service.worldState.getGenesisBlockHash(),
  log,
  ...overrides,
});

const readIndex = () => JSON.parse(readFileSync(indexPath, 'utf8')) as SnapshotIndex;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'l2node-bootstrap-'));
  location = pathToFileURL(join(root, 'store')).href;
  indexPath = join(root, 'store', 'l2node-31337-1', 'index.json');
  dev = await startDevChain({ 'min-txs-per-block': '0' }, join(root, 'source', NODE_DATABASE_FILE));
  dev.advanceBlocks(3);
  await snapshot();
  dev.advanceBlocks(3);
  await snapshot();
});
afterAll(async () => {
  await dev?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('bootstrapFromSnapshot', () => {
  it('restores the newest snapshot: the database opens at its tip, with its blocks and world state', async () => {
    const index = readIndex();
    // Two snapshots, the newest first (the index is prepended to).
    const [first, second] = index.snapshots.map((s) => s.l2BlockNumber);
    expect(index.snapshots).toHaveLength(2);
    expect(first).toBeGreaterThan(second as number);
    const newest = index.snapshots[0];
    const dir = join(root, 'restored');
    const result = await bootstrapFromSnapshot(options(dir));
    expect(result).toMatchObject({ blockNumber: newest?.l2BlockNumber, blockHash: newest?.l2BlockHash });
    expect(readdirSync(dir)).toEqual([NODE_DATABASE_FILE]);
    const db = openNodeDatabase(join(dir, NODE_DATABASE_FILE));
    try {
      const row = db.prepare('SELECT hash FROM chain_block WHERE number = ?').get(result.blockNumber) as {
        hash: Buffer;
      };
      expect(`0x${row.hash.toString('hex')}`).toBe(result.blockHash);
      expect(toHex64(dev.service.chain.store.getBlockHash(result.blockNumber) as bigint)).toBe(result.blockHash);
    } finally {
      db.close();
    }
  });

  it('skips a snapshot whose download does not match the index, and takes the next one', async () => {
    const good = readFileSync(indexPath, 'utf8');
    const index = readIndex();
    const broken: SnapshotIndex = {
      ...index,
      snapshots: [
        { ...(index.snapshots[0] as SnapshotIndex['snapshots'][number]), sha256: { database: 'ab'.repeat(32) } },
        ...index.snapshots.slice(1),
      ],
    };
    writeFileSync(indexPath, JSON.stringify(broken));
    try {
      const result = await bootstrapFromSnapshot(options(join(root, 'fallback')));
      expect(result.blockNumber).toBe(index.snapshots[1]?.l2BlockNumber);
    } finally {
      writeFileSync(indexPath, good);
    }
  });

  it('refuses snapshots of another genesis or with schema steps it does not know, saying why', async () => {
    await expect(bootstrapFromSnapshot(options(join(root, 'other'), { genesisBlockHash: () => 5n }))).rejects.toThrow(
      /no snapshot in .*index\.json fits this node: block \d+: genesis 0x[0-9a-f]{64} is not this node's 0x0+5/,
    );
    await expect(bootstrapFromSnapshot(options(join(root, 'other'), { l1ChainId: 1 }))).rejects.toThrow(
      /there is no snapshot index at .*l2node-1-1\/index\.json/,
    );
    const good = readFileSync(indexPath, 'utf8');
    const index = readIndex();
    writeFileSync(
      indexPath,
      JSON.stringify({
        ...index,
        snapshots: index.snapshots.map((s) => ({
          ...s,
          schemaVersions: { ...s.schemaVersions, migrations: [100, 9999] },
        })),
      }),
    );
    try {
      await expect(bootstrapFromSnapshot(options(join(root, 'other')))).rejects.toThrow(
        /schema steps 9999 are unknown to this l2node/,
      );
    } finally {
      writeFileSync(indexPath, good);
    }
    expect(existsSync(join(root, 'other', NODE_DATABASE_FILE))).toBe(false);
  });

  it('refuses a data directory that holds anything, and a node without one', async () => {
    const dir = join(root, 'busy');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, NODE_DATABASE_FILE), '');
    await expect(bootstrapFromSnapshot(options(dir))).rejects.toThrow(
      /refusing to bootstrap .*busy from a snapshot: it already holds a node database \(l2node\.sqlite\)/,
    );
    await expect(bootstrapFromSnapshot(options(undefined as unknown as string))).rejects.toThrow(
      /--snapshot-url needs --data-directory/,
    );
    expect(readFileSync(join(dir, NODE_DATABASE_FILE), 'utf8')).toBe('');
  });
});

describe('SnapshotUploader', () => {
  it('removes the temporary copy an interrupted upload left in the data directory', async () => {
    const dir = join(root, 'crashed');
    mkdirSync(join(dir, '.snapshot-x1y2z3'), { recursive: true });
    writeFileSync(join(dir, '.snapshot-x1y2z3', 'database.db'), 'half a copy');
    writeFileSync(join(dir, NODE_DATABASE_FILE), 'kept');
    const uploader = uploaderFor(dir);
    await uploader.removeLeftovers();
    expect(readdirSync(dir)).toEqual([NODE_DATABASE_FILE]);
  });

  it('refuses a second upload while one runs, and a location it cannot write to', async () => {
    const uploader = uploaderFor(join(root, 'source'));
    uploader.start(pathToFileURL(join(root, 'second')).href);
    expect(() => uploader.start(location)).toThrow(/^Snapshot upload already in progress \(to file:\/\/.*second/);
    await uploader.idle();
    expect(uploader.status()).toMatchObject({ running: false, last: { ok: true } });
    expect(() => uploader.start('ftp://bucket')).toThrow(/unsupported scheme ftp:\/\//);
  });

  it('refuses a gs:// upload without an HMAC key at once, saying how to give one (no request is sent)', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    try {
      const uploader = uploaderFor(join(root, 'source'));
      await expect(uploader.start('gs://bucket/snapshots')).rejects.toThrow(
        /^no credentials for gs:\/\/: .*HMAC key: .*gcloud storage hmac create.*AWS_ACCESS_KEY_ID.*AWS_SECRET_ACCESS_KEY/,
      );
      await uploader.idle();
      expect(uploader.status()).toEqual({ running: false });
    } finally {
      if (saved.id !== undefined) process.env.AWS_ACCESS_KEY_ID = saved.id;
      if (saved.secret !== undefined) process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    }
  });

  it('gives two uploads of one block in the same second their own files, each matching its index entry', async () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5, 600);
    const target = pathToFileURL(join(root, 'same-second')).href;
    const upload = async (ms: number) => {
      const uploader = uploaderFor(join(root, 'source'), () => at + ms);
      await uploader.start(target);
      await uploader.idle();
      expect(uploader.status().last).toMatchObject({ ok: true });
    };
    await upload(0);
    // The database changes (a signature registered) but the tip does not: same block, same second, other bytes.
    dev.db.prepare('INSERT INTO chain_function_signature (selector, signature) VALUES (?, ?)').run(77, 'same(Field)');
    await upload(300);
    const index = JSON.parse(
      readFileSync(join(root, 'same-second', 'l2node-31337-1', 'index.json'), 'utf8'),
    ) as SnapshotIndex;
    expect(index.snapshots).toHaveLength(2);
    const [a, b] = index.snapshots;
    expect(a?.l2BlockHash).toBe(b?.l2BlockHash);
    expect(a?.dataUrls.database).not.toBe(b?.dataUrls.database);
    for (const entry of index.snapshots) {
      const bytes = readFileSync(fileURLToPath(entry.dataUrls.database));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256.database);
      expect(bytes.length).toBe(entry.sizes.database);
    }
  });
});
