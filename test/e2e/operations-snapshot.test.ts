import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../src/core/aztec-address.js';
import { Fr } from '../../src/core/fr.js';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import type { TxBuilder } from '../../src/core/tx/tx-builder.js';
import { devTxBuilder, genesisHeader, prefundedFlag } from '../helpers/mempool-e2e.js';
import { admin, adminOk, pub, status } from '../helpers/operations-e2e.js';
import { postJson, type RunningNode, rpc, spawnNode, spawnNodeProcess } from '../helpers/spawn-node.js';
import { until } from '../helpers/until.js';

/**
 * Snapshots end to end: a dev node uploads a snapshot of its database while txs flow (to a directory, and by
 * HTTP PUT to a server that holds the upload until told); a node started on an empty data directory with
 * --snapshot-url comes up at the snapshot's tip with the same blocks and world state, and keeps building; an
 * occupied data directory and an incompatible snapshot are refused.
 */
const PAYER = new AztecAddress(0x5a9n);
const FUNDED = [{ address: PAYER, amount: 10n ** 24n }];
// proven and finalized stay at genesis (proof delay of an hour): the tips of both nodes are comparable.
const CHAIN_ARGS = [
  ...['--prefunded-accounts', prefundedFlag(FUNDED), '--sequencer-mode', 'on-demand'],
  ...['--slot-duration', '1', '--proof-delay', '3600'],
];
let root: string;
let source: RunningNode;
let builder: TxBuilder;
let maxFee: bigint;
let nonce = 0n;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'l2node-snapshots-'));
  source = await spawnNode({ args: [...CHAIN_ARGS, '--data-directory', join(root, 'source')] });
  builder = devTxBuilder(genesisHeader(FUNDED));
  maxFee = 2n * BigInt((await pub<{ feePerL2Gas: string }>(source, 'node_getCurrentMinFees')).feePerL2Gas);
});
afterAll(async () => {
  await source?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function sendTo(node: RunningNode): Promise<string> {
  const tx = builder.build({
    feePayer: PAYER,
    txRequestHash: new Fr(++nonce + 9_000_000n),
    maxFeesPerGas: new GasFees(0n, maxFee),
  });
  const a = (await postJson(node.publicUrl, rpc('node_sendTx', [tx.toJSON()]))).body as { error?: unknown };
  expect(a.error).toBeUndefined();
  return tx.txHash.toString();
}

/** Sends txs one after another until stopped; resolves with how many. */
function txFlow(node: RunningNode): { stop: () => Promise<number> } {
  let stopped = false;
  let sent = 0;
  const loop = (async () => {
    while (!stopped) {
      await sendTo(node);
      sent++;
      await new Promise((r) => setTimeout(r, 30));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return sent;
    },
  };
}

async function lastSnapshot(node: RunningNode) {
  return until('the snapshot upload to finish', async () => {
    const s = (await status(node)).snapshot;
    return !s.running && s.last ? s.last : undefined;
  });
}

/** A tiny object store: PUT stores, GET serves; PUTs wait while `hold` is set. */
class PutServer {
  readonly files = new Map<string, Buffer>();
  hold: Promise<void> | undefined;
  private readonly server: Server;
  url = '';

  constructor() {
    this.server = createServer(async (req, res) => {
      const body = await read(req);
      if (req.method === 'PUT') {
        await this.hold;
        this.files.set(req.url as string, body);
        res.writeHead(201).end();
      } else {
        const file = this.files.get(req.url as string);
        if (file) res.writeHead(200).end(file);
        else res.writeHead(404).end();
      }
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function read(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

let indexUrl: string;
let snapshotBlock: { number: number; hash: string };

describe('nodeAdmin_startSnapshotUpload', () => {
  it('returns at once and uploads a consistent copy in the background while txs flow', async () => {
    const flow = txFlow(source);
    try {
      await until('a few blocks with txs', async () =>
        (await pub<number>(source, 'node_getBlockNumber')) >= 3 ? true : undefined,
      );
      const location = pathToFileURL(join(root, 'store')).href;
      const started = Date.now();
      expect(await adminOk(source, 'nodeAdmin_startSnapshotUpload', [location])).toBeNull();
      expect(Date.now() - started).toBeLessThan(2_000);
      const last = await lastSnapshot(source);
      expect(last, last.error).toMatchObject({ ok: true, indexUrl: `${location}/l2node-31337-1/index.json` });
      indexUrl = last.indexUrl as string;
      snapshotBlock = { number: last.blockNumber as number, hash: last.blockHash as string };
    } finally {
      expect(await flow.stop()).toBeGreaterThan(3);
    }
    const index = JSON.parse(readFileSync(fileURLToPath(indexUrl), 'utf8'));
    expect(index).toMatchObject({
      l1ChainId: 31337,
      rollupVersion: 1,
      snapshots: [{ l2BlockNumber: snapshotBlock.number }],
    });
    expect(index.snapshots[0].l2BlockHash).toBe(snapshotBlock.hash);
    expect(index.snapshots[0].dataUrls.database).toMatch(
      /\/l2node-31337-1\/database-\d{14}-0x[0-9a-f]{64}-[0-9a-f]{16}\.db\.gz$/,
    );
    // The source built on while the copy was made and uploaded: only the copy was paused.
    expect((await status(source)).sync.state).toBe('synced');
  });

  it('PUTs to an http(s) location, and refuses a second upload while one runs', async () => {
    const server = new PutServer();
    await server.start();
    let release = () => {};
    server.hold = new Promise((r) => {
      release = r;
    });
    try {
      await adminOk(source, 'nodeAdmin_startSnapshotUpload', [`${server.url}/snaps`]);
      await until('the upload to reach the server', async () =>
        (await status(source)).snapshot.phase === 'uploading' ? true : undefined,
      );
      const second = await admin(source, 'nodeAdmin_startSnapshotUpload', [pathToFileURL(join(root, 'other')).href]);
      expect(second.error).toMatchObject({ code: -32005, data: { code: 'INVALID_STATE' } });
      expect(second.error?.message).toMatch(/^Snapshot upload already in progress/);
      release();
      const last = await lastSnapshot(source);
      expect(last).toMatchObject({ ok: true, indexUrl: `${server.url}/snaps/l2node-31337-1/index.json` });
      const index = JSON.parse((server.files.get('/snaps/l2node-31337-1/index.json') as Buffer).toString());
      const data = index.snapshots[0].dataUrls.database as string;
      expect(server.files.get(new URL(data).pathname)?.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    } finally {
      release();
      await server.stop();
    }
  });

  it('refuses a location it cannot write to, naming the scheme', async () => {
    const a = await admin(source, 'nodeAdmin_startSnapshotUpload', ['ftp://bucket/path']);
    expect(a.error?.code).toBe(-32602);
    expect(a.error?.message).toMatch(/unsupported scheme ftp:\/\//);
  });
});

describe('--snapshot-url', () => {
  it('starts an empty data directory at the snapshot tip, with the same blocks and world state, and builds on', async () => {
    const restored = await spawnNode({
      args: [...CHAIN_ARGS, '--data-directory', join(root, 'restored'), '--snapshot-url', indexUrl],
    });
    try {
      const tips = await pub<Record<string, { number?: number; hash?: string; block?: { number: number } }>>(
        restored,
        'node_getL2Tips',
      );
      expect(tips.proposed).toEqual(snapshotBlock);
      expect(tips.checkpointed?.block?.number).toBeLessThanOrEqual(snapshotBlock.number);
      expect(tips.proven?.block?.number).toBe(0);
      expect(tips.finalized?.block?.number).toBe(0);
      const n = snapshotBlock.number;
      const reads = (node: RunningNode, at: number | 'latest') =>
        Promise.all([
          pub(node, 'node_getBlockHeader', [at]),
          pub(node, 'node_getArchiveSiblingPath', [at, String(n)]),
          pub(node, 'node_getNullifierSiblingPath', [at, '130']),
          pub(node, 'node_getPublicDataSiblingPath', [at, '0']),
          pub(node, 'node_getBlock', [at]),
        ]);
      expect(await reads(restored, 'latest')).toEqual(await reads(source, n));
      const ws = await pub<{ latestBlockHash: string }>(restored, 'node_getWorldStateSyncStatus');
      expect(ws.latestBlockHash).toBe(snapshotBlock.hash);
      // The pool's txs are not part of a snapshot.
      expect(await pub(restored, 'node_getPendingTxCount')).toBe(0);

      const hash = await sendTo(restored);
      const receipt = await until('the restored node to mine a tx', async () => {
        const r = await pub<{ status: string; blockNumber?: number }>(restored, 'node_getTxReceipt', [hash]);
        return r.status === 'pending' ? undefined : r;
      });
      expect(receipt.blockNumber).toBe(n + 1);
    } finally {
      await restored.stop();
    }
  });

  it('refuses a data directory that is not empty, and a snapshot of another chain', async () => {
    const occupied = join(root, 'occupied');
    mkdirSync(occupied, { recursive: true });
    writeFileSync(join(occupied, 'notes.txt'), 'mine');
    const refusedDir = spawnNodeProcess({
      args: [...CHAIN_ARGS, '--data-directory', occupied, '--snapshot-url', indexUrl],
    });
    const other = spawnNodeProcess({
      args: [
        ...['--prefunded-accounts', prefundedFlag([{ address: new AztecAddress(0x77n), amount: 1n }])],
        ...['--data-directory', join(root, 'other-chain'), '--snapshot-url', indexUrl],
      ],
    });
    const [a, b] = await Promise.all([refusedDir.exited, other.exited]);
    expect(a.code).toBe(1);
    expect(refusedDir.stdout()).toMatch(
      /refusing to bootstrap .*occupied from a snapshot: it is not empty \(notes\.txt\)/,
    );
    expect(b.code).toBe(1);
    expect(other.stdout()).toMatch(
      /no snapshot in .*index\.json fits this node: block \d+: genesis 0x[0-9a-f]+ is not/,
    );
    expect(readFileSync(join(occupied, 'notes.txt'), 'utf8')).toBe('mine');
  });
});
