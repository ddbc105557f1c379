import type { BlockHeader } from '../../core/block/block-header.js';
import type { L2Block } from '../../core/block/l2-block.js';
import { Fr } from '../../core/fr.js';
import type { Tx } from '../../core/tx/tx.js';
import { RpcClient } from '../../rpc/client/rpc-client.js';
import type { RpcClientError } from '../../rpc/client/rpc-client-error.js';
import { APPLICATION_ERRORS, INVALID_PARAMS } from '../../rpc/errors.js';
import type { PublishedCheckpoint } from '../../rpc/methods/blocks.js';
import type { L2Tips } from '../chain/l2-tips.js';
import type { PublicDataWrite } from '../world-state/world-state-fork.js';
import {
  type Upstream,
  type UpstreamCheckpoint,
  UpstreamHistoryPrunedError,
  type UpstreamIdentity,
  UpstreamRpcError,
  UpstreamUnavailableError,
} from './upstream.js';
import { UpstreamLatency, type UpstreamLatencyReading } from './upstream-latency.js';

/** 4.1.2 answers invalid params with -32701 (docs/aztec-facts.md section 1.1); we with -32602. */
const AZTEC_INVALID_PARAMS = -32701;
const METHOD_NOT_FOUND = -32601;
const LIMIT_EXCEEDED = APPLICATION_ERRORS.LIMIT_EXCEEDED.code;
/** Our node_getBlocks takes up to 100 (spec part 8); 4.1.2's up to 50. */
const MAX_BLOCKS_PER_CALL = 100;
const AZTEC_MAX_BLOCKS_PER_CALL = 50;
const MAX_CHECKPOINTS_PER_CALL = 50;

export interface RpcUpstreamOptions {
  readonly url: string;
  /** Per call; a stuck upstream must not hold the sync (or a pause) for long. Default 20 s. */
  readonly timeoutMs?: number;
  /** Largest answer read from the upstream (--sync-max-response-size). */
  readonly maxResponseSize: number;
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * The upstream over its public JSON-RPC (an l2node, or a real node speaking the 4.1.2 wire format), through
 * the typed client of the method table. Version headers of its answers give the two L2 hashes of its identity.
 */
export class RpcUpstream implements Upstream {
  readonly url: string;
  private readonly client: RpcClient;
  private readonly versionHeaders = new Map<string, string>();
  private maxBlocksPerCall = MAX_BLOCKS_PER_CALL;
  private readonly timing = new UpstreamLatency();

  constructor(o: RpcUpstreamOptions) {
    this.url = o.url.replace(/\/+$/, '');
    const inner = o.fetch ?? globalThis.fetch;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const started = performance.now();
      try {
        const res = await inner(input, init);
        for (const [k, v] of res.headers) if (k.startsWith('x-aztec-')) this.versionHeaders.set(k, v);
        return res;
      } finally {
        // Until the answer's headers: the time the upstream took, not the time this node took to read it.
        this.timing.record(performance.now() - started);
      }
    };
    this.client = new RpcClient({
      url: this.url,
      timeoutMs: o.timeoutMs ?? 20_000,
      maxResponseSize: o.maxResponseSize,
      fetch,
      mapError: upstreamError,
    });
  }

  latency(): UpstreamLatencyReading | undefined {
    return this.timing.reading();
  }

  async identity(): Promise<UpstreamIdentity> {
    const info = await this.client.call('node_getNodeInfo');
    const header = (name: string) => {
      const v = this.versionHeaders.get(name.toLowerCase());
      return v === undefined ? undefined : Fr.fromString(v);
    };
    return {
      nodeVersion: info.nodeVersion,
      l1ChainId: info.l1ChainId,
      rollupVersion: info.rollupVersion,
      l1ContractAddresses: info.l1ContractAddresses,
      protocolContractAddresses: info.protocolContractAddresses,
      protocolContractsHash: header('x-aztec-l2ProtocolContractsHash'),
      vkTreeRoot: header('x-aztec-l2CircuitsVkTreeRoot'),
    };
  }

  async genesisHeader(): Promise<BlockHeader> {
    const header = await this.client.call('node_getBlockHeader', 0);
    if (!header) throw new UpstreamUnavailableError(`${this.url} has no block 0 header`);
    return header;
  }

  async tips(): Promise<L2Tips> {
    return this.client.call('node_getL2Tips');
  }

  async blocks(from: number, limit: number): Promise<L2Block[]> {
    const n = Math.min(limit, this.maxBlocksPerCall);
    let blocks: readonly L2Block[];
    try {
      blocks = await this.client.call('node_getBlocks', from, n);
    } catch (err) {
      // A 4.1.2 upstream takes at most 50: ask it that from now on.
      if (
        err instanceof UpstreamRpcError &&
        n > AZTEC_MAX_BLOCKS_PER_CALL &&
        (err.code === AZTEC_INVALID_PARAMS || err.code === INVALID_PARAMS)
      ) {
        this.maxBlocksPerCall = AZTEC_MAX_BLOCKS_PER_CALL;
        return this.blocks(from, limit);
      }
      // Blocks too large for one answer (ours, or the upstream's own response budget): ask for fewer.
      if (
        n > 1 &&
        (err instanceof AnswerTooLargeError || (err instanceof UpstreamRpcError && err.code === LIMIT_EXCEEDED))
      ) {
        this.maxBlocksPerCall = Math.max(1, Math.floor(n / 2));
        return this.blocks(from, limit);
      }
      throw err;
    }
    return [...blocks];
  }

  async checkpoints(from: number, limit: number): Promise<UpstreamCheckpoint[]> {
    const published = await this.client.call('node_getCheckpoints', from, Math.min(limit, MAX_CHECKPOINTS_PER_CALL));
    return published.map(toUpstreamCheckpoint);
  }

  async blockHash(n: number): Promise<bigint | undefined> {
    return (await this.client.call('node_getBlockHeader', n))?.hash().value;
  }

  async l1ToL2Messages(checkpoint: number): Promise<readonly bigint[] | undefined> {
    try {
      return await this.client.call('node_getL1ToL2Messages', checkpoint);
    } catch (err) {
      if (err instanceof UpstreamRpcError && err.code === METHOD_NOT_FOUND) return undefined;
      throw err;
    }
  }

  async stateOverrides(blockNumber: number): Promise<readonly PublicDataWrite[] | undefined> {
    try {
      return await this.client.call('node_getStateOverrides', blockNumber);
    } catch (err) {
      if (err instanceof UpstreamRpcError && err.code === METHOD_NOT_FOUND) return undefined;
      throw err;
    }
  }

  async sendTx(tx: Tx): Promise<void> {
    await this.client.call('node_sendTx', tx.toJSON());
  }
}

/** JSON-RPC errors become UpstreamRpcError, anything else UpstreamUnavailableError. */
function upstreamError(err: RpcClientError): Error {
  if (err.kind === 'too-large') return new AnswerTooLargeError(`${err.message} (--sync-max-response-size)`);
  if (err.code !== undefined && err.details.remoteMessage !== undefined) {
    const oldest = prunedFrom(err.data);
    if (oldest !== undefined) {
      return new UpstreamHistoryPrunedError(err.code, err.details.remoteMessage, err.data, oldest);
    }
    return new UpstreamRpcError(err.code, err.details.remoteMessage, err.data);
  }
  return new UpstreamUnavailableError(err.message);
}

/** The oldest block with a body, when the upstream answered that it pruned the block asked for (l2node upstreams). */
function prunedFrom(data: unknown): number | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { code, oldestAvailableBlock } = data as { code?: unknown; oldestAvailableBlock?: unknown };
  return code === 'BLOCK_NOT_AVAILABLE' && typeof oldestAvailableBlock === 'number' ? oldestAvailableBlock : undefined;
}

/** An upstream answer past --sync-max-response-size, cut off unread: the message names the method. */
export class AnswerTooLargeError extends UpstreamUnavailableError {}

/** A published checkpoint as the follower takes it: the archive root after its last block, its blocks and L1 data. */
export function toUpstreamCheckpoint(p: PublishedCheckpoint): UpstreamCheckpoint {
  return {
    number: p.checkpoint.number,
    header: p.checkpoint.header,
    archiveRoot: p.checkpoint.archive.root,
    blocks: p.checkpoint.blocks,
    l1: p.l1,
    attestations: p.attestations,
  };
}
