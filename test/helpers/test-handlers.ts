import { RPC_METHODS } from '../../src/rpc/method-table.js';
import type { RpcHandlers } from '../../src/rpc/rpc-handlers.js';

/**
 * A total handler map for tests of the server machinery: the handlers a test writes, and for every other
 * method one that fails as an internal error (the server needs a handler for every method of the table).
 */
export function testHandlers(own: Partial<RpcHandlers>): RpcHandlers {
  const all: Record<string, unknown> = {};
  for (const name of Object.keys(RPC_METHODS)) {
    all[name] = async () => {
      throw new Error(`${name} has no handler in this test`);
    };
  }
  return { ...all, ...own } as RpcHandlers;
}
