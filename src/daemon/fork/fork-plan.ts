import type { BlockHeader } from '../../core/block/block-header.js';
import type { L2Block } from '../../core/block/l2-block.js';
import type { NodeConfig } from '../config/settings.js';
import { hasL1 } from '../l1/l1-settings.js';
import type { Logger } from '../logging/logger.js';
import { ChainMetaRepository } from '../store/chain-meta-repository.js';
import { ForkUpstreamRepository } from '../store/fork-upstream-repository.js';
import type { SqliteDatabase } from '../store/node-database.js';
import { RpcUpstream } from '../sync/rpc-upstream.js';
import type { Upstream } from '../sync/upstream.js';
import { adoptUpstreamIdentity, type IsExplicitSetting } from '../sync/upstream-identity.js';

/** A fork the node cannot make: the message says what is wrong and what to do. */
export class ForkRefusedError extends Error {
  override name = 'ForkRefusedError';
}

/** One upstream call while a fork is made; a failure refuses the fork, naming the upstream and what was asked. */
export async function forkUpstreamCall<T>(plan: ForkPlan, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new ForkRefusedError(`cannot fork ${plan.upstream.url}: ${what} did not come: ${(err as Error).message}`);
  }
}

/** What a fork starts from, read from the upstream before the chain opens. */
export interface ForkPlan {
  readonly upstream: Upstream;
  /** The upstream's block the fork continues from. */
  readonly blockNumber: number;
  /** Block `blockNumber`'s header, as the upstream serves it. */
  readonly header: BlockHeader;
  /** Block `blockNumber` as the upstream serves it (undefined for block 0, the genesis). */
  readonly block: L2Block | undefined;
  /**
   * Unix time of slot 0 that puts the fork's slots where the upstream's are, so block N+1 comes after block N
   * and a tx anchored to block N does not look a chain's age old.
   */
  readonly genesisTime: number;
}

/** A lazy fork the database already holds (a restart, or a --load-state of a lazy fork's dump). */
export interface RecordedLazyFork {
  /** The upstream's block it continues. */
  readonly block: number;
  /** The upstream it was forked from (or last started on), without credentials. */
  readonly url: string | undefined;
}

/** The lazy fork this database holds, if it holds one. */
export function recordedLazyFork(db: SqliteDatabase): RecordedLazyFork | undefined {
  const meta = new ChainMetaRepository(db);
  const block = meta.get('forkBlock');
  if (block === undefined || meta.get('forkFirstBlock') === undefined) return undefined;
  return { block, url: new ForkUpstreamRepository(db).url() };
}

/**
 * A database holding a lazy fork needs its upstream: the state below the fork that was never read is only there.
 * Started without --fork-url, it is refused, naming the upstream it was forked from.
 */
export function requireLazyForkUpstream(recorded: RecordedLazyFork | undefined, config: NodeConfig): void {
  if (!recorded || config.forkUrl) return;
  const what = config.loadState ? `the state in ${config.loadState}` : 'this data directory';
  throw new ForkRefusedError(
    `${what} is a lazy fork of block ${recorded.block} of ${recorded.url ?? 'an upstream node'}: it holds only ` +
      "what the fork read of the upstream's state, and reads the rest from there. Start it with --fork-url " +
      `${recorded.url ?? '<the upstream node>'} (the upstream, or a node with the same chain up to block ${recorded.block})`,
  );
}

/**
 * Reads the upstream a fork starts from (--fork-url): its identity, adopted as a follower adopts it (chain id,
 * rollup version, protocol contracts), and the block the fork continues (--fork-block, else its latest). An
 * upstream that cannot be reached, or a block it does not have, is refused with a clear message.
 */
export async function planFork(
  config: NodeConfig,
  isExplicit: IsExplicitSetting,
  log: Logger,
  recorded?: RecordedLazyFork,
): Promise<ForkPlan> {
  const url = config.forkUrl as string;
  if (config.syncFrom)
    throw new ForkRefusedError('--fork-url and --sync-from exclude each other: a fork builds its own blocks');
  if (hasL1(config)) {
    throw new ForkRefusedError('--fork-url makes a dev chain on the L1 stand-in: drop --l1 and --l1-rpc-urls');
  }
  if (config.loadState && !recorded) {
    throw new ForkRefusedError(
      `--fork-url with --load-state takes a lazy fork's dump (which needs its upstream); ${config.loadState} holds ` +
        'a chain of its own: load it without --fork-url',
    );
  }
  if (recorded && config.forkMode === 'replay') {
    throw new ForkRefusedError(
      `the state is a lazy fork of block ${recorded.block}: it continues in lazy mode (drop --fork-mode replay)`,
    );
  }
  if (recorded && config.forkBlock !== undefined && config.forkBlock !== recorded.block) {
    throw new ForkRefusedError(
      `the state is a lazy fork of block ${recorded.block}, not ${config.forkBlock}: drop --fork-block or give ` +
        `${recorded.block}`,
    );
  }
  const upstream = new RpcUpstream({ url, maxResponseSize: config.syncMaxResponseSize });
  const refuse = (what: string, err: unknown): never => {
    throw new ForkRefusedError(`cannot fork ${url}: ${what}: ${(err as Error).message}`);
  };
  const identity = await upstream.identity().catch((err) => refuse('its node info did not come', err));
  for (const line of adoptUpstreamIdentity(identity, config, isExplicit, url)) log.info(`fork: adopted ${line}`);
  const tips = await upstream.tips().catch((err) => refuse('its tips did not come', err));
  const latest = tips.proposed.number;
  const n = recorded?.block ?? config.forkBlock ?? latest;
  if (n > latest) {
    throw new ForkRefusedError(`cannot fork ${url} at block ${n}: its latest block is ${latest} (--fork-block)`);
  }
  const [block] =
    n === 0 ? [undefined] : await upstream.blocks(n, 1).catch((err) => refuse(`its block ${n} did not come`, err));
  const header = n === 0 ? await upstream.genesisHeader() : block?.header;
  if (!header) throw new ForkRefusedError(`cannot fork ${url} at block ${n}: it does not serve that block`);
  const g = header.globalVariables;
  const genesisTime = Math.max(0, Number(g.timestamp) - g.slotNumber * config.slotDuration);
  return { upstream, blockNumber: n, header, block, genesisTime };
}
