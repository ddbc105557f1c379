import { pino } from 'pino';
import type { RpcServiceOptions } from '../../src/rpc/server/rpc-service.js';

/**
 * Options of an in-process RpcService for tests: both listeners on 127.0.0.1 at free ports, the node's default
 * limits, no admin key, serving and silent. A test passes its handlers and whatever it sets differently.
 */
export function loopbackRpcOptions(
  own: Partial<RpcServiceOptions> & Pick<RpcServiceOptions, 'handlers'>,
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
    versions: {},
    status: () => ({ serving: true, body: { status: 'ok' } }),
    notServing: () => undefined,
    log: pino({ level: 'silent' }),
    print: () => {},
    ...own,
  };
}
