import type { RpcMethodName, RpcMethods } from './method-table.js';
import type { RpcHandler } from './rpc-method.js';

/**
 * The handlers the daemon binds to the method table, by wire name: one for every method (the type has no
 * optional key, so a method without a handler does not compile). Each returns the domain object its row's
 * result codec encodes.
 */
export type RpcHandlers = { readonly [K in RpcMethodName]: RpcHandler<RpcMethods[K]> };
