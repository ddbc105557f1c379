import { BlockHeader } from '../../core/block/block-header.js';
import type { L2Block } from '../../core/block/l2-block.js';
import { BlockHash } from '../../core/block-hash.js';
import { INITIAL_L2_BLOCK_NUM } from '../../core/constants.js';
import { Fr } from '../../core/fr.js';
import type { ContractClassLog } from '../../core/logs/contract-class-log.js';
import { ExtendedContractClassLog } from '../../core/logs/extended-contract-class-log.js';
import { ExtendedPublicLog } from '../../core/logs/extended-public-log.js';
import type { GetContractClassLogsResponse, GetPublicLogsResponse } from '../../core/logs/get-logs-response.js';
import type { LogFilter } from '../../core/logs/log-filter.js';
import { LogId } from '../../core/logs/log-id.js';
import { PrivateLog } from '../../core/logs/private-log.js';
import type { PublicLog } from '../../core/logs/public-log.js';
import { TxScopedL2Log } from '../../core/logs/tx-scoped-l2-log.js';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';
import { TxHash } from '../../core/tx-hash.js';
import type { ChainStore } from './chain-store.js';
import type { TaggedLogPosition } from './log-tag-repository.js';
import { StoredTxEffect } from './stored-tx-effect.js';

/** Page size of node_getPublicLogs and node_getContractClassLogs (4.1.2's ARCHIVER_MAX_LOGS default). */
export const MAX_LOGS_PER_PAGE = 1000;
/** Page size per tag of the tag queries (4.1.2 MAX_LOGS_PER_TAG). */
export const MAX_LOGS_PER_TAG = 10;

/**
 * The log queries of spec part 4, answered from the chain store: private logs by block range, public and
 * contract class logs by filter with afterLog paging, and tagged logs through the tag index.
 */
export class ChainLogQueries {
  constructor(private readonly store: ChainStore) {}

  /**
   * Private logs of `limit` blocks from `from`, in chain order (node_getPrivateLogs); `earlier` as for the
   * filtered queries.
   */
  getPrivateLogs(from: number, limit: number, earlier: readonly L2Block[] = []): PrivateLog[] {
    const out: PrivateLog[] = [];
    if (limit > 0 && from <= this.store.latestBlockNumber()) this.store.requireBody(from);
    const ours = [...this.store.txs.ofBlockRange(from, from + limit)].map(({ effect }) => new StoredTxEffect(effect));
    const theirs = earlier
      .filter((b) => b.number >= from && b.number < from + limit)
      .flatMap((b) => b.body.txEffects.map((t) => StoredTxEffect.of(t)));
    for (const e of [...theirs, ...ours]) {
      for (let k = 0; k < e.privateLogCount; k++) out.push(PrivateLog.fromEmitted(e.privateLogData(k).map(fr)));
    }
    return out;
  }

  /**
   * node_getPublicLogs: public logs matching the filter, a page at a time. `earlier` are blocks below the
   * store's first one that the filter's range reaches (a lazy fork's upstream blocks, checked): scanned first,
   * as if they were stored.
   */
  getPublicLogs(filter: LogFilter, earlier: readonly L2Block[] = []): GetPublicLogsResponse {
    return this.scan(
      filter,
      earlier,
      'public',
      (e, k) => e.publicLog(k),
      (id, log) => new ExtendedPublicLog(id, log),
    );
  }

  /** node_getContractClassLogs: the same, over contract class logs (`tag` does not apply to them). */
  getContractClassLogs(filter: LogFilter, earlier: readonly L2Block[] = []): GetContractClassLogsResponse {
    return this.scan(
      { ...filter, tag: undefined },
      earlier,
      'class',
      (e, k) => e.contractClassLog(k),
      (id, log) => new ExtendedContractClassLog(id, log),
    );
  }

  /**
   * node_getLogsByTags: for each tag, its first `logsPerTag` logs, private and public, in chain order (the
   * 2.x/3.x method, answered in the 4.x TxScopedL2Log shape).
   */
  getLogsByTags(tags: readonly Fr[], logsPerTag: number): TxScopedL2Log[][] {
    const scope = new ScopeCache(this.store);
    return tags.map((tag) => this.store.tags.findAnyKind(tag.toBuffer(), logsPerTag).map((p) => scope.scopedLog(p)));
  }

  /** node_getPrivateLogsByTags: page `page` (10 per tag) of each tag's private logs. */
  getPrivateLogsByTags(tags: readonly Fr[], page: number): TxScopedL2Log[][] {
    const scope = new ScopeCache(this.store);
    return tags.map((tag) =>
      this.store.tags
        .find(tag.toBuffer(), 'private', MAX_LOGS_PER_TAG, page * MAX_LOGS_PER_TAG)
        .map((p) => scope.scopedLog(p)),
    );
  }

  /** node_getPublicLogsByTagsFromContract: page `page` of each tag's public logs emitted by `contract`. */
  getPublicLogsByTagsFromContract(contract: bigint, tags: readonly Fr[], page: number): TxScopedL2Log[][] {
    const scope = new ScopeCache(this.store);
    const address = bigIntToBuffer32(contract);
    return tags.map((tag) => {
      const out: TxScopedL2Log[] = [];
      let skip = page * MAX_LOGS_PER_TAG;
      for (const p of this.store.tags.iterate(tag.toBuffer(), 'public')) {
        if (!scope.effect(p).publicLogContract(p.logIndex).equals(address)) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        out.push(scope.scopedLog(p));
        if (out.length === MAX_LOGS_PER_TAG) break;
      }
      return out;
    });
  }

  /**
   * The block scan behind both filtered queries. Logs come in chain order (block, tx, log); with `afterLog`
   * only those strictly after it, with `txHash` only that tx's. `fromBlock` is inclusive, `toBlock` exclusive.
   */
  private scan<L extends PublicLog | ContractClassLog, X>(
    filter: LogFilter,
    earlier: readonly L2Block[],
    kind: 'public' | 'class',
    read: (e: StoredTxEffect, k: number) => L,
    extend: (id: LogId, log: L) => X,
  ): { logs: X[]; maxLogsHit: boolean } {
    const logs: X[] = [];
    const after = filter.afterLog;
    // Without a start the scan begins at the oldest block with a body (block history pruning); a start the
    // caller names in a pruned block is refused, naming the oldest available block.
    const oldest = this.store.oldestBlockWithBody();
    let from = Math.max(filter.fromBlock ?? oldest, INITIAL_L2_BLOCK_NUM);
    if (after && after.blockNumber > from) from = after.blockNumber;
    let to = this.store.latestBlockNumber() + 1;
    if (filter.toBlock !== undefined && filter.toBlock < to) to = filter.toBlock;
    const count = (e: StoredTxEffect) => (kind === 'public' ? e.publicLogCount : e.contractClassLogCount);
    /** The blocks to scan, in chain order: the earlier ones given, then the store's. */
    const blocks: { number: number; hash: bigint; effects: () => StoredTxEffect[] }[] = [];
    for (const b of earlier) {
      if (b.number < from || b.number >= to) continue;
      const effects = b.body.txEffects.map((t) => StoredTxEffect.of(t));
      const holds = filter.txHash
        ? effects.some((e) => e.txHash === filter.txHash?.value)
        : effects.some((e) => count(e) > 0);
      if (holds) blocks.push({ number: b.number, hash: b.hash().value, effects: () => effects });
    }
    const stored = (n: number) => ({
      number: n,
      hash: this.store.getBlockHash(n) as bigint,
      effects: () => this.store.txs.ofBlock(n).map((bytes) => new StoredTxEffect(bytes)),
    });
    if (filter.txHash) {
      const at = blocks.length > 0 ? undefined : this.store.locateTx(filter.txHash.value);
      if (at && at.blockNumber >= from && at.blockNumber < to) {
        this.store.requireBody(at.blockNumber, `tx ${filter.txHash} (mined in block ${at.blockNumber})`);
        blocks.push(stored(at.blockNumber));
      }
    } else if (from < to) {
      this.store.requireBody(from);
      const withLogs =
        kind === 'public'
          ? this.store.blocks.withPublicLogs(from, to)
          : this.store.blocks.withContractClassLogs(from, to);
      blocks.push(...withLogs.map(stored));
    }
    const contract = filter.contractAddress ? bigIntToBuffer32(filter.contractAddress.value) : undefined;
    for (const block of blocks) {
      const blockNumber = block.number;
      const blockHash = new BlockHash(block.hash);
      const effects = block.effects();
      for (let txIndex = 0; txIndex < effects.length; txIndex++) {
        if (after && blockNumber === after.blockNumber && txIndex < after.txIndex) continue;
        const e = effects[txIndex] as StoredTxEffect;
        if (filter.txHash && e.txHash !== filter.txHash.value) continue;
        let first = 0;
        if (after && blockNumber === after.blockNumber && txIndex === after.txIndex) first = after.logIndex + 1;
        for (let k = first; k < count(e); k++) {
          if (kind === 'public') {
            if (contract && !e.publicLogContract(k).equals(contract)) continue;
            if (filter.tag) {
              const tag = e.publicLogTag(k);
              if (!tag || readField32(tag) !== filter.tag.value) continue;
            }
          }
          const log = read(e, k);
          if (
            kind === 'class' &&
            filter.contractAddress &&
            log.contractAddress.value !== filter.contractAddress.value
          ) {
            continue;
          }
          logs.push(extend(new LogId(blockNumber, blockHash, new TxHash(e.txHash), txIndex, k), log));
          if (logs.length >= MAX_LOGS_PER_PAGE) return { logs, maxLogsHit: true };
        }
      }
    }
    return { logs, maxLogsHit: false };
  }
}

/** Per query: each tx effect and block timestamp read once, however many of its logs match. */
class ScopeCache {
  private readonly effects = new Map<number, StoredTxEffect>();
  private readonly timestamps = new Map<number, bigint>();

  constructor(private readonly store: ChainStore) {}

  effect(p: TaggedLogPosition): StoredTxEffect {
    const key = p.blockNumber * 2 ** 20 + p.txIndex;
    let e = this.effects.get(key);
    if (!e) {
      e = new StoredTxEffect(this.store.txs.get(p.blockNumber, p.txIndex) as Buffer);
      this.effects.set(key, e);
    }
    return e;
  }

  scopedLog(p: TaggedLogPosition): TxScopedL2Log {
    const e = this.effect(p);
    let ts = this.timestamps.get(p.blockNumber);
    if (ts === undefined) {
      ts = BlockHeader.fromBuffer((this.store.blocks.get(p.blockNumber) as { header: Buffer }).header).timestamp;
      this.timestamps.set(p.blockNumber, ts);
    }
    const data = p.kind === 'private' ? e.privateLogData(p.logIndex) : e.publicLogData(p.logIndex);
    return new TxScopedL2Log(
      new TxHash(e.txHash),
      p.blockNumber,
      ts,
      data.map(fr),
      e.noteHashes.map(fr),
      fr(e.firstNullifier),
    );
  }
}

function fr(v: bigint): Fr {
  return v === 0n ? Fr.ZERO : new Fr(v);
}
