import { AppendOnlyTreeSnapshot } from '../../core/block/append-only-tree-snapshot.js';
import type { BlockHeader } from '../../core/block/block-header.js';
import { CheckpointHeader } from '../../core/block/checkpoint-header.js';
import { CommitteeAttestation } from '../../core/block/committee-attestation.js';
import { L2Block } from '../../core/block/l2-block.js';
import { Fr } from '../../core/fr.js';
import type { Tx } from '../../core/tx/tx.js';
import { RpcClient } from '../../rpc/client/rpc-client.js';
import { RpcClientError } from '../../rpc/client/rpc-client-error.js';
import { INVALID_PARAMS } from '../../rpc/errors.js';
import type { RpcMethodName, RpcMethods } from '../../rpc/method-table.js';
import type { ClientArgs, ParamsOf, ResultOf } from '../../rpc/rpc-method.js';
import type { L2Tips } from '../chain/l2-tips.js';
import type { L1ContractAddresses } from '../chain/settlement/settlement-layer.js';
import {
  type Upstream,
  type UpstreamCheckpoint,
  type UpstreamIdentity,
  UpstreamRpcError,
  UpstreamUnavailableError,
} from './upstream.js';

/** 4.1.2 answers invalid params with -32701 (reference aztec-wire 1.4); we with -32602. */
const AZTEC_INVALID_PARAMS = -32701;
const METHOD_NOT_FOUND = -32601;
/** Our node_getBlocks takes up to 100 (spec part 8); 4.1.2's up to 50. */
const MAX_BLOCKS_PER_CALL = 100;
const AZTEC_MAX_BLOCKS_PER_CALL = 50;
const MAX_CHECKPOINTS_PER_CALL = 50;

export interface RpcUpstreamOptions {
  readonly url: string;
  /** Per call; a stuck upstream must not hold the sync (or a pause) for long. Default 20 s. */
  readonly timeoutMs?: number;
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

  constructor(o: RpcUpstreamOptions) {
    this.url = o.url.replace(/\/+$/, '');
    const inner = o.fetch ?? globalThis.fetch;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const res = await inner(input, init);
      for (const [k, v] of res.headers) if (k.startsWith('x-aztec-')) this.versionHeaders.set(k, v);
      return res;
    };
    this.client = new RpcClient({ url: this.url, timeoutMs: o.timeoutMs ?? 20_000, fetch });
  }

  async identity(): Promise<UpstreamIdentity> {
    const info = await this.call('node_getNodeInfo');
    const o = asObject(info, 'node_getNodeInfo');
    const header = (name: string) => {
      const v = this.versionHeaders.get(name.toLowerCase());
      return v === undefined ? undefined : Fr.fromString(v);
    };
    return {
      nodeVersion: String(o.nodeVersion ?? ''),
      l1ChainId: asInteger(o.l1ChainId, 'node_getNodeInfo l1ChainId'),
      rollupVersion: asInteger(o.rollupVersion, 'node_getNodeInfo rollupVersion'),
      l1ContractAddresses: asObject(
        o.l1ContractAddresses,
        'node_getNodeInfo l1ContractAddresses',
      ) as unknown as L1ContractAddresses,
      protocolContractAddresses: asObject(
        o.protocolContractAddresses,
        'node_getNodeInfo protocolContractAddresses',
      ) as Record<string, string>,
      protocolContractsHash: header('x-aztec-l2ProtocolContractsHash'),
      vkTreeRoot: header('x-aztec-l2CircuitsVkTreeRoot'),
    };
  }

  async genesisHeader(): Promise<BlockHeader> {
    const header = await this.call('node_getBlockHeader', 0);
    if (!header) throw new UpstreamUnavailableError(`${this.url} has no block 0 header`);
    return header;
  }

  async tips(): Promise<L2Tips> {
    return parseTips(await this.call('node_getL2Tips'), this.url);
  }

  async blocks(from: number, limit: number): Promise<L2Block[]> {
    const n = Math.min(limit, this.maxBlocksPerCall);
    let json: unknown;
    try {
      json = await this.call('node_getBlocks', from, n);
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
      throw err;
    }
    if (!Array.isArray(json)) throw this.badAnswer('node_getBlocks', 'an array');
    return json.map((b, i) => L2Block.fromJSON(b, `node_getBlocks[${i}]`));
  }

  async checkpoints(from: number, limit: number): Promise<UpstreamCheckpoint[]> {
    const json = await this.call('node_getCheckpoints', from, Math.min(limit, MAX_CHECKPOINTS_PER_CALL));
    if (!Array.isArray(json)) throw this.badAnswer('node_getCheckpoints', 'an array');
    return json.map((p, i) => parsePublishedCheckpoint(p, `node_getCheckpoints[${i}]`));
  }

  async blockHash(n: number): Promise<bigint | undefined> {
    return (await this.call('node_getBlockHeader', n))?.hash().value;
  }

  async l1ToL2Messages(checkpoint: number): Promise<readonly bigint[] | undefined> {
    try {
      return (await this.call('node_getL1ToL2Messages', checkpoint))?.map((m) => Fr.fromString(m).value);
    } catch (err) {
      if (err instanceof UpstreamRpcError && err.code === METHOD_NOT_FOUND) return undefined;
      throw err;
    }
  }

  async sendTx(tx: Tx): Promise<void> {
    await this.callRaw('node_sendTx', [tx.toJSON()]);
  }

  /** A typed call; JSON-RPC errors become UpstreamRpcError, anything else UpstreamUnavailableError. */
  private async call<N extends RpcMethodName>(
    method: N,
    ...params: ClientArgs<ParamsOf<RpcMethods[N]>>
  ): Promise<ResultOf<RpcMethods[N]>> {
    try {
      return await this.client.call(method, ...params);
    } catch (err) {
      throw this.translate(err);
    }
  }

  private async callRaw(method: string, params: readonly unknown[]): Promise<unknown> {
    try {
      return await this.client.callRaw(method, params);
    } catch (err) {
      throw this.translate(err);
    }
  }

  private translate(err: unknown): Error {
    if (err instanceof RpcClientError && err.code !== undefined && err.details.remoteMessage !== undefined) {
      return new UpstreamRpcError(err.code, err.details.remoteMessage, err.data);
    }
    return new UpstreamUnavailableError((err as Error).message ?? String(err));
  }

  private badAnswer(method: string, expected: string): UpstreamUnavailableError {
    return new UpstreamUnavailableError(`${this.url} answered ${method} with something else than ${expected}`);
  }
}

/** The v4 L2Tips shape (spec part 2); anything else is refused with the path that was wrong. */
export function parseTips(json: unknown, url: string): L2Tips {
  const where = `${url} node_getL2Tips`;
  const o = asObject(json, where);
  const blockId = (v: unknown, path: string) => {
    const b = asObject(v, `${where} ${path}`);
    return { number: asInteger(b.number, `${where} ${path}.number`), hash: asHash(b.hash, `${where} ${path}.hash`) };
  };
  const tip = (key: string) => {
    const t = asObject(o[key], `${where} ${key}`);
    return { block: blockId(t.block, `${key}.block`), checkpoint: blockId(t.checkpoint, `${key}.checkpoint`) };
  };
  return {
    proposed: blockId(o.proposed, 'proposed'),
    checkpointed: tip('checkpointed'),
    proven: tip('proven'),
    finalized: tip('finalized'),
  };
}

/** 4.1.2's PublishedCheckpoint JSON: {checkpoint: {archive, header, blocks, number}, l1, attestations}. */
export function parsePublishedCheckpoint(json: unknown, path: string): UpstreamCheckpoint {
  const o = asObject(json, path);
  const c = asObject(o.checkpoint, `${path}.checkpoint`);
  const l1 = asObject(o.l1, `${path}.l1`);
  const blocks = c.blocks;
  if (!Array.isArray(blocks)) throw new UpstreamUnavailableError(`${path}.checkpoint.blocks is not an array`);
  const attestations = o.attestations ?? [];
  if (!Array.isArray(attestations)) throw new UpstreamUnavailableError(`${path}.attestations is not an array`);
  return {
    number: asInteger(c.number, `${path}.checkpoint.number`),
    header: CheckpointHeader.fromJSON(c.header, `${path}.checkpoint.header`),
    archiveRoot: AppendOnlyTreeSnapshot.fromJSON(c.archive, `${path}.checkpoint.archive`).root,
    blocks: blocks.map((b, i) => L2Block.fromJSON(b, `${path}.checkpoint.blocks[${i}]`)),
    l1: {
      blockNumber: BigInt(asDecimal(l1.blockNumber, `${path}.l1.blockNumber`)),
      timestamp: BigInt(asDecimal(l1.timestamp, `${path}.l1.timestamp`)),
      blockHash: asHash(l1.blockHash, `${path}.l1.blockHash`),
    },
    attestations: attestations.map((a, i) => parseAttestation(a, `${path}.attestations[${i}]`)),
  };
}

function parseAttestation(json: unknown, path: string): CommitteeAttestation {
  try {
    return CommitteeAttestation.fromJSON(json, path);
  } catch (err) {
    throw new UpstreamUnavailableError((err as Error).message);
  }
}

function asObject(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new UpstreamUnavailableError(`${path}: expected an object, got ${JSON.stringify(v)?.slice(0, 60)}`);
  }
  return v as Record<string, unknown>;
}

function asInteger(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new UpstreamUnavailableError(`${path}: expected a non-negative integer, got ${JSON.stringify(v)}`);
  }
  return v;
}

function asDecimal(v: unknown, path: string): string {
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || !/^[0-9]+$/.test(s)) {
    throw new UpstreamUnavailableError(`${path}: expected a decimal integer, got ${JSON.stringify(v)}`);
  }
  return s;
}

function asHash(v: unknown, path: string): string {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) {
    throw new UpstreamUnavailableError(`${path}: expected a 0x hex hash, got ${JSON.stringify(v)}`);
  }
  return `0x${v.slice(2).toLowerCase().padStart(64, '0')}`;
}
