import { isProtocolContractAddress } from '../../core/avm/index.js';
import { CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS } from '../../core/constants.js';
import { siloNullifier } from '../../core/hash/siloing.js';
import type { TxTrace } from '../../core/trace/tx-trace.js';
import type { Tx } from '../../core/tx/tx.js';
import type { TxHash } from '../../core/tx-hash.js';
import type { ChainState } from '../chain/chain-state.js';
import type { Mempool } from '../mempool/mempool.js';
import { applyTxEffectToFork } from '../public-processor/apply-tx-effect.js';
import { BlockContracts } from '../public-processor/block-contracts.js';
import { chainStoreContracts } from '../public-processor/chain-store-contracts.js';
import type { PublicCallSimulator } from '../public-processor/public-call-simulator.js';
import type { PublishedContracts } from '../public-processor/tx-contract-source.js';
import type { WorldStateView } from '../world-state/world-state-view.js';
import type { OpcodeTraceBounds } from './call-tree-tracer.js';
import { traceTx } from './trace-tx.js';
import type { TracingConfig } from './tracing-settings.js';

/** Why a mined tx cannot be traced (answered as BLOCK_NOT_AVAILABLE or null by the handlers). */
export class TraceUnavailableError extends Error {
  override name = 'TraceUnavailableError';
}

/** What a caller asks for: an instruction trace, and its bounds (each at most the node's). */
export interface TraceRequest {
  readonly opcodes?: boolean;
  readonly maxSteps?: number;
  readonly maxBytes?: number;
  readonly skipFeeEnforcement?: boolean;
}

/**
 * The contracts as a past block saw them: the store knows every instance deployed since, so an instance whose
 * deployment nullifier is not yet in the state being traced is hidden, as it was when the block was built.
 */
function contractsAsOf(published: PublishedContracts, state: WorldStateView): PublishedContracts {
  return {
    getContractInstanceAt: (address, timestamp) => {
      if (
        !isProtocolContractAddress(address) &&
        !state.hasNullifier(siloNullifier(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS, address))
      ) {
        return undefined;
      }
      return published.getContractInstanceAt(address, timestamp);
    },
    getContractClass: (classId) => published.getContractClass(classId),
    getFunctionName: (selector) => published.getFunctionName(selector),
  };
}

/**
 * nodeDev_traceTx and nodeDev_traceCall (docs/debugging.md). A mined tx is re-executed on the state before it:
 * its block's parent state (world-state history is kept per block), the checkpoint's L1-to-L2 messages when the
 * block is a checkpoint's first, then the block's earlier txs' effects, with the block's global variables. An
 * unmined tx runs as node_simulatePublicCalls runs it: on the latest state with the next block's globals. Both
 * run on this thread, bounded by the tx's gas and, for instruction traces, by the step and byte bounds.
 */
export class TxTracer {
  constructor(
    private readonly chain: ChainState,
    private readonly mempool: Mempool,
    private readonly simulator: PublicCallSimulator,
    private readonly config: TracingConfig,
  ) {}

  /** The trace of a mined tx, or undefined when the node knows no such mined tx. */
  traceMined(txHash: TxHash, request: TraceRequest): TxTrace | undefined {
    const store = this.chain.chain.store;
    const location = store.locateTx(txHash.value);
    if (!location) return undefined;
    const tx = this.mempool.txByHash(txHash);
    if (!tx) {
      throw new TraceUnavailableError(
        `Tx ${txHash} was mined in block ${location.blockNumber}, but its body is no longer kept (mined txs stay ` +
          'readable for --mined-tx-retention-blocks blocks); trace it from a file with `l2node tx trace <file>`',
      );
    }
    const block = store.getBlock(location.blockNumber);
    if (!block) throw new TraceUnavailableError(`Block ${location.blockNumber} is not stored`);
    const fork = this.chain.worldState.fork(location.blockNumber - 1);
    try {
      if (block.indexWithinCheckpoint === 0) {
        fork.appendCheckpointMessages(store.checkpointL1ToL2Messages(block.checkpointNumber) ?? []);
      }
      const contracts = new BlockContracts(contractsAsOf(chainStoreContracts(store), fork));
      for (const effect of block.body.txEffects.slice(0, location.txIndex)) {
        applyTxEffectToFork(fork, effect);
        contracts.addTxEffect(effect);
      }
      return traceTx({
        state: fork,
        contracts,
        globals: block.header.globalVariables,
        tx,
        location: { blockNumber: location.blockNumber, txIndex: location.txIndex },
        options: this.options(request),
      });
    } finally {
      fork.close();
    }
  }

  /** The trace of a tx that is not mined, run as the next block would run it. */
  traceCall(tx: Tx, request: TraceRequest): TxTrace {
    const fork = this.chain.worldState.fork();
    try {
      return traceTx({
        state: fork,
        contracts: chainStoreContracts(this.chain.chain.store),
        globals: this.simulator.nextBlockGlobals(),
        tx,
        options: this.options(request),
      });
    } finally {
      fork.close();
    }
  }

  private options(request: TraceRequest) {
    const bounds: OpcodeTraceBounds | undefined = request.opcodes
      ? {
          maxSteps: Math.min(request.maxSteps ?? this.config.traceMaxSteps, this.config.traceMaxSteps),
          maxBytes: Math.min(request.maxBytes ?? this.config.traceMaxBytes, this.config.traceMaxBytes),
        }
      : undefined;
    return {
      ...(bounds ? { opcodes: bounds } : {}),
      ...(request.skipFeeEnforcement ? { skipFeeEnforcement: true } : {}),
    };
  }
}
