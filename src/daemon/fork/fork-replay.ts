import type { Chain } from '../chain/chain.js';
import type { NodeConfig } from '../config/settings.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import { UpstreamBlockVerifier } from '../sync/upstream-block-verifier.js';
import { checkUpstreamGenesis } from '../sync/upstream-identity.js';
import { type ForkPlan, ForkRefusedError, forkUpstreamCall } from './fork-plan.js';

/** Checkpoints (with their blocks) asked of the upstream per call. */
const CHECKPOINTS_PER_CALL = 16;
/** Blocks asked of the upstream per call past its last checkpoint. */
const BLOCKS_PER_CALL = 32;

export interface ForkReplayOptions {
  readonly plan: ForkPlan;
  readonly chain: Chain;
  readonly config: NodeConfig;
  readonly log: Logger;
}

/**
 * Makes this dev chain's blocks 0 to N the upstream's (--fork-url, --fork-block N), before the sequencer builds
 * N+1: the genesis must be the upstream's, then each checkpoint and block is checked as a follower checks it
 * (the follower's block verifier: position, identity, body against header, then every root and the archive
 * inside applyBlock) and stored through the one applyBlock path. The state after block N is then exactly the
 * upstream's, so the blocks built on it have the roots any node holding that state computes. A data directory
 * that already holds the fork is taken as it is (the upstream is not asked again).
 */
export class ForkReplay implements Service {
  readonly name = 'fork';
  constructor(private readonly o: ForkReplayOptions) {}

  async start(): Promise<void> {
    const { plan, chain, log } = this.o;
    const n = plan.blockNumber;
    const url = plan.upstream.url;
    const ours = chain.latestBlockNumber;
    const recorded = chain.store.meta.get('forkBlock');
    if (recorded !== undefined) {
      if (recorded !== n && this.o.config.forkBlock !== undefined) {
        throw new ForkRefusedError(
          `this data directory holds a fork at block ${recorded}, not ${n}: drop --fork-block or use another --data-directory`,
        );
      }
      log.info(
        { forkBlock: recorded, mode: 'replay' },
        `fork of ${url} at block ${recorded} taken from the data directory (replay mode)`,
      );
      return;
    }
    if (ours > 0) {
      throw new ForkRefusedError(
        `this data directory already holds a chain of ${ours} blocks: a fork starts from an empty one (another --data-directory)`,
      );
    }
    const ws = chain.worldState;
    const genesis = await forkUpstreamCall(this.o.plan, `its genesis block`, () => plan.upstream.genesisHeader());
    checkUpstreamGenesis(
      genesis,
      { hash: ws.getGenesisBlockHash(), state: ws.getInitialStateReference(), hasBlocks: false },
      url,
    );
    const started = performance.now();
    const verifier = new UpstreamBlockVerifier({
      upstream: plan.upstream,
      chain: () => chain,
      config: this.o.config,
      active: () => true,
      applied: () => {},
    });
    let checkpoint = 1;
    // Whole checkpoints first: the fork's checkpoints up to N are the upstream's, recorded as published.
    while (chain.latestBlockNumber < n) {
      const batch = await forkUpstreamCall(this.o.plan, `its checkpoints from ${checkpoint}`, () =>
        plan.upstream.checkpoints(checkpoint, CHECKPOINTS_PER_CALL),
      );
      if (batch.length === 0) break;
      for (const c of batch) {
        const last = c.blocks.at(-1)?.number ?? 0;
        if (last > n) {
          // The checkpoint N is in goes on past N: its blocks up to N are the fork's; the sequencer finishes it.
          for (const b of c.blocks) if (b.number <= n) await this.replayed(() => verifier.applyBlock(b), b.number);
          break;
        }
        await this.replayed(() => verifier.applyCheckpoint(c), last);
        checkpoint = c.number + 1;
      }
      if (batch.some((c) => (c.blocks.at(-1)?.number ?? 0) >= n)) break;
    }
    // Blocks past the upstream's last checkpoint (proposed only), up to N.
    while (chain.latestBlockNumber < n) {
      const from = chain.latestBlockNumber + 1;
      const blocks = await forkUpstreamCall(this.o.plan, `its blocks from ${from}`, () =>
        plan.upstream.blocks(from, Math.min(BLOCKS_PER_CALL, n - from + 1)),
      );
      if (blocks.length === 0) {
        throw new ForkRefusedError(`cannot fork ${url} at block ${n}: it does not serve block ${from}`);
      }
      for (const b of blocks) if (b.number <= n) await this.replayed(() => verifier.applyBlock(b), b.number);
    }
    const forkHash = chain.store.getBlockHash(n) ?? ws.getGenesisBlockHash();
    if (forkHash !== plan.header.hash().value) {
      throw new ForkRefusedError(
        `cannot fork ${url} at block ${n}: its block ${n} changed while the fork was made (a reorg); start again`,
      );
    }
    chain.store.db.transaction(() => chain.store.meta.set('forkBlock', n))();
    const ms = Math.round(performance.now() - started);
    log.info(
      { forkUrl: url, forkBlock: n, ms, mode: 'replay' },
      `forked ${url} at block ${n} (replay mode: blocks 1 to ${n} re-executed, ${ms} ms); building block ${n + 1} on it`,
    );
  }

  async stop(): Promise<void> {}

  /** Applies what the upstream sent; a refusal (a block that does not verify) names the block. */
  private async replayed(fn: () => Promise<void>, blockNumber: number): Promise<void> {
    try {
      await fn();
    } catch (err) {
      throw new ForkRefusedError(
        `cannot fork ${this.o.plan.upstream.url}: its block ${blockNumber} does not verify: ${(err as Error).message}`,
      );
    }
  }
}
