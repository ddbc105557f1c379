import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GasFees } from '../../src/core/gas/gas-fees.js';
import { RpcClient } from '../../src/rpc/client/rpc-client.js';
import { RpcClientError } from '../../src/rpc/client/rpc-client-error.js';
import { METHOD_NOT_FOUND, RpcError, rpcErrors } from '../../src/rpc/errors.js';
import { RpcService } from '../../src/rpc/server/rpc-service.js';
import { aTx } from '../helpers/a-tx.js';
import { rpcServiceOptions } from '../helpers/rpc-service-options.js';
import { testHandlers } from '../helpers/test-handlers.js';

/** The client against the real server machinery, and against things that are not a node. */
const KEY = 'a'.repeat(64);
let service: RpcService;
let html: Server;
let silent: Server;
const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

beforeAll(async () => {
  service = new RpcService(
    rpcServiceOptions({
      // Room for a tx (about 134 KB), not for the 360 KB of the 413 case.
      maxBodySize: 256 * 1024,
      adminApiKeyHash: createHash('sha256').update(KEY).digest('hex'),
      disableAdminApiKey: false,
      versions: {},
      handlers: testHandlers({
        node_getBlockNumber: async () => 7,
        node_getCurrentMinFees: async () => new GasFees(1n, 2n),
        node_getBlock: async () => undefined,
        node_sendTx: async () => {
          throw rpcErrors.txInvalid(['bad proof']);
        },
        nodeAdmin_pauseSync: async () => {},
        // A deliberately wrong handler: the client must notice.
        node_getVersion: (async () => '1') as unknown as () => Promise<number>,
        // Every method has a handler; a node may still refuse one with METHOD_NOT_FOUND and its own words.
        node_getBlocks: async () => {
          throw new RpcError(METHOD_NOT_FOUND, 'node_getBlocks is not available yet');
        },
      }),
    }),
  );
  await service.start();
  html = createServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html>Bad Gateway</html>');
  });
  silent = createServer(() => {
    // Never answers.
  });
  await Promise.all([html, silent].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
});
afterAll(async () => {
  silent.closeAllConnections();
  await Promise.all([service.stop(), ...[html, silent].map((s) => new Promise((r) => s.close(r)))]);
});

async function failure(p: Promise<unknown>): Promise<RpcClientError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RpcClientError);
  return err as RpcClientError;
}

describe('typed calls', () => {
  it('returns results decoded by the table codecs', async () => {
    const client = new RpcClient({ url: service.publicUrl });
    expect(await client.call('node_getBlockNumber')).toBe(7);
    const fees = await client.call('node_getCurrentMinFees');
    expect(fees).toBeInstanceOf(GasFees);
    expect(fees.feePerL2Gas).toBe(2n);
    expect(await client.call('node_getBlock', 'latest')).toBeUndefined();
  });

  it('keeps the code and data of a JSON-RPC error', async () => {
    const err = await failure(new RpcClient({ url: service.publicUrl }).call('node_sendTx', aTx().toJSON()));
    expect(err.kind).toBe('rpc');
    expect(err.code).toBe(-32004);
    expect(err.data).toEqual({ code: 'TX_INVALID', reasons: ['bad proof'] });
    expect(err.message).toBe('node_sendTx failed: Invalid tx: bad proof');
  });

  it('passes "not available yet" on as the node said it', async () => {
    const err = await failure(new RpcClient({ url: service.publicUrl }).call('node_getBlocks', 1, 2));
    expect(err.message).toBe('node_getBlocks failed: node_getBlocks is not available yet');
  });
});

describe('errors that say what to do', () => {
  it('401 without a key or with a wrong one: run `l2node admin login` or pass --api-key', async () => {
    for (const apiKey of [undefined, 'wrong']) {
      const err = await failure(new RpcClient({ url: service.adminUrl, apiKey }).call('nodeAdmin_pauseSync'));
      expect(err.kind).toBe('unauthorized');
      expect(err.message).toMatch(/HTTP 401.*run `l2node admin login` or pass --api-key/);
    }
    await expect(
      new RpcClient({ url: service.adminUrl, apiKey: KEY }).call('nodeAdmin_pauseSync'),
    ).resolves.toBeUndefined();
  });

  it('connection refused: is the node running at URL?', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = urlOf(closed);
    await new Promise((r) => closed.close(r));
    const err = await failure(new RpcClient({ url }).call('node_getBlockNumber'));
    expect(err.kind).toBe('unreachable');
    expect(err.message).toBe(`cannot reach ${url} (ECONNREFUSED): is the node running at ${url}?`);
  });

  it('no answer in time: names the timeout and --timeout', async () => {
    const err = await failure(new RpcClient({ url: urlOf(silent), timeoutMs: 200 }).call('node_getBlockNumber'));
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/did not answer node_getBlockNumber within 200 ms.*--timeout/);
  });

  it('something that is not a node: asks whether the URL is the RPC address', async () => {
    const err = await failure(new RpcClient({ url: urlOf(html) }).call('node_getBlockNumber'));
    expect(err.kind).toBe('http');
    expect(err.message).toMatch(/answered HTTP 502 without a JSON-RPC body: is it the node's RPC address\?/);
  });

  it('413: says to send less or raise --rpc-max-body-size', async () => {
    const err = await failure(
      new RpcClient({ url: service.publicUrl }).call(
        'node_registerContractFunctionSignatures',
        Array.from({ length: 40 }, () => 'x'.repeat(9000)),
      ),
    );
    expect(err.message).toMatch(/HTTP 413.*--rpc-max-body-size/);
  });

  it('a result of the wrong shape is caught by the codec', async () => {
    const err = await failure(new RpcClient({ url: service.publicUrl }).call('node_getVersion'));
    expect(err.kind).toBe('bad-response');
    expect(err.message).toMatch(
      /answered node_getVersion with a result of the wrong shape \(expected integer, got "1"\)/,
    );
  });
});
