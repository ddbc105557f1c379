import { ADMIN_METHODS } from './methods/admin.js';
import { BLOCK_METHODS } from './methods/blocks.js';
import { CONTRACT_METHODS } from './methods/contracts.js';
import { DEV_METHODS } from './methods/dev.js';
import { LOG_METHODS } from './methods/logs.js';
import { MESSAGE_METHODS } from './methods/messages.js';
import { NODE_METHODS } from './methods/node.js';
import { TREE_METHODS } from './methods/trees.js';
import { TX_METHODS } from './methods/txs.js';
import { VALIDATOR_METHODS } from './methods/validators.js';
import { nameMethods } from './rpc-method.js';

/**
 * THE method table: every method of spec part 4, declared once, by namespace in src/rpc/methods/. The server,
 * the client (and through it the follower and the CLI), `l2node rpc`, docs/rpc.md and the conformance tests
 * read it. Each row's result codec encodes the handler's domain object and decodes it on the other side.
 * Handlers are not here: the daemon binds one to every method by name (src/daemon/rpc-handlers.ts). Limits
 * are the spec's (part 8), where they differ from 4.1.2's. The order here is the order of docs/rpc.md.
 */
export const RPC_METHODS = nameMethods({
  ...BLOCK_METHODS,
  ...TX_METHODS,
  ...TREE_METHODS,
  ...MESSAGE_METHODS,
  ...LOG_METHODS,
  ...CONTRACT_METHODS,
  ...NODE_METHODS,
  ...VALIDATOR_METHODS,
  ...ADMIN_METHODS,
  ...DEV_METHODS,
});

export type RpcMethods = typeof RPC_METHODS;
export type RpcMethodName = keyof RpcMethods;
export type PublicMethodName = {
  [K in RpcMethodName]: RpcMethods[K]['listener'] extends 'public' ? K : never;
}[RpcMethodName];
export type AdminMethodName = Exclude<RpcMethodName, PublicMethodName>;
