import { readFileSync } from 'node:fs';
import {
  AztecNodeAdminApiSchema,
  AztecNodeApiSchema,
  createAztecNodeAdminClient,
  createAztecNodeClient,
} from '@aztec/stdlib/interfaces/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RPC_METHODS } from '../../src/rpc/method-table.js';
import { LISTENER_NAMESPACE, type RpcMethod } from '../../src/rpc/rpc-method.js';
import { initAztecOracle } from '../helpers/aztec-oracle.js';
import { postJson, type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { ADMIN_CASES, PUBLIC_CASES } from './conformance-cases.js';
import { type Callable, runCases } from './run-cases.js';

/**
 * The official Aztec 4.1.2 clients (`@aztec/stdlib`) against a node started as `npm start` starts it
 * (on free ports). They always send batches and parse every answer with their own zod schemas, so any
 * answer of ours they would reject fails here. Independent of our encoders on purpose: it checks them.
 */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
let node: RunningNode;

beforeAll(async () => {
  // The client hashes the txs it reads (getPendingTxs, getTxByHash) through bb.js.
  await initAztecOracle();
  node = await spawnNode();
});
afterAll(async () => {
  await node?.stop();
});

const methods = Object.values(RPC_METHODS) as RpcMethod[];
const short = (m: RpcMethod) => m.name.slice(LISTENER_NAMESPACE[m.listener].length + 1);
describe('the case lists', () => {
  it.each([
    ['public', PUBLIC_CASES, AztecNodeApiSchema],
    ['admin', ADMIN_CASES, AztecNodeAdminApiSchema],
  ] as const)('name %s methods that both the table (as "same") and 4.1.2 have', (listener, cases, schema) => {
    for (const c of cases) {
      const ours = methods.find((m) => m.listener === listener && short(m) === c.method);
      expect(ours, `${c.method} is not a ${listener} method of the table`).toBeDefined();
      expect(ours?.compat.aztec, `${c.method} differs from 4.1.2: the official client cannot judge it`).toBe('same');
      expect(Object.keys(schema)).toContain(c.method);
    }
  });

  it('cover every "same" method the node serves (bind a handler: add a case)', async () => {
    const candidates = methods.filter((m) => m.compat.aztec === 'same');
    const answers = await Promise.all(
      candidates.map(async (m) => {
        const url = m.listener === 'public' ? node.publicUrl : node.adminUrl;
        // Object params are refused before any handler runs, so probing never pauses sync or the like.
        const probe = { jsonrpc: '2.0', id: 1, method: m.name, params: { probe: true } };
        const res = await postJson(url, probe, { 'x-api-key': node.adminKey as string });
        const error = (res.body as { error?: { message: string } }).error;
        return { m, served: !error?.message.endsWith('is not available yet') };
      }),
    );
    const covered = new Set([...PUBLIC_CASES, ...ADMIN_CASES].map((c) => c.method));
    const missing = answers.filter((a) => a.served && !covered.has(short(a.m))).map((a) => a.m.name);
    expect(missing, 'served methods without a conformance case').toEqual([]);
  });
});

describe('createAztecNodeClient (4.1.2)', () => {
  it('accepts every answer of the cases', async () => {
    await runCases(createAztecNodeClient(node.publicUrl) as unknown as Callable, PUBLIC_CASES);
  });

  it('reads the node identity: block number, versions, chain id, readiness', async () => {
    const client = createAztecNodeClient(node.publicUrl, { l1ChainId: 31337, rollupVersion: 1 });
    const [blockNumber, nodeVersion, version, chainId, ready] = await Promise.all([
      client.getBlockNumber(),
      client.getNodeVersion(),
      client.getVersion(),
      client.getChainId(),
      client.isReady(),
    ]);
    expect(Number.isInteger(blockNumber) && blockNumber >= 0).toBe(true);
    expect([nodeVersion, version, chainId]).toEqual([PACKAGE_VERSION, 1, 31337]);
    expect(typeof ready).toBe('boolean');
  });

  it('reads our version headers: a client expecting another rollup version refuses the node', async () => {
    const client = createAztecNodeClient(node.publicUrl, { rollupVersion: 2 });
    await expect(client.getBlockNumber()).rejects.toThrow(
      /Expected component version rollupVersion to be 2 but received 1/,
    );
  });
});

describe('createAztecNodeAdminClient (4.1.2)', () => {
  it('accepts every answer of the admin cases', async () => {
    const client = createAztecNodeAdminClient(node.adminUrl, {}, undefined, node.adminKey);
    await runCases(client as unknown as Callable, ADMIN_CASES);
  });

  it('authenticates with the key it sends as x-api-key, and is refused without it', async () => {
    const withKey = createAztecNodeAdminClient(node.adminUrl, {}, undefined, node.adminKey);
    // Whatever the method answers (a config, or "not available yet"), it is not an authentication failure.
    const answered = await withKey.getConfig().then(
      () => 'ok',
      (err: Error) => err.message,
    );
    expect(answered).not.toMatch(/401|Unauthorized/);
    const withoutKey = createAztecNodeAdminClient(node.adminUrl);
    await expect(withoutKey.getConfig()).rejects.toThrow(/401|Unauthorized/);
  });
});
