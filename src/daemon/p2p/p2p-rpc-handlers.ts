import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import type { chainRpcHandlers } from '../chain/chain-rpc-handlers.js';
import type { P2PService } from './p2p-service.js';

/**
 * The P2P methods (node_getEncodedEnr, nodeAdmin_getPeers), and the chain's handlers with the ENR added to
 * node_getNodeInfo (4.1.2 NodeInfo.enr). With P2P off there is no ENR (undefined, as 4.1.2) and no peer.
 */
export function p2pRpcHandlers(p2p: P2PService | undefined, chain: ReturnType<typeof chainRpcHandlers>) {
  return {
    ...chain,
    node_getNodeInfo: async () => {
      const info = await chain.node_getNodeInfo();
      const enr = p2p?.encodedEnr();
      return enr === undefined ? info : { ...info, enr };
    },
    node_getEncodedEnr: async () => p2p?.encodedEnr(),
    nodeAdmin_getPeers: async () => p2p?.peers() ?? [],
  } satisfies Partial<RpcHandlers>;
}
