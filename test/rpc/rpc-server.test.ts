import { request } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { rpcErrors } from '../../src/rpc/errors.js';
import type { RpcHandlers } from '../../src/rpc/rpc-handlers.js';
import {
  adminExposureWarning,
  isLoopback,
  RpcService,
  type RpcServiceOptions,
} from '../../src/rpc/server/rpc-service.js';
import { rpcServiceOptions } from '../helpers/rpc-service-options.js';
import { postJson, rpc } from '../helpers/spawn-node.js';
import { testHandlers } from '../helpers/test-handlers.js';

/**
 * The server machinery in-process, with handlers written for the test: what handlers can do (throw,
 * reject with application errors, return nothing, wait on each other) and what the server makes of it.
 */
const logLines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n')) if (line) logLines.push(JSON.parse(line));
    done();
  },
});
const log = pino({ level: 'debug' }, sink);

let state = 'running';
let releaseFirst: (() => void) | undefined;
const firstWaits = new Promise<void>((resolve) => {
  releaseFirst = resolve;
});

const handlers: RpcHandlers = testHandlers({
  node_getBlockNumber: async () => 12,
  // Finishes only when node_getChainId has run: a batch that ran items one by one would never answer.
  node_getVersion: async () => {
    await firstWaits;
    return 3;
  },
  node_getChainId: async () => {
    releaseFirst?.();
    return 31337;
  },
  node_getBlockHeader: async (block) => (block === 'latest' ? BlockHeader.empty() : undefined),
  // What the server encodes is each item's toJSON (a Tx's): these items show the params the handler got.
  node_getPendingTxs: async (limit, after) => [
    { toJSON: () => ({ limit, after: after?.toString() ?? null }) } as never,
  ],
  // A void method with a free-form param, to say which failure to answer with.
  node_registerContractFunctionSignatures: async ([kind]) => {
    if (kind === 'low-fee') {
      throw rpcErrors.txRejected({
        code: 'LOW_PRIORITY_FEE',
        message: 'Tx does not meet minimum priority fee. Required: 110, got: 100',
        minimumPriorityFee: '110',
        txPriorityFee: '100',
      });
    }
    if (kind === 'invalid') throw rpcErrors.txInvalid(['Incorrect chain id', 'Expired']);
    if (kind === 'bug') throw new Error('secret internal detail at /home/node/db');
  },
  node_getL2Tips: (() => {
    // Not async on purpose: a synchronous throw must not escape the server.
    throw new TypeError('synchronous failure');
  }) as unknown as RpcHandlers['node_getL2Tips'],
  node_getNodeInfo: async () => ({ big: 1n }) as never,
  // A slow call: pipelined ones stay in flight together on one connection.
  node_getEncodedEnr: async () => {
    await new Promise((r) => setTimeout(r, 300));
    return undefined;
  },
  // Not async on purpose: a handler that answers synchronously is still answered.
  node_isReady: (() => true) as unknown as RpcHandlers['node_isReady'],
});

let service: RpcService;

function serviceOptions(): RpcServiceOptions {
  return rpcServiceOptions({
    versions: { l1ChainId: 31337, rollupVersion: 3, packageVersion: '0.1.0' },
    handlers,
    status: () => ({
      serving: state === 'running',
      ready: state === 'running',
      body: { status: state === 'running' ? 'ok' : state, state },
    }),
    notServing: () => (state === 'running' ? undefined : state),
    log,
  });
}

beforeAll(async () => {
  service = new RpcService(serviceOptions());
  await service.start();
});
afterAll(async () => {
  await service.stop();
});

type Answer = { id: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };

describe('handler outcomes', () => {
  it('encodes results with the table codec (BlockHeader JSON) and not-found as null', async () => {
    const found = await postJson(service.publicUrl, rpc('node_getBlockHeader', []));
    expect((found.body as Answer).result).toEqual(BlockHeader.empty().toJSON());
    const missing = await postJson(service.publicUrl, rpc('node_getBlockHeader', [5]));
    expect(missing.body).toEqual({ jsonrpc: '2.0', id: 1, result: null });
  });

  it('answers void with null', async () => {
    const a = await postJson(service.publicUrl, rpc('node_registerContractFunctionSignatures', [['fine']]));
    expect(a.body).toEqual({ jsonrpc: '2.0', id: 1, result: null });
  });

  it('passes trailing optional params as defaults or undefined, whether omitted or null', async () => {
    const omitted = await postJson(service.publicUrl, rpc('node_getPendingTxs', []));
    const nulls = await postJson(service.publicUrl, rpc('node_getPendingTxs', [null, null]));
    expect((omitted.body as Answer).result).toEqual([{ limit: 100, after: null }]);
    expect((nulls.body as Answer).result).toEqual([{ limit: 100, after: null }]);
  });

  it('sends TX_REJECTED as -32003 with exactly the rejection object as data', async () => {
    const a = await postJson(service.publicUrl, rpc('node_registerContractFunctionSignatures', [['low-fee']]));
    expect(a.status).toBe(200);
    expect((a.body as Answer).error).toEqual({
      code: -32003,
      message: 'Tx does not meet minimum priority fee. Required: 110, got: 100',
      data: {
        code: 'LOW_PRIORITY_FEE',
        message: 'Tx does not meet minimum priority fee. Required: 110, got: 100',
        minimumPriorityFee: '110',
        txPriorityFee: '100',
      },
    });
  });

  it('sends TX_INVALID as -32004 with the reasons', async () => {
    const a = await postJson(service.publicUrl, rpc('node_registerContractFunctionSignatures', [['invalid']]));
    expect((a.body as Answer).error).toEqual({
      code: -32004,
      message: 'Invalid tx: Incorrect chain id, Expired',
      data: { code: 'TX_INVALID', reasons: ['Incorrect chain id', 'Expired'] },
    });
  });

  it('turns an unexpected throw into -32603 with an id, logs it under that id, leaks nothing', async () => {
    const a = await postJson(service.publicUrl, rpc('node_registerContractFunctionSignatures', [['bug']]));
    const error = (a.body as Answer).error;
    expect(error?.code).toBe(-32603);
    expect(JSON.stringify(a.body)).not.toMatch(/secret|\/home|at /);
    const id = /^Internal error \(id ([0-9a-f]{8})\): the node log has the details$/.exec(error?.message ?? '')?.[1];
    expect(id).toBeDefined();
    const logged = logLines.find((l) => l.errorId === id);
    expect(logged?.method).toBe('node_registerContractFunctionSignatures');
    expect(JSON.stringify(logged)).toMatch(/secret internal detail/);
  });

  it('survives a handler that throws synchronously', async () => {
    const a = await postJson(service.publicUrl, rpc('node_getL2Tips'));
    expect((a.body as Answer).error?.code).toBe(-32603);
    expect((await postJson(service.publicUrl, rpc('node_getBlockNumber'))).body).toMatchObject({ result: 12 });
  });

  it('answers a handler that returns a plain value instead of a promise', async () => {
    expect((await postJson(service.publicUrl, rpc('node_isReady'))).body).toMatchObject({ result: true });
  });

  it('answers -32603 when a result cannot be serialised (a codec bug), and keeps serving', async () => {
    const a = await postJson(service.publicUrl, rpc('node_getNodeInfo'));
    expect((a.body as Answer).error?.code).toBe(-32603);
    expect(logLines.some((l) => l.msg === 'a response could not be serialised')).toBe(true);
  });
});

describe('the handler map', () => {
  it('must have a handler for every method of the table: a server without one refuses to start', async () => {
    const { node_getBlocks: _left, ...partial } = handlers;
    const incomplete = new RpcService({ ...serviceOptions(), handlers: partial as RpcHandlers });
    await expect(incomplete.start()).rejects.toThrow(
      'No handler for node_getBlocks: every method of the table needs one',
    );
  });
});

describe('batches', () => {
  it('runs the items concurrently and answers them in request order', async () => {
    const a = await postJson(service.publicUrl, [rpc('node_getVersion', [], 'a'), rpc('node_getChainId', [], 'b')]);
    expect(a.body).toEqual([
      { jsonrpc: '2.0', id: 'a', result: 3 },
      { jsonrpc: '2.0', id: 'b', result: 31337 },
    ]);
  });
});

describe('requests in flight per connection', () => {
  it('answers pipelined requests past --rpc-max-requests-per-connection with 429 LIMIT_EXCEEDED, the first ones normally', async () => {
    const { port } = new URL(service.publicUrl);
    const payload = JSON.stringify(rpc('node_getEncodedEnr'));
    const one = `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n${payload}`;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => {
        text += c;
        if ((text.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= 12) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.write(one.repeat(12));
    });
    const statuses = (raw.match(/HTTP\/1\.1 \d{3}/g) ?? []).map((s) => s.slice(9));
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill('200'));
    expect(statuses.slice(8)).toEqual(Array(4).fill('429'));
    expect(raw).toContain('"setting":"--rpc-max-requests-per-connection"');
    // Another connection is not affected.
    expect((await postJson(service.publicUrl, rpc('node_getBlockNumber'))).status).toBe(200);
  });
});

describe('CORS', () => {
  it('allows any origin and names the version headers to browsers (requests with Origin) only', async () => {
    const plain = await postJson(service.publicUrl, rpc('node_getBlockNumber'));
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(plain.headers.get('access-control-expose-headers')).toBeNull();
    expect(plain.headers.get('x-aztec-l1ChainId')).toBe('31337');
    const browser = await postJson(service.publicUrl, rpc('node_getBlockNumber'), { Origin: 'https://wallet.example' });
    expect(browser.headers.get('access-control-allow-origin')).toBe('*');
    expect(browser.headers.get('access-control-expose-headers')).toBe(
      'x-aztec-l1ChainId, x-aztec-rollupVersion, x-aztec-packageVersion',
    );
  });

  it('reads the request headers whatever their case, and joins a repeated Accept-Encoding', async () => {
    const body = JSON.stringify(Array.from({ length: 40 }, (_, i) => rpc('node_getBlockHeader', [], i)));
    // gzip first, then last: neither "first wins" nor "last wins" passes both.
    for (const encodings of [
      ['gzip', 'br'],
      ['br', 'gzip'],
    ]) {
      const answer = await new Promise<{ headers: Record<string, unknown>; data: Buffer }>((resolve, reject) => {
        const req = request(service.publicUrl, { method: 'POST' }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, data: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.setHeader('CONTENT-TYPE', 'Application/JSON');
        req.setHeader('Accept-Encoding', encodings);
        req.end(body);
      });
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(answer.data).toString())).toHaveLength(40);
    }
  });
});

describe('compression', () => {
  it('gzips a body over 1 KiB for a client that accepts gzip, with Vary: Accept-Encoding (and short ones neither)', async () => {
    const body = JSON.stringify(Array.from({ length: 40 }, (_, i) => rpc('node_getBlockHeader', [], i)));
    const raw = await new Promise<{ headers: Record<string, unknown>; data: Buffer }>((resolve, reject) => {
      const req = request(
        service.publicUrl,
        { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, data: Buffer.concat(chunks) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.headers.vary).toBe('Accept-Encoding');
    // A short answer never depends on Accept-Encoding, so it does not say it does.
    const short = await postJson(service.publicUrl, rpc('node_getBlockNumber'), { 'accept-encoding': 'gzip' });
    expect(short.headers.get('content-encoding')).toBeNull();
    expect(short.headers.get('vary')).toBeNull();
    expect(JSON.parse(gunzipSync(raw.data).toString())).toHaveLength(40);
  });
});

describe('while the node starts or stops', () => {
  it('answers 503 on /status and NOT_READY to calls', async () => {
    state = 'stopping';
    try {
      const status = await fetch(`${service.publicUrl}/status`);
      expect(status.status).toBe(503);
      expect(await status.json()).toEqual({ status: 'stopping', state: 'stopping' });
      const a = await postJson(service.publicUrl, rpc('node_getBlockNumber'));
      expect((a.body as Answer).error).toEqual({
        code: -32007,
        message: 'The node is stopping and does not serve requests now; retry shortly',
        data: { code: 'NOT_READY' },
      });
    } finally {
      state = 'running';
    }
  });
});

describe('admin exposure', () => {
  it('warns loudly for a non-loopback admin bind without a key, mildly with one, not on loopback', () => {
    expect(adminExposureWarning('0.0.0.0', 'http://0.0.0.0:8880', false)).toMatch(/WITHOUT AUTHENTICATION/);
    expect(adminExposureWarning('10.0.0.5', 'http://10.0.0.5:8880', true)).toMatch(/keep the API key secret/);
    expect(adminExposureWarning('127.0.0.1', 'http://127.0.0.1:8880', false)).toBeUndefined();
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.2', 'example.com'].some(isLoopback)).toBe(false);
  });
});
