import { AppendOnlyTreeSnapshot } from '../../core/block/append-only-tree-snapshot.js';
import { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import type { L2Block } from '../../core/block/l2-block.js';
import type { BlockHash } from '../../core/block-hash.js';
import type { BlockParameter } from '../../core/block-parameter.js';
import {
  CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS,
  CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS,
  FEE_JUICE_ADDRESS,
  MULTI_CALL_ENTRYPOINT_ADDRESS,
} from '../../core/constants.js';
import { Fr, toHex64 } from '../../core/fr.js';
import { computePublicDataTreeLeafSlot } from '../../core/hash/siloing.js';
import type { LogFilter } from '../../core/logs/log-filter.js';
import { LogId } from '../../core/logs/log-id.js';
import { DecodeError } from '../../core/serialize/decode-error.js';
import { RpcError, rpcErrors } from '../../rpc/errors.js';
import type { PublishedCheckpoint } from '../../rpc/methods/blocks.js';
import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import type { NodeConfig } from '../config/settings.js';
import { PACKAGE_VERSION } from '../package-version.js';
import { SequencerBusyError } from '../sequencer/sequencer.js';
import type { CheckpointRow } from '../store/checkpoint-repository.js';
import { MerkleTreeId } from '../world-state/merkle-tree-id.js';
import { UpstreamStateNeededError, WorldStateError } from '../world-state/world-state-errors.js';
import type { ChainState } from './chain-state.js';
import { DevModeOnlyError } from './dev-mode-only-error.js';
import { SignatureError } from './function-signatures.js';
import { InboxMessageError } from './settlement/dev-l1.js';
import { UnwindRefusedError } from './unwind-blocks.js';

/**
 * The chain's RPC methods (spec part 4: blocks, txs' effects, state, trees, witnesses, messages, logs,
 * contracts, node information, plus the 4.1.2 extras and nodeDev_), answered from the chain store and the
 * world state as domain objects the method table encodes. Spread into the daemon's handlers (src/daemon/rpc-handlers.ts).
 */
export function chainRpcHandlers(
  service: ChainState,
  config: NodeConfig,
  /** Dev mode: told of a new L1-to-L2 message (an on-demand sequencer builds at once); mines on request. */
  sequencer?: { notifyPendingTx(): void; mineBlocks(count: number): Promise<number[]> },
) {
  const chain = () => service.chain;
  const store = () => service.chain.store;
  const ws = () => service.worldState;

  /** A block of this chain by parameter, or undefined (node_getBlock and kin answer null). */
  const blockAt = (p: BlockParameter): L2Block | undefined => {
    const n = chain().resolveBlock(p);
    return n === undefined ? undefined : chain().getBlock(n);
  };

  /**
   * The block the world state reads at: `latest` is the world state's own; a hash must name a block of this
   * chain (a hash it does not have is an error, a number past the tip the world state refuses itself).
   */
  const stateAt = (p: BlockParameter): number | 'latest' => {
    if (p === 'latest') return p;
    const n = chain().resolveBlock(p);
    if (n === undefined) throw rpcErrors.blockNotAvailable(`Block hash ${p} is not a block of this chain`);
    return n;
  };

  /** Checks a reference block of the tag queries: it must be on this chain (else a reorg dropped it). */
  const checkReferenceBlock = (hash: BlockHash | undefined): void => {
    if (!hash || chain().resolveBlock(hash) !== undefined) return;
    throw rpcErrors.blockNotAvailable(`Block ${hash} not found in the node. This might indicate a reorg has occurred.`);
  };

  /** A checkpoint's committee attestations (none without a committee). */
  const attestationsOf = (checkpoint: number) => store().checkpointAttestations.get(checkpoint)?.attestations ?? [];

  const publishedCheckpoint = (c: CheckpointRow): PublishedCheckpoint => ({
    checkpoint: {
      archive: new AppendOnlyTreeSnapshot(Fr.fromBuffer(c.archiveRoot), c.lastBlock + 1),
      header: CheckpointHeader.fromBuffer(c.header),
      blocks: store().getBlocks(c.firstBlock, c.lastBlock - c.firstBlock + 1),
      number: c.number,
      feeAssetPriceModifier: 0n,
    },
    l1: c.l1,
    attestations: attestationsOf(c.number),
  });

  const handlers = {
    // ---- blocks and tips ----
    node_getProvenBlockNumber: async () => chain().readTips().proven.block.number,
    node_getCheckpointedBlockNumber: async () => chain().readTips().checkpointed.block.number,
    node_getCheckpointNumber: async () => chain().readTips().checkpointed.checkpoint.number,
    node_getL2Tips: async () => chain().readTips(),
    node_getBlock: async (block) => blockAt(block),
    node_getBlocks: async (from, limit) => store().getBlocks(from, limit),
    node_getBlockHeader: async (block) => {
      const n = chain().resolveBlock(block);
      return n === undefined ? undefined : chain().getHeader(n);
    },
    node_getBlockByHash: async (hash) => blockAt(hash),
    node_getBlockByArchive: async (archive) => store().getBlockByArchiveRoot(archive.value),
    node_getBlockHeaderByArchive: async (archive) => store().getHeaderByArchiveRoot(archive.value),
    node_getCheckpoints: async (from, limit) => store().checkpoints.getRange(from, limit).map(publishedCheckpoint),
    node_getCheckpointedBlocks: async (from, limit) => {
      const last = chain().readTips().checkpointed.block.number;
      const blocks = from > last ? [] : store().getBlocks(from, Math.min(limit, last - from + 1));
      const rows = new Map<number, CheckpointRow>();
      return blocks.map((b) => {
        let c = rows.get(b.checkpointNumber);
        if (!c) {
          c = store().checkpoints.get(b.checkpointNumber) as CheckpointRow;
          rows.set(b.checkpointNumber, c);
        }
        return {
          checkpointNumber: b.checkpointNumber,
          block: b,
          l1: c.l1,
          attestations: attestationsOf(b.checkpointNumber),
        };
      });
    },

    // ---- txs ----
    node_getTxEffect: async (txHash) => store().getTxEffect(txHash.value),

    // ---- state and trees ----
    node_getPublicStorageAt: async (block, contract, slot) =>
      new Fr(ws().getPublicStorageAt(stateAt(block), computePublicDataTreeLeafSlot(contract.value, slot.value))),
    node_getWorldStateSyncStatus: async () => ws().getSyncStatus(),
    node_findLeavesIndexes: async (block, treeId, leaves) =>
      ws().findLeavesIndexes(
        stateAt(block),
        treeId as MerkleTreeId,
        leaves.map((l) => l.value),
      ),
    node_getNullifierSiblingPath: async (block, index) => siblingPath(block, MerkleTreeId.NULLIFIER_TREE, index),
    node_getNoteHashSiblingPath: async (block, index) => siblingPath(block, MerkleTreeId.NOTE_HASH_TREE, index),
    node_getArchiveSiblingPath: async (block, index) => siblingPath(block, MerkleTreeId.ARCHIVE, index),
    node_getPublicDataSiblingPath: async (block, index) => siblingPath(block, MerkleTreeId.PUBLIC_DATA_TREE, index),
    node_getNullifierMembershipWitness: async (block, nullifier) =>
      ws().getNullifierMembershipWitness(stateAt(block), nullifier.value),
    node_getLowNullifierMembershipWitness: async (block, nullifier) =>
      ws().getLowNullifierMembershipWitness(stateAt(block), nullifier.value),
    node_getPublicDataWitness: async (block, leafSlot) => ws().getPublicDataWitness(stateAt(block), leafSlot.value),
    node_getBlockHashMembershipWitness: async (block, hash) =>
      ws().getBlockHashMembershipWitness(stateAt(block), hash.value),
    node_getNoteHashMembershipWitness: async (block, noteHash) =>
      ws().getNoteHashMembershipWitness(stateAt(block), noteHash.value),

    // ---- messages ----
    node_getL1ToL2MessageMembershipWitness: async (block, message) =>
      ws().getL1ToL2MessageMembershipWitness(stateAt(block), message.value),
    node_getL1ToL2MessageBlock: async (message) => store().l1ToL2Messages.find(message.value)?.blockNumber,
    node_getL1ToL2Messages: async (checkpoint) => store().checkpointL1ToL2Messages(checkpoint),
    node_getStateOverrides: async (n) =>
      n <= store().latestBlockNumber() ? store().stateOverrides.ofBlock(n) : undefined,
    node_getL1ToL2MessageCheckpoint: async (message) => chain().settlement.findInboxMessage(message.value)?.checkpoint,
    node_isL1ToL2MessageSynced: async (message) => chain().settlement.findInboxMessage(message.value) !== undefined,
    node_getL2ToL1Messages: async (block) => {
      const n = chain().resolveBlock(block);
      if (n === undefined) return undefined;
      return n === 0 ? [] : store().getL2ToL1Messages(n);
    },

    // ---- logs ----
    node_getPrivateLogs: async (from, limit) => service.logs.getPrivateLogs(from, limit),
    node_getPublicLogs: async (filter) => service.logs.getPublicLogs(toLogFilter(filter)),
    node_getContractClassLogs: async (filter) => service.logs.getContractClassLogs(toLogFilter(filter)),
    node_getLogsByTags: async (tags, logsPerTag) => service.logs.getLogsByTags(tags, logsPerTag),
    node_getPrivateLogsByTags: async (tags, page, referenceBlock) => {
      checkReferenceBlock(referenceBlock);
      return service.logs.getPrivateLogsByTags(tags, page ?? 0);
    },
    node_getPublicLogsByTagsFromContract: async (contract, tags, page, referenceBlock) => {
      checkReferenceBlock(referenceBlock);
      return service.logs.getPublicLogsByTagsFromContract(contract.value, tags, page ?? 0);
    },

    // ---- contracts ----
    // As 4.1.2's archiver: the protocol contracts are there from genesis, and an instance's current class is the
    // one in force at the latest block's timestamp (an upgrade counts once its timestamp of change has passed).
    node_getContractClass: async (id) => store().getContractClass(id.value),
    node_getContract: async (address) => {
      const latest = chain().getHeader(chain().latestBlockNumber)?.globalVariables.timestamp ?? 0n;
      return store().getContractInstanceAt(address.value, latest);
    },

    // ---- node information ----
    node_getNodeInfo: async () => ({
      nodeVersion: PACKAGE_VERSION,
      l1ChainId: config.l1ChainId,
      rollupVersion: config.rollupVersion,
      l1ContractAddresses: chain().settlement.l1ContractAddresses(),
      protocolContractAddresses: PROTOCOL_CONTRACT_ADDRESSES,
      realProofs: false,
    }),
    node_getL1ContractAddresses: async () => chain().settlement.l1ContractAddresses(),
    node_getProtocolContractAddresses: async () => PROTOCOL_CONTRACT_ADDRESSES,
    node_registerContractFunctionSignatures: async (signatures) => {
      service.functionSignatures.register(signatures);
    },

    // ---- dev mode ----
    nodeDev_sendL1ToL2Message: async (message) => {
      const position = service.devL1.sendL1ToL2Message(message.value);
      sequencer?.notifyPendingTx();
      return position;
    },
    nodeDev_mineBlocks: async (count) => {
      if (!sequencer) {
        throw new DevModeOnlyError(
          `This node follows ${config.syncFrom}: it builds no blocks; mine on the node it follows`,
        );
      }
      return sequencer.mineBlocks(count ?? 1);
    },
  } satisfies Partial<RpcHandlers>;

  function siblingPath(block: BlockParameter, tree: MerkleTreeId, index: bigint): bigint[] {
    return ws().getSiblingPath(stateAt(block), tree, index).toBigInts();
  }

  return withErrorMapping(handlers);
}

/** 4.1.2's ProtocolContractAddresses: the canonical small addresses as hex64. */
export const PROTOCOL_CONTRACT_ADDRESSES = {
  classRegistry: toHex64(CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS),
  feeJuice: toHex64(FEE_JUICE_ADDRESS),
  instanceRegistry: toHex64(CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS),
  multiCallEntrypoint: toHex64(MULTI_CALL_ENTRYPOINT_ADDRESS),
};

/** node_getPublicLogs' and node_getContractClassLogs' filter as the method table reads it. */
export type LogFilterParam = Omit<LogFilter, 'afterLog'> & {
  afterLog?: { blockNumber: number; blockHash: BlockHash; txHash: LogId['txHash']; txIndex: number; logIndex: number };
};

/** The method table reads the filter's keys; the cursor becomes a LogId (logs live in blocks 1 and up). */
export function toLogFilter(f: LogFilterParam): LogFilter {
  const { afterLog, ...rest } = f;
  if (!afterLog) return rest;
  if (afterLog.blockNumber < 1) {
    throw rpcErrors.invalidParams(`Invalid param 0 (filter): afterLog.blockNumber must be 1 or more, got 0`);
  }
  return {
    ...rest,
    afterLog: new LogId(afterLog.blockNumber, afterLog.blockHash, afterLog.txHash, afterLog.txIndex, afterLog.logIndex),
  };
}

/**
 * Errors the chain's services throw on purpose become the matching JSON-RPC errors (docs/architecture.md section 4.4); anything
 * else stays an internal error.
 */
function withErrorMapping<H extends Partial<RpcHandlers>>(handlers: H): H {
  const out: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers) as [string, (...args: never[]) => Promise<unknown>][]) {
    out[name] = async (...args) => {
      try {
        return await handler(...args);
      } catch (err) {
        throw toRpcError(err);
      }
    };
  }
  return out as H;
}

function toRpcError(err: unknown): unknown {
  if (err instanceof RpcError) return err;
  // A lazy fork's state not fetched yet: its handlers (lazyForkRpcHandlers) fetch it and ask again.
  if (err instanceof UpstreamStateNeededError) return err;
  if (err instanceof WorldStateError) {
    switch (err.rpcCode) {
      case 'INVALID_PARAMS':
        return rpcErrors.invalidParams(err.message);
      case 'BLOCK_NOT_AVAILABLE':
        return rpcErrors.blockNotAvailable(err.message);
      case 'INVALID_STATE':
        return rpcErrors.invalidState(err.message);
      default:
        return err;
    }
  }
  if (err instanceof SignatureError || err instanceof InboxMessageError) return rpcErrors.invalidParams(err.message);
  if (err instanceof UnwindRefusedError) return rpcErrors.invalidState(err.message);
  if (err instanceof DevModeOnlyError) return rpcErrors.unsupported(err.message);
  if (err instanceof SequencerBusyError) return rpcErrors.invalidState(err.message);
  if (err instanceof DecodeError) return rpcErrors.invalidParams(err.message);
  return err;
}
