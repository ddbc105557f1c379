import { L2Block } from '../../core/block/l2-block.js';
import type { TxHash } from '../../core/tx-hash.js';
import type { Chain } from '../chain/chain.js';
import type { Upstream } from '../sync/upstream.js';
import { type UpstreamStateFetcher, UpstreamStateUnavailableError } from './upstream-state-fetcher.js';

/** Archive leaves asked of the upstream at once while a range of its blocks is checked. */
const ARCHIVE_FETCHES_AT_ONCE = 8;

/**
 * The most upstream blocks one read may need (node_getBlocks' own limit): a log filter or private-log range whose
 * part below the fork is longer is refused, so no request makes the fork fetch and check more.
 */
export const MAX_UPSTREAM_BLOCKS_PER_READ = 100;

/** Bytes of upstream blocks an in-memory fork (no --data-directory) keeps; the lowest go first past it. */
export const IN_MEMORY_KEPT_BLOCK_BYTES = 64 * 1024 * 1024;

/**
 * A lazy fork's blocks below its first block: the upstream's, fetched when first asked for (a run of missing ones
 * in as few node_getBlocks calls as the upstream allows), each checked against the fork's archive (its hash must
 * be the archive's leaf at its number, itself fetched with its sibling path and proven against the root at the
 * fork block) and kept in the data directory (chain_fork_upstream_block), so a restarted fork or a --load-state of
 * its dump serves them without asking again. A kept block is checked again when read. At most one range at a time
 * is in memory, bounded by the callers (the RPC methods' limits, MAX_UPSTREAM_BLOCKS_PER_READ). Without a data
 * directory the kept blocks live in memory: at most `maxKeptBytes` of them stay.
 */
export class UpstreamBlockCache {
  constructor(
    private readonly chain: Chain,
    private readonly upstream: Upstream,
    private readonly fetcher: UpstreamStateFetcher,
    private readonly maxKeptBytes?: number,
  ) {}

  /** Upstream block `n` (below the fork's first block). */
  async block(n: number): Promise<L2Block> {
    return (await this.blocks(n, 1))[0] as L2Block;
  }

  /** Upstream blocks `from` to `from + count - 1`, all below the fork's first block, in order. */
  async blocks(from: number, count: number): Promise<L2Block[]> {
    const store = this.chain.store.forkUpstream;
    const found = new Map<number, L2Block>();
    const missing: number[] = [];
    for (let n = from; n < from + count; n++) {
      const kept = store.block(n);
      if (kept) found.set(n, L2Block.fromBuffer(kept, `kept upstream block ${n}`));
      else missing.push(n);
    }
    const url = this.upstream.url;
    // Each run of missing numbers is asked for at once; the upstream may answer fewer (its size budget).
    for (let i = 0; i < missing.length; ) {
      const first = missing[i] as number;
      let last = first;
      while (missing[i + 1] === last + 1) {
        i++;
        last++;
      }
      i++;
      for (let next = first; next <= last; ) {
        this.fetcher.calls++;
        const got = await this.upstream.blocks(next, last - next + 1).catch((err: Error) => {
          throw new UpstreamStateUnavailableError(
            `block ${next} is the upstream's and ${url} did not give it: ${err.message}`,
          );
        });
        if (got.length === 0 || got[0]?.number !== next) {
          throw new UpstreamStateUnavailableError(`block ${next} is the upstream's and ${url} did not give it`);
        }
        for (const b of got.slice(0, last - next + 1)) found.set(b.number, b);
        next += Math.min(got.length, last - next + 1);
      }
    }
    // The archive leaves of every block (a few fetched at once where not kept yet), then each block checked.
    const numbers = [...found.keys()].sort((a, b) => a - b);
    const hashes: (bigint | undefined)[] = [];
    for (let k = 0; k < numbers.length; k += ARCHIVE_FETCHES_AT_ONCE) {
      const part = numbers.slice(k, k + ARCHIVE_FETCHES_AT_ONCE);
      hashes.push(...(await Promise.all(part.map((n) => this.archiveLeaf(n)))));
    }
    const fresh = new Set(missing);
    const out: L2Block[] = [];
    for (const [k, n] of numbers.entries()) {
      const hash = hashes[k];
      const block = found.get(n) as L2Block;
      if (block.number !== n || block.hash().value !== hash) {
        throw new UpstreamStateUnavailableError(
          fresh.has(n)
            ? `${url} gave a block ${n} that is not the one this fork's archive holds`
            : `the kept upstream block ${n} is not the one this fork's archive holds (damaged data directory)`,
        );
      }
      out.push(block);
    }
    if (fresh.size > 0) {
      this.chain.store.db.transaction(() => {
        for (const b of out) {
          if (!fresh.has(b.number)) continue;
          const txs = b.body.txEffects.map((e) => e.txHash.toBuffer());
          store.insertBlock(b.number, b.hash().toBuffer(), b.toBuffer(), txs);
        }
        if (this.maxKeptBytes !== undefined) store.trim(this.maxKeptBytes, new Set(numbers));
      })();
    }
    return out;
  }

  /** Where a tx of a kept upstream block is (a tx of a block never fetched is not known here). */
  keptTx(txHash: TxHash): { block: number; position: number } | undefined {
    return this.chain.store.forkUpstream.tx(txHash.toBuffer());
  }

  /** The fork's archive leaf `n` (a block hash): fetched with its path, checked against the root, the first time. */
  private archiveLeaf(n: number): Promise<bigint | undefined> {
    return this.fetcher.run(() => this.chain.worldState.getBlockHash(n));
  }
}
