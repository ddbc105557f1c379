import type { RpcHandlers } from '../rpc/rpc-handlers.js';
import { chainRpcHandlers } from './chain/chain-rpc-handlers.js';
import type { ChainService } from './chain/chain-service.js';
import type { NodeConfig } from './config/settings.js';
import { mempoolRpcHandlers } from './mempool/mempool-rpc-handlers.js';
import type { MempoolService } from './mempool/mempool-service.js';
import { operationsRpcHandlers } from './operations/operations-rpc-handlers.js';
import type { OperationsService } from './operations/operations-service.js';
import { PACKAGE_VERSION } from './package-version.js';
import type { ValidatorService } from './validators/validator-service.js';
import { validatorsRpcHandlers } from './validators/validators-rpc-handlers.js';

/** What the handlers read from the node; each later service adds its own accessor. */
export interface RpcHandlerSources {
  readonly config: NodeConfig;
  /** Latest block number known (0 at genesis). */
  chainTip(): number;
  readonly chain: ChainService;
  readonly mempool: MempoolService;
  readonly operations: OperationsService;
  readonly validators: ValidatorService;
}

/**
 * The handlers the daemon binds to the method table (src/rpc/method-table.ts). A method missing here
 * answers -32601 "<method> is not available yet"; each service adds its methods when it lands.
 */
export function buildRpcHandlers(node: RpcHandlerSources): RpcHandlers {
  return {
    ...chainRpcHandlers(node.chain, node.config),
    ...mempoolRpcHandlers(node.mempool),
    ...operationsRpcHandlers(() => node.operations),
    ...validatorsRpcHandlers(node.validators),
    node_getBlockNumber: async () => node.chainTip(),
    node_getNodeVersion: async () => PACKAGE_VERSION,
    node_getVersion: async () => node.config.rollupVersion,
    node_getChainId: async () => node.config.l1ChainId,
  };
}
