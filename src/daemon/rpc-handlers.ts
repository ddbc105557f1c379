import type { RpcHandlers } from '../rpc/rpc-handlers.js';
import type { NodeConfig } from './config/settings.js';
import { PACKAGE_VERSION } from './package-version.js';

/** What the handlers read from the node; each later service adds its own accessor. */
export interface RpcHandlerSources {
  readonly config: NodeConfig;
  /** Latest block number known (0 at genesis). */
  chainTip(): number;
}

/**
 * The handlers the daemon binds to the method table (src/rpc/method-table.ts). A method missing here
 * answers -32601 "<method> is not available yet"; each service adds its methods when it lands.
 */
export function buildRpcHandlers(node: RpcHandlerSources): RpcHandlers {
  return {
    node_getBlockNumber: async () => node.chainTip(),
    node_getNodeVersion: async () => PACKAGE_VERSION,
    node_getVersion: async () => node.config.rollupVersion,
    node_getChainId: async () => node.config.l1ChainId,
    // Accepting transactions needs the mempool, which does not exist yet: say so rather than pretend.
    node_isReady: async () => false,
  };
}
