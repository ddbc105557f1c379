/**
 * The first requests a node gets, sent the moment it logs "rpc listening" (bench/startup), answer as the same
 * requests do once it has run a while: the statements of the store are prepared on their first use and each
 * method's dispatcher entry is built on its first call (docs/architecture.md, the start sequence), and none of
 * that may show in an answer. A request that races the last step of the start (a service started after the
 * listeners) gets the answer it always got: GET /status 503 and NOT_READY, `starting`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPONSORED_FPC } from '../../src/core/contract/sponsored-fpc.js';
import { postJson, rpc, type SpawnedProcess, spawnNodeProcess } from '../helpers/spawn-node.js';

const PUBLIC_BATCH = [
  rpc('node_getBlockNumber', [], 1),
  rpc('node_getL2Tips', [], 2),
  rpc('node_getBlockHeader', [0], 3),
  rpc('node_getContract', [SPONSORED_FPC.address.toString()], 4),
  rpc('node_getCurrentMinFees', [], 5),
  rpc('node_getPendingTxCount', [], 6),
  rpc('node_getNodeInfo', [], 7),
  rpc('node_getWorldStateSyncStatus', [], 8),
  rpc('node_getBlockNumbr', [], 9),
  rpc('nodeAdmin_getConfig', [], 10),
];
const ADMIN_BATCH = [rpc('nodeAdmin_getConfig', [], 1), rpc('node_getBlockNumber', [], 2)];

type Answer = { id: number; result?: unknown; error?: { code: number; message: string } };

/** Each answer of a batch by id. */
async function batch(url: string, body: unknown[]): Promise<Map<number, Answer>> {
  const res = await postJson(url, body);
  expect(res.status).toBe(200);
  return new Map((res.body as Answer[]).map((a) => [a.id, a]));
}

async function status(url: string): Promise<{ code: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/status`);
  return { code: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** An answer given while the node was still starting: the one it always gave then. */
function startingRefusal(a: Answer | undefined): boolean {
  return a?.error !== undefined && /starting/.test(a.error.message);
}

describe('the first requests after the listeners open', () => {
  let node: SpawnedProcess;
  let publicUrl: string;
  let adminUrl: string;
  let early: { status: Awaited<ReturnType<typeof status>>; pub: Map<number, Answer>; admin: Map<number, Answer> };

  beforeAll(async () => {
    node = spawnNodeProcess({ args: ['--disable-admin-api-key'] });
    const listening = await node.waitForLog((l) => l.msg === 'rpc listening');
    publicUrl = String(listening.publicUrl);
    adminUrl = String(listening.adminUrl);
    // All at once, before anything else reached the node.
    const [s, pub, admin] = await Promise.all([
      status(publicUrl),
      batch(publicUrl, PUBLIC_BATCH),
      batch(adminUrl, ADMIN_BATCH),
    ]);
    early = { status: s, pub, admin };
    await node.waitForLog((l) => l.msg === 'node running');
  });
  afterAll(async () => {
    await node.stop();
  });

  it('answer as the same requests later: results, errors and GET /status', async () => {
    const [s, pub, admin] = await Promise.all([
      status(publicUrl),
      batch(publicUrl, PUBLIC_BATCH),
      batch(adminUrl, ADMIN_BATCH),
    ]);
    expect(s.code).toBe(200);
    expect(s.body.status).toBe('ok');
    if (early.status.code === 200) {
      expect({ ...early.status.body, eventLoopLagMs: 0 }).toEqual({ ...s.body, eventLoopLagMs: 0 });
    } else {
      expect(early.status).toMatchObject({ code: 503, body: { state: 'starting' } });
    }
    // The later answers are the node's usual ones: a typo and a method of the other listener are refused.
    expect(pub.get(1)?.result).toBe(0);
    expect(pub.get(4)?.result).toMatchObject({ address: SPONSORED_FPC.address.toString() });
    expect(pub.get(9)?.error?.code).toBe(-32601);
    expect(pub.get(10)?.error?.message).toMatch(/served on the admin listener/);
    expect(admin.get(2)?.error?.message).toMatch(/served on the public listener/);
    for (const [later, first] of [
      [pub, early.pub],
      [admin, early.admin],
    ] as const) {
      for (const [id, answer] of later) {
        const got = first.get(id);
        if (startingRefusal(got)) continue;
        expect(got, `request ${id}`).toEqual(answer);
      }
    }
  });
});
