import type { RpcMethodName, RpcMethods } from './method-table.js';
import type { RpcHandler } from './rpc-method.js';

/**
 * The handlers the daemon binds to the method table, by wire name. A method left out answers -32601
 * "<method> is not available yet"; each later service adds its handlers here (src/daemon/rpc-handlers.ts).
 */
export type RpcHandlers = { readonly [K in RpcMethodName]?: RpcHandler<RpcMethods[K]> };
