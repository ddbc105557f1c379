import type { BlockHeader } from '../../core/block/block-header.js';
import type { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import type { CommitteeAttestation } from '../../core/block/committee-attestation.js';
import type { L2Block } from '../../core/block/l2-block.js';
import type { Fr } from '../../core/fr.js';
import type { Tx } from '../../core/tx/tx.js';
import type { L2Tips } from '../chain/l2-tips.js';
import type { L1ContractAddresses } from '../chain/settlement/settlement-layer.js';
import type { L1PublishedData } from '../store/checkpoint-repository.js';
import type { PublicDataWrite } from '../world-state/world-state-fork.js';
import type { UpstreamLatencyReading } from './upstream-latency.js';

/** A checkpoint the upstream published, with its blocks (4.1.2 PublishedCheckpoint). */
export interface UpstreamCheckpoint {
  readonly number: number;
  readonly header: CheckpointHeader;
  /** Archive root after its last block. */
  readonly archiveRoot: Fr;
  readonly blocks: readonly L2Block[];
  readonly l1: L1PublishedData;
  /** The committee's attestations as published (4.1.2 CommitteeAttestation[]); empty for a chain without a committee. */
  readonly attestations: readonly CommitteeAttestation[];
}

/** What the upstream says it is: compared with this node's settings at start, then adopted. */
export interface UpstreamIdentity {
  readonly nodeVersion: string;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  readonly l1ContractAddresses: L1ContractAddresses;
  /** Keys as 4.1.2 names them (classRegistry, feeJuice, instanceRegistry, multiCallEntrypoint), hex64 values. */
  readonly protocolContractAddresses: Readonly<Record<string, string>>;
  /** From its x-aztec-l2ProtocolContractsHash header; undefined when it sends none. */
  readonly protocolContractsHash: Fr | undefined;
  /** From its x-aztec-l2CircuitsVkTreeRoot header; undefined when it sends none. */
  readonly vkTreeRoot: Fr | undefined;
}

/**
 * What a follower reads from (and sends to) the node it follows: its public `node_` RPC in production
 * (RpcUpstream), an in-process chain in unit tests. Every method may throw on a transport failure.
 */
export interface Upstream {
  /** Where it is, for log lines and errors. */
  readonly url: string;
  identity(): Promise<UpstreamIdentity>;
  /** Block 0's header (its hash is the genesis block hash; its state the genesis state). */
  genesisHeader(): Promise<BlockHeader>;
  tips(): Promise<L2Tips>;
  /** Up to `limit` consecutive blocks from `from` (fewer at its tip). */
  blocks(from: number, limit: number): Promise<L2Block[]>;
  /** Up to `limit` published checkpoints from `from`, with their blocks. */
  checkpoints(from: number, limit: number): Promise<UpstreamCheckpoint[]>;
  /** The hash of its block `n`, undefined when it has none. */
  blockHash(n: number): Promise<bigint | undefined>;
  /** The L1-to-L2 messages of a checkpoint; undefined when it cannot say (a 4.1.2 node, an unknown checkpoint). */
  l1ToL2Messages(checkpoint: number): Promise<readonly bigint[] | undefined>;
  /**
   * The state overrides a dev chain's block applied before its txs (node_getStateOverrides, an l2node extension);
   * undefined when it cannot say (a 4.1.2 node, an unknown block).
   */
  stateOverrides(blockNumber: number): Promise<readonly PublicDataWrite[] | undefined>;
  /** node_sendTx; a refusal throws an UpstreamRpcError carrying the upstream's code, message and data. */
  sendTx(tx: Tx): Promise<void>;
  /** How long its calls take lately; undefined before the first. */
  latency?(): UpstreamLatencyReading | undefined;
}

/** The upstream answered a JSON-RPC error: its code, message and data, as it sent them. */
export class UpstreamRpcError extends Error {
  override name = 'UpstreamRpcError';

  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

/**
 * The upstream pruned the bodies of the blocks this node needs (block history pruning): it will not serve them
 * again, so the follower stays where it is until pointed at a node that keeps them or started from a snapshot.
 */
export class UpstreamHistoryPrunedError extends UpstreamRpcError {
  override name = 'UpstreamHistoryPrunedError';

  constructor(
    code: number,
    remoteMessage: string,
    data: unknown,
    /** The oldest block whose body the upstream keeps. */
    readonly oldestAvailableBlock: number,
  ) {
    super(
      code,
      `it pruned its block history and holds block bodies from block ${oldestAvailableBlock} on (${remoteMessage}). ` +
        'A follower needs every block after its own tip: follow a node that keeps them, or start this one from a ' +
        `snapshot taken at block ${oldestAvailableBlock - 1} or later (--snapshot-url)`,
      data,
    );
  }
}

/** The upstream could not be reached or answered something unusable (not a JSON-RPC error). */
export class UpstreamUnavailableError extends Error {
  override name = 'UpstreamUnavailableError';
}
