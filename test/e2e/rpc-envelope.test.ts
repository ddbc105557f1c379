import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../src/daemon/config/published-chain-values.js';
import { postJson, type RunningNode, rpc, runCli, spawnNode } from '../helpers/spawn-node.js';

/** The JSON-RPC envelope rules of issue 3 and docs/architecture.md section 4.4, against one spawned node. */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
let node: RunningNode;

beforeAll(async () => {
  node = await spawnNode({ args: ['--rpc-max-body-size', '64kb'] });
});
afterAll(async () => {
  await node?.stop();
});

type Answer = {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};
const one = (body: unknown) => body as Answer;
const many = (body: unknown) => body as Answer[];

describe('routes and HTTP verbs', () => {
  it('answers JSON-RPC only with POST to /: other verbs get 405 with Allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(`${node.publicUrl}/`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as Answer).error?.message).toMatch(/POST/);
    }
  });

  it('answers 404 for any other path, naming the routes', async () => {
    const res = await fetch(`${node.publicUrl}/rpc`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Answer).error?.message).toMatch(/POST \/.*GET \/status/);
  });

  it('GET /status answers 200 with a small JSON body; HEAD too; POST /status is 405', async () => {
    const res = await fetch(`${node.publicUrl}/status`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ status: 'ok', state: 'running', blockNumber: expect.any(Number) });
    const head = await fetch(`${node.publicUrl}/status`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${node.publicUrl}/status`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('keeps an idle connection open for 60 s and says so (Keep-Alive: timeout=60)', async () => {
    const res = await fetch(node.publicUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rpc('node_getBlockNumber')),
    });
    expect(res.headers.get('keep-alive')).toBe('timeout=60');
    expect(((await res.json()) as { result: unknown }).result).toBeTypeOf('number');
  });

  it('/status on the admin listener needs no key', async () => {
    const res = await fetch(`${node.adminUrl}/status`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('ok');
  });
});

describe('request bodies', () => {
  it('answers a single request with its id echoed (number or string)', async () => {
    const a = await postJson(node.publicUrl, rpc('node_getBlockNumber', [], 7));
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ jsonrpc: '2.0', id: 7, result: expect.any(Number) });
    const b = await postJson(node.publicUrl, rpc('node_getChainId', [], 'abc'));
    expect(b.body).toEqual({ jsonrpc: '2.0', id: 'abc', result: 31337 });
  });

  it('refuses a Content-Type other than JSON with -32600 naming it', async () => {
    const res = await fetch(node.publicUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify(rpc('node_getBlockNumber')),
    });
    expect(res.status).toBe(200);
    const error = ((await res.json()) as Answer).error;
    expect(error?.code).toBe(-32600);
    expect(error?.message).toMatch(/Content-Type must be application\/json, got "application\/x-www-form-urlencoded"/);
  });

  it('accepts application/json with a charset', async () => {
    const a = await postJson(node.publicUrl, rpc('node_getVersion'), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(one(a.body).result).toBe(1);
  });

  it('answers a body that is not JSON with -32700 and the parser message', async () => {
    const a = await postJson(node.publicUrl, '{"jsonrpc":"2.0",');
    expect(a.status).toBe(200);
    expect(one(a.body).error?.code).toBe(-32700);
    expect(one(a.body).error?.message).toMatch(/^Parse error: /);
    expect(one(a.body).id).toBeNull();
  });

  it.each([
    ['a string', '"hello"'],
    ['null', 'null'],
    ['a number', '5'],
    ['no method', '{"jsonrpc":"2.0","id":1}'],
    ['a wrong jsonrpc version', '{"jsonrpc":"1.0","id":1,"method":"node_getBlockNumber","params":[]}'],
  ])('answers %s with -32600 invalid request', async (_what, body) => {
    const a = await postJson(node.publicUrl, body);
    expect(a.status).toBe(200);
    expect(one(a.body).error?.code).toBe(-32600);
    expect(one(a.body).error?.message).toMatch(/^Invalid request: expected \{"jsonrpc":"2.0"/);
  });

  it('refuses a body over --rpc-max-body-size with HTTP 413 naming the limit', async () => {
    const big = JSON.stringify(rpc('node_registerContractFunctionSignatures', [['x'.repeat(70 * 1024)]]));
    const a = await postJson(node.publicUrl, big);
    expect(a.status).toBe(413);
    expect(one(a.body).error?.code).toBe(-32600);
    expect(one(a.body).error?.message).toMatch(/too large: the limit is 65536 bytes \(--rpc-max-body-size\)/);
    // The connection stays usable afterwards.
    expect(one((await postJson(node.publicUrl, rpc('node_getBlockNumber'))).body).result).toEqual(expect.any(Number));
  });

  it('answers a notification (no id) with nothing: HTTP 204', async () => {
    const res = await fetch(node.publicUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'node_getBlockNumber', params: [] }),
    });
    expect(res.status).toBe(204);
  });
});

describe('batches', () => {
  it('answers every item in request order, each with its own result or error, with HTTP 200', async () => {
    const a = await postJson(node.publicUrl, [
      rpc('node_getChainId', [], 1),
      rpc('node_nope', [], 2),
      rpc('node_getVersion', [], 3),
      42,
      rpc('node_getNodeVersion', [], 4),
    ]);
    expect(a.status).toBe(200);
    const answers = many(a.body);
    expect(answers.map((x) => x.id)).toEqual([1, 2, 3, null, 4]);
    expect(answers[0]?.result).toBe(31337);
    expect(answers[1]?.error?.code).toBe(-32601);
    expect(answers[2]?.result).toBe(1);
    expect(answers[3]?.error?.code).toBe(-32600);
    expect(answers[4]?.result).toBe(PACKAGE_VERSION);
  });

  it('answers an empty batch with one -32600 error', async () => {
    const a = await postJson(node.publicUrl, []);
    expect(a.status).toBe(200);
    expect(one(a.body).error).toEqual({ code: -32600, message: 'Invalid request: empty batch' });
  });

  it('accepts 100 items and refuses 101 with -32600 naming the limit', async () => {
    const ok = await postJson(
      node.publicUrl,
      Array.from({ length: 100 }, (_, i) => rpc('node_getBlockNumber', [], i)),
    );
    expect(many(ok.body)).toHaveLength(100);
    expect(many(ok.body).map((x) => x.id)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    const tooMany = await postJson(
      node.publicUrl,
      Array.from({ length: 101 }, (_, i) => rpc('node_getBlockNumber', [], i)),
    );
    expect(one(tooMany.body).error?.code).toBe(-32600);
    expect(one(tooMany.body).error?.message).toBe(
      'Invalid request: batch of 101 requests exceeds the limit of 100 (--rpc-max-batch-size)',
    );
  });

  it('gzips a response over 1 KiB when the client asks, and not otherwise', async () => {
    const batch = Array.from({ length: 60 }, (_, i) => rpc('node_getNodeVersion', [], i));
    const zipped = await fetch(node.publicUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify(batch),
    });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    // fetch inflates transparently: the answer is still the full batch.
    expect((await zipped.json()) as unknown[]).toHaveLength(60);
    const plain = await postJson(node.publicUrl, batch, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const small = await postJson(node.publicUrl, rpc('node_getBlockNumber'), { 'accept-encoding': 'gzip' });
    expect(small.headers.get('content-encoding')).toBeNull();
  });
});

describe('params', () => {
  it('treats missing params as []', async () => {
    const a = await postJson(node.publicUrl, { jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber' });
    expect(one(a.body).result).toEqual(expect.any(Number));
  });

  it('refuses params that are not an array with -32602', async () => {
    const a = await postJson(node.publicUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'node_getBlockNumber',
      params: { a: 1 },
    });
    expect(one(a.body).error).toEqual({
      code: -32602,
      message: 'Invalid params of node_getBlockNumber: params must be an array (positional), got an object',
    });
  });

  it('refuses more params than the method takes with -32602', async () => {
    const a = await postJson(node.publicUrl, rpc('node_getChainId', [1]));
    expect(one(a.body).error).toEqual({ code: -32602, message: 'node_getChainId takes no params, got 1' });
  });
});

describe('methods and listeners', () => {
  it('answers an unknown method with -32601 naming it', async () => {
    const a = await postJson(node.publicUrl, rpc('node_doesNotExist'));
    expect(one(a.body).error).toEqual({ code: -32601, message: 'Method not found: node_doesNotExist' });
  });

  it('does not serve admin methods on the public listener, alone or hidden in a batch', async () => {
    const alone = await postJson(node.publicUrl, rpc('nodeAdmin_getConfig'));
    expect(one(alone.body).error?.code).toBe(-32601);
    expect(one(alone.body).error?.message).toMatch(/^Method not found: nodeAdmin_getConfig/);
    const batch = await postJson(node.publicUrl, [
      rpc('node_getBlockNumber', [], 1),
      rpc('nodeAdmin_pauseSync', [], 2),
      rpc('nodeAdmin_reloadKeystore', [], 3),
    ]);
    expect(many(batch.body)[0]?.result).toEqual(expect.any(Number));
    expect(many(batch.body)[1]?.error?.code).toBe(-32601);
    expect(many(batch.body)[2]?.error?.code).toBe(-32601);
  });

  it('does not serve public methods on the admin listener', async () => {
    const a = await postJson(node.adminUrl, rpc('node_getBlockNumber'), { 'x-api-key': node.adminKey as string });
    expect(one(a.body).error?.code).toBe(-32601);
    expect(one(a.body).error?.message).toMatch(/^Method not found: node_getBlockNumber/);
  });

  it('serves the node identity methods', async () => {
    const a = await postJson(node.publicUrl, [
      rpc('node_getNodeVersion', [], 1),
      rpc('node_getVersion', [], 2),
      rpc('node_getChainId', [], 3),
      rpc('node_isReady', [], 4),
      rpc('node_getBlockNumber', [], 5),
    ]);
    const [nodeVersion, version, chainId, ready, blockNumber] = many(a.body).map((x) => x.result);
    expect([nodeVersion, version, chainId]).toEqual([PACKAGE_VERSION, 1, 31337]);
    expect(typeof ready).toBe('boolean');
    expect(blockNumber).toEqual(expect.any(Number));
  });
});

describe('headers', () => {
  it('sends the known version headers on every public response, errors included', async () => {
    const responses = [
      await fetch(`${node.publicUrl}/status`),
      await fetch(node.publicUrl, { method: 'GET' }),
      await fetch(node.publicUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      await fetch(node.publicUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rpc('node_getBlockNumber')),
      }),
    ];
    for (const res of responses) {
      expect(res.headers.get('x-aztec-l1ChainId')).toBe('31337');
      expect(res.headers.get('x-aztec-rollupVersion')).toBe('1');
      expect(res.headers.get('x-aztec-packageVersion')).toBe(PACKAGE_VERSION);
      // The L2 values are settings (4.1.2's published ones by default); the rollup address is not known yet.
      expect(res.headers.get('x-aztec-l1RollupAddress')).toBeNull();
      expect(res.headers.get('x-aztec-l2ProtocolContractsHash')).toBe(AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH.toString());
      expect(res.headers.get('x-aztec-l2CircuitsVkTreeRoot')).toBe(AZTEC_4_1_2_VK_TREE_ROOT.toString());
    }
  });

  it('allows any origin on the public listener and answers preflights with 204', async () => {
    const res = await postJson(node.publicUrl, rpc('node_getBlockNumber'), { origin: 'https://wallet.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/x-aztec-l1ChainId/);
    const preflight = await fetch(node.publicUrl, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://wallet.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  it('sends no CORS headers on the admin listener', async () => {
    const res = await postJson(node.adminUrl, rpc('nodeAdmin_getConfig'), { 'x-api-key': node.adminKey as string });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('start-up without a data directory', () => {
  it('says the admin key lasts this run only, and prints it in the banner', () => {
    expect(node.adminKey).toMatch(/^[0-9a-f]{64}$/);
    expect(node.logs().some((l) => l.level === 40 && /for this run only/.test(l.msg ?? ''))).toBe(true);
    expect(node.stdout()).toMatch(/this key lasts for this run only/);
  });
});

describe('l2node rpc', () => {
  it('calls a public method and prints the JSON result', async () => {
    const out = await runCli(['rpc', 'node_getChainId', '--url', node.publicUrl]);
    expect(out).toMatchObject({ code: 0, stdout: '31337\n' });
  });

  it('sends admin methods to the admin URL with the key, and says what to do without one', async () => {
    // A config home without the key `start` saved for the CLI: no key at all, refused with exit 3.
    const refused = await runCli(['rpc', 'nodeAdmin_pauseSync', '--admin-url', node.adminUrl], {
      XDG_CONFIG_HOME: '/nonexistent/l2node-test-config',
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/HTTP 401: no key given\): run `l2node admin login` or pass --api-key/);
    // Params the method does not take: refused after authentication, before anything runs.
    const authorised = await runCli(['rpc', 'nodeAdmin_pauseSync', '7', '--admin-url', node.adminUrl], {
      NODE_ADMIN_API_KEY: node.adminKey as string,
    });
    expect(authorised.stderr).not.toMatch(/401/);
    expect(authorised.stderr).toMatch(
      /nodeAdmin_pauseSync (failed: nodeAdmin_pauseSync takes no params|.*not available yet)/,
    );
  });

  it('refuses a method the table does not have, suggesting near names', async () => {
    const out = await runCli(['rpc', 'node_getblocknumbr', '--url', node.publicUrl]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/unknown method node_getblocknumbr/);
  });
});
