import type { L2Block } from '../../core/block/l2-block.js';
import { BlockHash } from '../../core/block-hash.js';
import { toHex64 } from '../../core/fr.js';
import { IndexedTxEffect } from '../../core/tx/indexed-tx-effect.js';
import type { TxReceipt } from '../../core/tx/tx-receipt.js';
import type { TxHash } from '../../core/tx-hash.js';
import { rpcErrors } from '../../rpc/errors.js';
import type { RpcMethodName } from '../../rpc/method-table.js';
import type { RpcHandlers } from '../../rpc/rpc-handlers.js';
import type { Chain } from '../chain/chain.js';
import { type LogFilterParam, toLogFilter } from '../chain/chain-rpc-handlers.js';
import type { MinedTx } from '../mempool/mined-tx-lookup.js';
import type { ChainLogQueries } from '../store/chain-log-queries.js';
import type { Upstream } from '../sync/upstream.js';
import { lazyForkTagPage } from './lazy-fork-tagged-logs.js';
import type { RpcWitnessSource } from './rpc-witness-source.js';
import { MAX_UPSTREAM_BLOCKS_PER_READ, type UpstreamBlockCache } from './upstream-block-cache.js';
import { type UpstreamStateFetcher, UpstreamStateUnavailableError } from './upstream-state-fetcher.js';

/**
 * Methods whose answer needs checkpoints below a lazy fork's first block, which it does not serve (their L1
 * publication cannot be checked against what the fork holds: docs/compatibility.md): asked with a range starting
 * there, they answer a clear error rather than the part this node holds.
 */
const RANGE_FROM_METHODS: readonly RpcMethodName[] = ['node_getCheckpointedBlocks'];

/**
 * Methods that change the node without reading the world state: not wrapped. node_sendTx is: its checks read the
 * trees before the pool takes the tx, so a check that needed the upstream's state runs again from the start.
 */
const WRITES: readonly RpcMethodName[] = ['node_registerContractFunctionSignatures'];

export interface LazyForkRpcOptions {
  readonly chain: Chain;
  readonly upstream: Upstream;
  readonly fetcher: UpstreamStateFetcher;
  /** The upstream's reads (its tagged logs). */
  readonly source: RpcWitnessSource;
  /** The upstream's blocks below the fork, checked and kept in the data directory. */
  readonly blocks: UpstreamBlockCache;
  /** This node's log queries (given the upstream's blocks a range needs, they scan those first). */
  readonly logs: ChainLogQueries;
  /** The first block this node holds (the first of the fork block's checkpoint). */
  readonly firstBlock: () => number;
  /** The receipt of a tx mined as `mined` says, with this node's tips (the mempool's receipts). */
  readonly minedReceipt: (txHash: TxHash, mined: MinedTx) => TxReceipt;
}

/**
 * A lazy fork's public handlers (--fork-mode lazy): the node's own, where
 *
 * - a read of the world state that touches the upstream's part not fetched yet fetches it (through the upstream's
 *   witness methods, each witness checked against its root at the fork's block and kept) and runs again;
 * - a block header, block or range of blocks below the fork's first block (by number, hash or archive root)
 *   comes from the upstream, checked against this node's archive and kept in the data directory
 *   (UpstreamBlockCache);
 * - a log filter (node_getPublicLogs, node_getContractClassLogs) or private-log range (node_getPrivateLogs) that
 *   reaches below the fork's first block scans the upstream's blocks there (from the same cache, at most
 *   MAX_UPSTREAM_BLOCKS_PER_READ of them per request), then this node's, as one chain;
 * - checkpoint ranges starting below the fork's first checkpoint answer a clear error naming the upstream.
 *
 * An upstream that cannot answer makes the read fail with an error naming it and what was asked; nothing is
 * written from an unchecked answer.
 */
export function lazyForkRpcHandlers(handlers: RpcHandlers, o: LazyForkRpcOptions): RpcHandlers {
  const wrapped: Record<string, unknown> = { ...handlers };
  for (const name of Object.keys(handlers) as RpcMethodName[]) {
    if (!name.startsWith('node_') || WRITES.includes(name)) continue;
    const handler = handlers[name] as (...args: unknown[]) => Promise<unknown>;
    wrapped[name] = (...args: unknown[]) => o.fetcher.run(() => handler(...args));
  }
  const below = (n: number) => n >= 1 && n < o.firstBlock();
  /** One read of the upstream's history below the fork (`what` it holds there); a failure names the upstream. */
  const fromUpstream = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    o.fetcher.calls++;
    try {
      return await call();
    } catch (err) {
      throw new UpstreamStateUnavailableError(
        `the ${what} below this fork's block ${o.firstBlock()} are the upstream's and ${o.upstream.url} did not give them: ${(err as Error).message}`,
      );
    }
  };
  const upstreamLogs = <T>(call: () => Promise<T>) => fromUpstream('logs and txs', call);
  const upstreamBlock = (n: number) => o.blocks.block(n);
  const blockNumberOf = (p: unknown): number | undefined => (typeof p === 'number' ? p : undefined);
  /**
   * An upstream block below the fork named by its hash or archive root: the upstream says its number, the block
   * comes from the checked cache, and it must carry that hash or root (else the upstream lied about it).
   */
  const upstreamBlockBy = async (by: 'hash' | 'archive', value: { readonly value: bigint }) => {
    const text = toHex64(value.value);
    const n = await fromUpstream('blocks', () => o.source.blockNumberOf(by, text));
    if (n === undefined || !below(n)) return undefined;
    const block = await upstreamBlock(n);
    const got = by === 'hash' ? block.hash().value : block.archive.root.value;
    if (got !== value.value) {
      throw new UpstreamStateUnavailableError(
        `${o.upstream.url} named its block ${n} for the ${by === 'hash' ? 'block hash' : 'archive root'} ${text}, which that block does not have`,
      );
    }
    return block;
  };
  const getBlockHeader = wrapped.node_getBlockHeader as RpcHandlers['node_getBlockHeader'];
  const getBlock = wrapped.node_getBlock as RpcHandlers['node_getBlock'];
  wrapped.node_getBlockHeader = (async (block) => {
    const n = blockNumberOf(block);
    if (n !== undefined && below(n)) return (await upstreamBlock(n)).header;
    const ours = await getBlockHeader(block);
    return ours ?? (block instanceof BlockHash ? (await upstreamBlockBy('hash', block))?.header : ours);
  }) satisfies RpcHandlers['node_getBlockHeader'];
  wrapped.node_getBlock = (async (block) => {
    const n = blockNumberOf(block);
    if (n !== undefined && below(n)) return upstreamBlock(n);
    const ours = await getBlock(block);
    return ours ?? (block instanceof BlockHash ? await upstreamBlockBy('hash', block) : ours);
  }) satisfies RpcHandlers['node_getBlock'];
  const getBlockByHash = wrapped.node_getBlockByHash as RpcHandlers['node_getBlockByHash'];
  wrapped.node_getBlockByHash = (async (hash) =>
    (await getBlockByHash(hash)) ?? (await upstreamBlockBy('hash', hash))) satisfies RpcHandlers['node_getBlockByHash'];
  const getBlockByArchive = wrapped.node_getBlockByArchive as RpcHandlers['node_getBlockByArchive'];
  wrapped.node_getBlockByArchive = (async (archive) =>
    (await getBlockByArchive(archive)) ??
    (await upstreamBlockBy('archive', archive))) satisfies RpcHandlers['node_getBlockByArchive'];
  const getHeaderByArchive = wrapped.node_getBlockHeaderByArchive as RpcHandlers['node_getBlockHeaderByArchive'];
  wrapped.node_getBlockHeaderByArchive = (async (archive) =>
    (await getHeaderByArchive(archive)) ??
    (await upstreamBlockBy('archive', archive))?.header) satisfies RpcHandlers['node_getBlockHeaderByArchive'];
  const getBlocks = wrapped.node_getBlocks as RpcHandlers['node_getBlocks'];
  wrapped.node_getBlocks = (async (from, limit) => {
    if (!below(from)) return getBlocks(from, limit);
    // The upstream's part of the range (at most the method's limit of blocks), then this node's own from its
    // first block on.
    const theirs = await o.blocks.blocks(from, Math.min(limit, o.firstBlock() - from));
    const rest = limit - theirs.length;
    return rest > 0 ? [...theirs, ...(await getBlocks(o.firstBlock(), rest))] : theirs;
  }) satisfies RpcHandlers['node_getBlocks'];
  const getCheckpoints = wrapped.node_getCheckpoints as RpcHandlers['node_getCheckpoints'];
  wrapped.node_getCheckpoints = (async (from, limit) => {
    const first = o.chain.store.blocks.get(o.firstBlock())?.checkpoint ?? 0;
    if (from >= 1 && from < first) {
      throw rpcErrors.blockNotAvailable(
        `Checkpoint ${from} is below this lazy fork's first checkpoint ${first}: ask ${o.upstream.url} ` +
          '(or start the fork with --fork-mode replay)',
      );
    }
    return getCheckpoints(from, limit);
  }) satisfies RpcHandlers['node_getCheckpoints'];
  const getTxEffect = wrapped.node_getTxEffect as RpcHandlers['node_getTxEffect'];
  wrapped.node_getTxEffect = (async (txHash) => {
    const ours = await getTxEffect(txHash);
    if (ours) return ours;
    // A tx mined on the upstream below the fork: the effect comes from its block, checked against the archive
    // (a block kept here says where its txs are; otherwise the upstream is asked).
    const kept = o.blocks.keptTx(txHash);
    const theirs = kept
      ? { l2BlockNumber: kept.block, txIndexInBlock: kept.position }
      : await upstreamLogs(() => o.source.txEffect(txHash.toString()));
    if (!theirs || !below(theirs.l2BlockNumber)) return undefined;
    const block = await upstreamBlock(theirs.l2BlockNumber);
    const effect = block.body.txEffects[theirs.txIndexInBlock];
    if (!effect?.txHash.equals(txHash)) {
      throw new UpstreamStateUnavailableError(
        `${o.upstream.url} placed tx ${txHash} in its block ${theirs.l2BlockNumber}, which does not hold it`,
      );
    }
    return new IndexedTxEffect(block.number, block.hash(), effect, theirs.txIndexInBlock);
  }) satisfies RpcHandlers['node_getTxEffect'];
  const getTxReceipt = wrapped.node_getTxReceipt as RpcHandlers['node_getTxReceipt'];
  const getTxEffectHere = wrapped.node_getTxEffect as RpcHandlers['node_getTxEffect'];
  wrapped.node_getTxReceipt = (async (txHash) => {
    const ours = await getTxReceipt(txHash);
    if (ours.status !== 'dropped' || ours.dropReason !== 'unknown') return ours;
    // Never seen here: a tx the upstream mined below the fork has its receipt from that block (checked above).
    const effect = await getTxEffectHere(txHash);
    if (!effect || !below(effect.l2BlockNumber)) return ours;
    const block = await upstreamBlock(effect.l2BlockNumber);
    return o.minedReceipt(txHash, {
      blockNumber: effect.l2BlockNumber,
      blockHash: effect.l2BlockHash,
      txIndex: effect.txIndexInBlock,
      revertCode: effect.data.revertCode,
      transactionFee: effect.data.transactionFee.value,
      slotNumber: block.header.slotNumber,
    });
  }) satisfies RpcHandlers['node_getTxReceipt'];
  /**
   * The upstream's blocks of [from, to) below the fork's first block (none if the range starts at it or later),
   * fetched and checked through the cache; a range with more than MAX_UPSTREAM_BLOCKS_PER_READ of them is refused.
   */
  const upstreamRange = async (what: string, from: number, to: number): Promise<L2Block[]> => {
    const first = o.firstBlock();
    const start = Math.max(from, 1);
    const end = Math.min(to, first);
    if (start >= end) return [];
    const max = MAX_UPSTREAM_BLOCKS_PER_READ;
    if (end - start > max) {
      throw rpcErrors.invalidParams(
        `${what} reaches blocks ${start} to ${end - 1}, below this lazy fork's first block ${first}: those are ` +
          `${o.upstream.url}'s, and one request reads at most ${max} of them (here ${end - start}); start at ` +
          `block ${first - max} or later, or ask ${o.upstream.url}`,
      );
    }
    return o.blocks.blocks(start, end - start);
  };
  /** The upstream's blocks a log filter reaches: its tx's block, or its range's part below the fork. */
  const upstreamLogBlocks = async (method: string, filter: LogFilterParam): Promise<L2Block[]> => {
    if (filter.txHash) {
      const effect = await getTxEffectHere(filter.txHash);
      return effect && below(effect.l2BlockNumber) ? [await upstreamBlock(effect.l2BlockNumber)] : [];
    }
    const from = Math.max(filter.fromBlock ?? 1, filter.afterLog?.blockNumber ?? 1);
    return upstreamRange(`This ${method} filter`, from, filter.toBlock ?? Number.POSITIVE_INFINITY);
  };
  wrapped.node_getPublicLogs = (async (filter) => {
    const f = toLogFilter(filter);
    return o.logs.getPublicLogs(f, await upstreamLogBlocks('node_getPublicLogs', filter));
  }) satisfies RpcHandlers['node_getPublicLogs'];
  wrapped.node_getContractClassLogs = (async (filter) => {
    const f = toLogFilter(filter);
    return o.logs.getContractClassLogs(f, await upstreamLogBlocks('node_getContractClassLogs', filter));
  }) satisfies RpcHandlers['node_getContractClassLogs'];
  wrapped.node_getPrivateLogs = (async (from, limit) =>
    o.logs.getPrivateLogs(
      from,
      limit,
      await upstreamRange('This node_getPrivateLogs range', from, from + limit),
    )) satisfies RpcHandlers['node_getPrivateLogs'];
  const privateByTags = wrapped.node_getPrivateLogsByTags as RpcHandlers['node_getPrivateLogsByTags'];
  wrapped.node_getPrivateLogsByTags = (async (tags, page, referenceBlock) =>
    lazyForkTagPage(
      tags,
      page ?? 0,
      o.firstBlock(),
      (t, p) => upstreamLogs(() => o.source.privateLogsByTags(t, p)),
      (t, p) => privateByTags(t, p, referenceBlock),
    )) satisfies RpcHandlers['node_getPrivateLogsByTags'];
  const publicByTags =
    wrapped.node_getPublicLogsByTagsFromContract as RpcHandlers['node_getPublicLogsByTagsFromContract'];
  wrapped.node_getPublicLogsByTagsFromContract = (async (contract, tags, page, referenceBlock) =>
    lazyForkTagPage(
      tags,
      page ?? 0,
      o.firstBlock(),
      (t, p) => upstreamLogs(() => o.source.publicLogsByTagsFromContract(contract, t, p)),
      (t, p) => publicByTags(contract, t, p, referenceBlock),
    )) satisfies RpcHandlers['node_getPublicLogsByTagsFromContract'];
  for (const name of RANGE_FROM_METHODS) {
    const handler = wrapped[name] as (from: number, ...rest: unknown[]) => Promise<unknown>;
    wrapped[name] = async (from: number, ...rest: unknown[]) => {
      if (below(from)) {
        throw rpcErrors.blockNotAvailable(
          `Block ${from} is below this lazy fork's first block ${o.firstBlock()}: this node does not serve the ` +
            `upstream's checkpointed blocks (their L1 publication cannot be checked here); ask ${o.upstream.url} ` +
            '(or start the fork with --fork-mode replay)',
          { oldestAvailableBlock: o.firstBlock() },
        );
      }
      return handler(from, ...rest);
    };
  }
  return wrapped as RpcHandlers;
}
