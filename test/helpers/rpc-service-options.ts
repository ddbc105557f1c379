import { pino } from 'pino';
import type { RpcHandlers } from '../../src/rpc/rpc-handlers.js';
import type { RpcServiceOptions } from '../../src/rpc/server/rpc-service.js';

/**
 * The options of an in-process RpcService for the tests of the server machinery and for the RPC benchmark
 * (bench/rpc/bench-server.js): both listeners on loopback at a free port, the node's default limits, no admin
 * API key, always serving, a silent log. A caller gives the handlers and overrides what it tests.
 *
 * Only types come from src/, so the benchmark loads this file as it is (Node strips the types) and hands it
 * the built server from dist/.
 */
export function rpcServiceOptions(
  own: Partial<RpcServiceOptions> & { readonly handlers: RpcHandlers },
): RpcServiceOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    adminHost: '127.0.0.1',
    adminPort: 0,
    maxBodySize: 1024 * 1024,
    maxBatchSize: 100,
    maxResponseSize: 25 * 1024 * 1024,
    maxRequestsPerConnection: 8,
    corsOrigin: '*',
    dataDirectory: undefined,
    adminApiKeyHash: undefined,
    disableAdminApiKey: true,
    resetAdminApiKey: false,
    versions: { l1ChainId: 31337, rollupVersion: 1, packageVersion: '0.1.0' },
    status: () => ({ serving: true, ready: true, body: { status: 'ok' } }),
    notServing: () => undefined,
    log: pino({ level: 'silent' }),
    print: () => {},
    ...own,
  };
}
