import type { RpcHandlers } from '../rpc/rpc-handlers.js';
import { chainRpcHandlers } from './chain/chain-rpc-handlers.js';
import type { ChainState } from './chain/chain-state.js';
import type { NodeConfig } from './config/settings.js';
import { devRpcHandlers } from './dev/dev-rpc-handlers.js';
import type { DevTools } from './dev/dev-tools.js';
import type { FeeModel } from './fees/fee-model.js';
import type { NodeState } from './lifecycle/node-state.js';
import type { Mempool } from './mempool/mempool.js';
import { mempoolRpcHandlers } from './mempool/mempool-rpc-handlers.js';
import { operationsRpcHandlers } from './operations/operations-rpc-handlers.js';
import type { OperationsService } from './operations/operations-service.js';
import { p2pRpcHandlers } from './p2p/p2p-rpc-handlers.js';
import type { P2PService } from './p2p/p2p-service.js';
import { PACKAGE_VERSION } from './package-version.js';
import type { PublicExecutionPool } from './public-execution/public-execution-pool.js';
import { PublicCallSimulator } from './public-processor/public-call-simulator.js';
import { publicProcessorRpcHandlers } from './public-processor/public-processor-rpc-handlers.js';
import type { Sequencer } from './sequencer/sequencer.js';
import type { StorageHealth } from './store/storage-health.js';
import type { DebugPrintStore } from './tracing/debug-print-store.js';
import { tracingRpcHandlers } from './tracing/tracing-rpc-handlers.js';
import { TxTracer } from './tracing/tx-tracer.js';
import type { ValidatorService } from './validators/validator-service.js';
import { validatorsRpcHandlers } from './validators/validators-rpc-handlers.js';

/** What the handlers read from the node. */
export interface RpcHandlerSources {
  readonly config: NodeConfig;
  /** Latest block number known (0 at genesis). */
  chainTip(): number;
  readonly state: NodeState;
  readonly chain: ChainState;
  readonly mempool: Mempool;
  readonly feeModel: FeeModel;
  /** Where public calls run (worker threads). */
  readonly publicExecution: PublicExecutionPool;
  readonly sequencer: Sequencer | undefined;
  readonly debugPrints: DebugPrintStore;
  readonly devTools: DevTools | undefined;
  readonly operations: OperationsService;
  readonly validators: ValidatorService;
  /** The libp2p peer, when P2P is on. */
  readonly p2p: P2PService | undefined;
  /** Set while the node cannot write to its data directory (a full disk). */
  readonly storage: StorageHealth | undefined;
  /** Readiness, defined once by the node (L2Node.readiness). */
  readiness(): { readonly acceptingTxs: boolean };
}

/**
 * The handlers the daemon binds to the method table (src/rpc/method-table.ts): each service answers its
 * methods, and the return type makes the set total (a method no service answers does not compile).
 */
export function buildRpcHandlers(node: RpcHandlerSources): RpcHandlers {
  const simulator = new PublicCallSimulator(node.chain, node.config, node.feeModel, node.publicExecution);
  return {
    ...p2pRpcHandlers(node.p2p, chainRpcHandlers(node.chain, node.config, node.sequencer)),
    ...mempoolRpcHandlers(node.mempool, node.feeModel, (receipt) => node.debugPrints.decorate(receipt)),
    ...publicProcessorRpcHandlers(simulator),
    ...tracingRpcHandlers(new TxTracer(node.chain, node.mempool, simulator, node.publicExecution, node.config)),
    // The listeners serve only a running node, so a node that answers accepts txs, unless its disk is full.
    node_isReady: async () => node.readiness().acceptingTxs,
    ...operationsRpcHandlers(() => node.operations),
    ...devRpcHandlers(node.devTools, node.config),
    ...validatorsRpcHandlers(node.validators),
    node_getBlockNumber: async () => node.chainTip(),
    node_getNodeVersion: async () => PACKAGE_VERSION,
    node_getVersion: async () => node.config.rollupVersion,
    node_getChainId: async () => node.config.l1ChainId,
  };
}
