import type { Chain } from '../chain/chain.js';
import type { NodeConfig } from '../config/settings.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import { verifyUpstreamCheckpoint } from '../sync/checkpoint-verification.js';
import { checkUpstreamGenesis } from '../sync/upstream-identity.js';
import type { SparseBase } from '../world-state/world-state.js';
import { type ForkPlan, ForkRefusedError, forkUpstreamCall } from './fork-plan.js';
import { RpcWitnessSource } from './rpc-witness-source.js';
import { IN_MEMORY_KEPT_BLOCK_BYTES, UpstreamBlockCache } from './upstream-block-cache.js';
import { UpstreamStateFetcher } from './upstream-state-fetcher.js';

export interface LazyForkOptions {
  readonly plan: ForkPlan;
  readonly chain: Chain;
  readonly config: NodeConfig;
  readonly log: Logger;
}

/** The world state's base of a lazy fork at the plan's block: the upstream's block N, its roots and archive. */
export function lazyForkBase(plan: ForkPlan): SparseBase {
  const block = plan.block;
  if (!block) throw new ForkRefusedError('a lazy fork starts from a block of the upstream, not from its genesis');
  return {
    blockNumber: block.number,
    blockHash: block.hash().value,
    state: block.header.state,
    archive: block.archive,
  };
}

/**
 * Makes this dev chain continue the upstream's block N without replaying blocks 1 to N (--fork-mode lazy): the
 * world state was opened on the upstream's roots at N (WorldState.openSparse); here the genesis is checked to be
 * the upstream's, each tree's frontier is fetched (one sibling path per tree, checked against its root), and the
 * blocks of N's checkpoint are stored as the chain's first blocks, its checkpoint recorded as published. What a
 * read or a block later needs of the upstream's state is fetched on use (`fetcher`), checked and kept in the
 * data directory. So the start costs the same whatever N is.
 */
export class LazyFork implements Service {
  readonly name = 'fork';
  /** Fills the world state (and the contracts) from the upstream at block N, counting its calls. */
  readonly fetcher: UpstreamStateFetcher;
  /** The upstream's methods a lazy fork reads. */
  readonly source: RpcWitnessSource;
  /** The upstream's blocks below the fork, kept in the data directory once fetched. */
  readonly blocks: UpstreamBlockCache;

  constructor(private readonly o: LazyForkOptions) {
    this.source = new RpcWitnessSource({ url: o.plan.upstream.url, maxResponseSize: o.config.syncMaxResponseSize });
    this.fetcher = new UpstreamStateFetcher(o.chain.worldState, this.source, o.chain.store);
    this.blocks = new UpstreamBlockCache(
      o.chain,
      o.plan.upstream,
      this.fetcher,
      o.config.dataDirectory ? undefined : IN_MEMORY_KEPT_BLOCK_BYTES,
    );
  }

  /** The first block this node holds: blocks below are the upstream's, served from it (`blocks`). */
  get firstBlock(): number {
    return this.o.chain.store.meta.get('forkFirstBlock') ?? 0;
  }

  async start(): Promise<void> {
    const { plan, chain, log } = this.o;
    const n = plan.blockNumber;
    const url = plan.upstream.url;
    const recorded = chain.store.meta.get('forkBlock');
    if (recorded !== undefined) {
      // A restart, or a --load-state of a lazy fork's dump: the upstream given must hold the same block N.
      const ours = chain.store.blocks.get(recorded)?.hash;
      if (!ours || plan.block?.hash().toBuffer().equals(ours) !== true) {
        throw new ForkRefusedError(
          `this state is a lazy fork of block ${recorded} of ${chain.store.forkUpstream.url() ?? 'another node'}, ` +
            `and ${url}'s block ${n} is another block: give --fork-url the node it was forked from`,
        );
      }
      chain.store.db.transaction(() => chain.store.forkUpstream.setUrl(recordedUrl(url)))();
      log.info(
        { forkBlock: recorded, mode: 'lazy' },
        `lazy fork of ${url} at block ${recorded} taken from the data directory`,
      );
      return;
    }
    const started = performance.now();
    const ws = chain.worldState;
    const genesis = await forkUpstreamCall(this.o.plan, 'its genesis block', () => plan.upstream.genesisHeader());
    checkUpstreamGenesis(
      genesis,
      { hash: ws.getGenesisBlockHash(), state: ws.getInitialStateReference(), hasBlocks: false },
      url,
    );
    const block = plan.block;
    if (!block) throw new ForkRefusedError('a lazy fork starts from a block of the upstream, not from its genesis');
    const [checkpoint] = await forkUpstreamCall(this.o.plan, `its checkpoint ${block.checkpointNumber}`, () =>
      plan.upstream.checkpoints(block.checkpointNumber, 1),
    );
    const last = checkpoint?.blocks.at(-1);
    if (!checkpoint || checkpoint.number !== block.checkpointNumber || !last) {
      throw new ForkRefusedError(
        `cannot fork ${url} lazily at block ${n}: its checkpoint ${block.checkpointNumber} is not published yet ` +
          '(fork at the last block of a published checkpoint, or use --fork-mode replay)',
      );
    }
    if (last.number !== n) {
      throw new ForkRefusedError(
        `cannot fork ${url} lazily at block ${n}: it is inside checkpoint ${checkpoint.number}, whose last block is ` +
          `${last.number} (a lazy fork starts after a whole checkpoint: --fork-block ${last.number}, or --fork-mode replay)`,
      );
    }
    if (last.hash().value !== block.hash().value) {
      throw new ForkRefusedError(
        `cannot fork ${url} at block ${n}: its block ${n} changed while the fork was made (a reorg); start again`,
      );
    }
    try {
      await this.fetcher.fetchFrontiers();
    } catch (err) {
      throw new ForkRefusedError(`cannot fork ${url} lazily at block ${n}: ${(err as Error).message}`);
    }
    const first = checkpoint.blocks[0]?.number ?? n;
    chain.store.db.transaction(() => {
      for (const b of checkpoint.blocks) {
        chain.store.writeBlock({ block: b, l1ToL2Messages: [], l1ToL2MessageStartIndex: 0 });
      }
      // Its position, headers hash and archive are checked against its blocks before it is recorded.
      const row = verifyUpstreamCheckpoint(checkpoint, chain.store, {
        number: checkpoint.number - 1,
        lastBlock: first - 1,
      });
      chain.store.checkpoints.insert(row);
      chain.store.meta.set('forkFirstBlock', first);
      chain.store.meta.set('forkBlock', n);
      chain.store.forkUpstream.setUrl(recordedUrl(url));
    })();
    chain.syncSettlement();
    const ms = Math.round(performance.now() - started);
    log.info(
      { forkUrl: url, forkBlock: n, ms, mode: 'lazy', upstreamCalls: this.fetcher.calls + 3 },
      `forked ${url} at block ${n} (lazy mode: no replay, the upstream's state is fetched when first read, ` +
        `${ms} ms); building block ${n + 1} on it`,
    );
  }

  async stop(): Promise<void> {}
}

/** The upstream's URL as the data directory (and so a --dump-state file) records it: without credentials. */
function recordedUrl(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  return u.toString();
}
