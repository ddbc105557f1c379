import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotIndex } from '../../src/daemon/snapshots/snapshot-index.js';
import { adminOk, pub, status } from '../helpers/operations-e2e.js';
import { type RunningNode, runCli, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * Snapshots to object stores over the real binary: an S3-compatible server (s3rver) on a loopback port stands in
 * for S3 (--snapshot-s3-endpoint) and for Google Cloud Storage's XML API (--snapshot-gcs-endpoint). A node
 * uploads with `admin snapshot upload --wait`, the bucket is listed and its file checked against the index, a
 * new node starts from the s3:// location, and uploads close together each keep a file matching their entry.
 */
// s3rver's own key pair: it refuses any other.
const KEY_ID = 'S3RVER';
const SECRET = 'S3RVER';
/**
 * The AWS environment of every node here: s3rver's key, and nothing that could send the SDK elsewhere (no
 * profile files, no instance metadata).
 */
const AWS_ENV = {
  AWS_ACCESS_KEY_ID: KEY_ID,
  AWS_SECRET_ACCESS_KEY: SECRET,
  AWS_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_CONFIG_FILE: '/nonexistent/aws-config',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
  AWS_PROFILE: undefined,
  AWS_SESSION_TOKEN: undefined,
  AWS_ENDPOINT_URL: undefined,
  AWS_ENDPOINT_URL_S3: undefined,
};
const CHAIN_ARGS = ['--sequencer-mode', 'on-demand', '--proof-delay', '3600'];

let root: string;
let server: S3rver;
let endpoint: string;
let s3: S3Client;
let source: RunningNode;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'l2node-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: join(root, 's3rver'),
    configureBuckets: [{ name: 'snapshots' }, { name: 'bucket' }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET },
  });
  source = await spawnNode({
    args: [...CHAIN_ARGS, '--data-directory', join(root, 'source'), ...endpointArgs()],
    env: AWS_ENV,
  });
  await adminOk(source, 'nodeDev_mineBlocks', [3]);
});
afterAll(async () => {
  await source?.stop();
  s3?.destroy();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

function endpointArgs(): string[] {
  return ['--snapshot-s3-endpoint', endpoint, '--snapshot-gcs-endpoint', endpoint];
}

/** `l2node admin snapshot upload <location> --wait --json` against the source node. */
async function uploadWithCli(location: string) {
  const out = await runCli([
    ...['admin', 'snapshot', 'upload', location, '--wait', '--json'],
    ...['--admin-url', source.adminUrl, '--api-key', source.adminKey as string],
  ]);
  return { ...out, json: JSON.parse(out.stdout) as { status: number; result?: Record<string, unknown> } };
}

async function keys(bucket: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (listed.Contents ?? []).map((o) => o.Key as string).sort();
}

async function object(bucket: string, key: string): Promise<Buffer> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await (out.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
}

async function index(bucket: string, key: string): Promise<SnapshotIndex> {
  return JSON.parse((await object(bucket, key)).toString('utf8')) as SnapshotIndex;
}

/** Every entry's data file is in the bucket with the entry's size and SHA-256. */
async function expectEntriesMatchTheirFiles(bucket: string, idx: SnapshotIndex): Promise<void> {
  for (const entry of idx.snapshots) {
    const url = new URL(entry.dataUrls.database);
    expect(url.protocol).toMatch(/^(s3|gs):$/);
    const bytes = await object(bucket, url.pathname.slice(1));
    expect(bytes.length).toBe(entry.sizes.database);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256.database);
  }
}

describe('s3:// snapshots (--snapshot-s3-endpoint)', () => {
  it('uploads with `admin snapshot upload --wait`, which prints the result; the bucket holds the index and file', async () => {
    const tip = await pub<number>(source, 'node_getBlockNumber');
    const out = await uploadWithCli('s3://snapshots/l2node');
    expect(out.code, out.stderr).toBe(0);
    expect(out.json.result).toMatchObject({
      ok: true,
      location: 's3://snapshots/l2node',
      indexUrl: 's3://snapshots/l2node/l2node-31337-1/index.json',
      blockNumber: tip,
    });
    const dataKey = new URL(out.json.result?.dataUrl as string).pathname.slice(1);
    expect(await keys('snapshots')).toEqual(['l2node/l2node-31337-1/index.json', dataKey].sort());
    const idx = await index('snapshots', 'l2node/l2node-31337-1/index.json');
    expect(idx.snapshots).toHaveLength(1);
    expect(idx.snapshots[0]).toMatchObject({ l2BlockNumber: tip, dataUrls: { database: out.json.result?.dataUrl } });
    await expectEntriesMatchTheirFiles('snapshots', idx);
    // The human form names the index a node starts from.
    const human = await runCli([
      ...['admin', 'snapshot', 'upload', 's3://snapshots/human', '--wait'],
      ...['--admin-url', source.adminUrl, '--api-key', source.adminKey as string],
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/index\s+s3:\/\/snapshots\/human\/l2node-31337-1\/index\.json/);
    expect(human.stdout).toContain('--snapshot-url s3://snapshots/human/l2node-31337-1/index.json');
  });

  it('keeps every index entry matching its own file when uploads of one block follow within a second', async () => {
    const folder = 'close/l2node-31337-1';
    // Uploads back to back until two landed in the same second (a data file's name carries its second).
    let sameSecond = false;
    for (let i = 0; i < 6 && !sameSecond; i++) {
      // The database changes between uploads but the chain does not: one block, other bytes each time.
      await pub(source, 'node_registerContractFunctionSignatures', [[`close${i}(Field)`]]);
      await adminOk(source, 'nodeAdmin_startSnapshotUpload', ['s3://snapshots/close']);
      await until('the upload to end', async () => ((await status(source)).snapshot.running ? undefined : true));
      const stamps = (await index('snapshots', `${folder}/index.json`)).snapshots.map(
        (s) => /database-(\d{14})-/.exec(s.dataUrls.database)?.[1],
      );
      sameSecond = new Set(stamps).size < stamps.length;
    }
    expect(sameSecond).toBe(true);
    const idx = await index('snapshots', `${folder}/index.json`);
    expect(new Set(idx.snapshots.map((s) => s.l2BlockHash)).size).toBe(1);
    expect(new Set(idx.snapshots.map((s) => s.dataUrls.database)).size).toBe(idx.snapshots.length);
    await expectEntriesMatchTheirFiles('snapshots', idx);
  });

  it('starts a new node from the s3:// location at the snapshot tip', async () => {
    const tips = await pub<{ proposed: { number: number; hash: string } }>(source, 'node_getL2Tips');
    const restored = await spawnNode({
      args: [
        ...[...CHAIN_ARGS, '--data-directory', join(root, 'restored'), ...endpointArgs()],
        ...['--snapshot-url', 's3://snapshots/l2node'],
      ],
      env: AWS_ENV,
    });
    try {
      const restoredTips = await pub<{ proposed: { number: number; hash: string } }>(restored, 'node_getL2Tips');
      expect(restoredTips.proposed).toEqual(tips.proposed);
      expect(await pub(restored, 'node_getBlockHeader', ['latest'])).toEqual(
        await pub(source, 'node_getBlockHeader', [tips.proposed.number]),
      );
    } finally {
      await restored.stop();
    }
  });

  it('--wait exits 1 with the reason of the store when the upload fails', async () => {
    const out = await uploadWithCli('s3://missing-bucket/l2node');
    expect(out.code).toBe(1);
    expect(out.json).toMatchObject({ status: 1, error: { code: 'SNAPSHOT_FAILED' } });
    expect(out.stdout).toMatch(
      /the snapshot upload to s3:\/\/missing-bucket\/l2node failed: PUT s3:\/\/missing-bucket\/.* \(NoSuchBucket, HTTP 404\)/,
    );
  });

  it('names the refusal of a wrong key without printing the key or the secret', async () => {
    const wrongId = 'AKIAWRONGKEYID123456';
    const wrongSecret = 'wrongSecretValue/abcdefghijklmnopqrstuvwx';
    const node = spawnNodeProcess({
      args: [
        ...[...CHAIN_ARGS, '--data-directory', join(root, 'wrong-key'), ...endpointArgs()],
        ...['--snapshot-url', 's3://snapshots/l2node'],
      ],
      env: { ...AWS_ENV, AWS_ACCESS_KEY_ID: wrongId, AWS_SECRET_ACCESS_KEY: wrongSecret },
    });
    const exit = await node.exited;
    expect(exit.code).toBe(1);
    expect(node.stdout()).toMatch(
      /cannot read the snapshot index s3:\/\/snapshots\/l2node\/.*InvalidAccessKeyId, HTTP 403/,
    );
    for (const text of [node.stdout(), node.stderr()]) {
      expect(text).not.toContain(wrongId);
      expect(text).not.toContain(wrongSecret);
    }
  });
});

describe('s3:// credentials: no request the operator did not ask for', () => {
  /**
   * A stand-in for the instance metadata service on loopback (the SDK's AWS_EC2_METADATA_SERVICE_ENDPOINT points
   * it there), counting what reaches it: without the opt-in the node must not ask it at all.
   */
  async function metadataStandIn(): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
    const { createServer } = await import('node:http');
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
  }

  it('without credentials the node names where it looked, and never asks the instance metadata service', async () => {
    const imds = await metadataStandIn();
    const env = {
      ...AWS_ENV,
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      AWS_EC2_METADATA_DISABLED: undefined,
      AWS_EC2_METADATA_SERVICE_ENDPOINT: imds.url,
    };
    try {
      const node = spawnNodeProcess({
        args: [
          ...[...CHAIN_ARGS, '--data-directory', join(root, 'no-aws-key'), ...endpointArgs()],
          ...['--snapshot-url', 's3://snapshots/l2node'],
        ],
        env,
      });
      expect((await node.exited).code).toBe(1);
      expect(node.stdout()).toMatch(
        /no AWS credentials found; looked for AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY;/,
      );
      expect(node.stdout()).toMatch(/--snapshot-s3-metadata-credentials/);
      expect(imds.requests).toEqual([]);
      // Opted in, the node does ask it (here: the stand-in, which has no role for it).
      const optedIn = spawnNodeProcess({
        args: [
          ...[...CHAIN_ARGS, '--data-directory', join(root, 'no-aws-key-imds'), ...endpointArgs()],
          ...['--snapshot-url', 's3://snapshots/l2node', '--snapshot-s3-metadata-credentials', 'true'],
        ],
        env,
      });
      expect((await optedIn.exited).code).toBe(1);
      expect(imds.requests.length).toBeGreaterThan(0);
    } finally {
      await imds.close();
    }
  });
});

describe('gs:// snapshots (Google Cloud Storage through its S3-compatible API)', () => {
  it('uploads through the XML API endpoint with an HMAC key: the --help example as printed', async () => {
    const out = await runCli([
      ...['admin', 'snapshot', 'upload', 'gs://bucket/snapshots', '--json'],
      ...['--admin-url', source.adminUrl, '--api-key', source.adminKey as string],
    ]);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout).result).toEqual({ location: 'gs://bucket/snapshots' });
    const last = await until('the upload to end', async () => {
      const s = (await status(source)).snapshot;
      return s.running ? undefined : s.last;
    });
    expect(last).toMatchObject({ ok: true, indexUrl: 'gs://bucket/snapshots/l2node-31337-1/index.json' });
    await expectEntriesMatchTheirFiles('bucket', await index('bucket', 'snapshots/l2node-31337-1/index.json'));
  });

  it('says how to give gs:// a key when there is none', async () => {
    const node = spawnNodeProcess({
      args: [
        ...[...CHAIN_ARGS, '--data-directory', join(root, 'no-key'), ...endpointArgs()],
        ...['--snapshot-url', 'gs://bucket/snapshots'],
      ],
      env: { ...AWS_ENV, AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined },
    });
    expect((await node.exited).code).toBe(1);
    expect(node.stdout()).toMatch(/no credentials for gs:\/\/: .*HMAC key.*AWS_ACCESS_KEY_ID.*AWS_SECRET_ACCESS_KEY/);
  });
});
