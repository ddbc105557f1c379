import type { L2Block } from '../../core/block/l2-block.js';
import type { L2Tips } from '../chain/l2-tips.js';
import type { SyncStage } from './sync-stage.js';
import { type Upstream, type UpstreamCheckpoint, UpstreamUnavailableError } from './upstream.js';

/** One fetch of the catch-up: checkpoints (with their blocks) while the upstream has more, then plain blocks. */
export type Batch =
  | { readonly kind: 'checkpoints'; readonly items: readonly UpstreamCheckpoint[] }
  | { readonly kind: 'blocks'; readonly items: readonly L2Block[] };

/** Where the chain is (or will be once the batches fetched so far are applied). */
export interface ChainPosition {
  readonly block: number;
  readonly checkpoint: number;
}

const BLOCKS_PER_CALL = 100;
const CHECKPOINTS_PER_CALL = 50;

/**
 * The catch-up plan: what to fetch next to bring the chain to the upstream's tips as polled. Published
 * checkpoints (with their blocks) while the upstream has more, then proposed blocks, in batches; the next
 * batch is fetched while the one before it is applied. Its unwind drops the batch fetched ahead (it was for
 * heights above the new tip): the next round plans again from where the chain is.
 */
export class CatchUpPlan implements SyncStage {
  private checkpointsPerCall = CHECKPOINTS_PER_CALL;
  private tips: L2Tips | undefined;
  /** The last checkpoint to fetch as a checkpoint: the upstream's, or less on a follower that checks them on L1. */
  private lastCheckpoint = 0;
  private position: ChainPosition = { block: 0, checkpoint: 0 };
  private ahead: Promise<Batch | undefined> | undefined;

  constructor(private readonly upstream: Upstream) {}

  /**
   * Starts a round from `from` towards `tips`: the first batch is fetched at once. Checkpoints after
   * `lastCheckpoint` (the upstream's checkpointed one by default) are left for a later round: their blocks come
   * as proposed blocks.
   */
  begin(tips: L2Tips, from: ChainPosition, lastCheckpoint = tips.checkpointed.checkpoint.number): void {
    this.tips = tips;
    this.lastCheckpoint = lastCheckpoint;
    this.position = from;
    this.ahead = this.fetch();
  }

  /** The batch fetched ahead; undefined (or an empty batch) at the upstream's tips. A failed fetch throws here. */
  async next(): Promise<Batch | undefined> {
    const batch = await this.ahead;
    this.ahead = undefined;
    return batch;
  }

  /** `batch` is about to be applied: fetch the one after it meanwhile. */
  advance(batch: Batch): void {
    this.position = batchEnd(batch, this.position);
    if (batch.kind === 'checkpoints') this.sizeCheckpointBatches(batch.items);
    this.ahead = this.fetch();
  }

  /**
   * An empty batch: the upstream's tips promise more than it serves. Said as an upstream failure, or the node
   * would stay not-ready silently.
   */
  emptyBatchError(batch: Batch): UpstreamUnavailableError {
    const tips = this.tips;
    const [what, at, method] =
      batch.kind === 'checkpoints'
        ? ['checkpoint', this.position.checkpoint, 'node_getCheckpoints']
        : ['block', this.position.block, 'node_getBlocks'];
    return new UpstreamUnavailableError(
      `it announces block ${tips?.proposed.number} and checkpoint ${tips?.checkpointed.checkpoint.number} ` +
        `(node_getL2Tips) but ${method} serves no ${what} after ${what} ${at}`,
    );
  }

  unwind(): void {
    this.ahead = undefined;
    this.tips = undefined;
  }

  /** The batch after the position, or undefined at the upstream's tips; its failure surfaces when awaited. */
  private fetch(): Promise<Batch | undefined> | undefined {
    const tips = this.tips;
    if (!tips) return undefined;
    const position = this.position;
    const { lastCheckpoint } = this;
    let p: Promise<Batch | undefined>;
    if (position.checkpoint < lastCheckpoint) {
      const limit = Math.min(this.checkpointsPerCall, lastCheckpoint - position.checkpoint);
      p = this.upstream.checkpoints(position.checkpoint + 1, limit).then((items) => ({ kind: 'checkpoints', items }));
    } else if (position.block < tips.proposed.number) {
      const limit = Math.min(BLOCKS_PER_CALL, tips.proposed.number - position.block);
      p = this.upstream.blocks(position.block + 1, limit).then((items) => ({ kind: 'blocks', items }));
    } else {
      return undefined;
    }
    // Awaited later (or dropped when the batch before it fails): never an unhandled rejection.
    p.catch(() => {});
    return p;
  }

  /**
   * Checkpoints come with all their blocks: ask for about BLOCKS_PER_CALL blocks' worth, so one answer stays
   * small enough to encode, send and decode while the previous batch is applied.
   */
  private sizeCheckpointBatches(items: readonly UpstreamCheckpoint[]): void {
    const blocks = items.reduce((n, c) => n + c.blocks.length, 0);
    if (items.length === 0 || blocks === 0) return;
    const perCheckpoint = blocks / items.length;
    this.checkpointsPerCall = Math.max(1, Math.min(CHECKPOINTS_PER_CALL, Math.round(BLOCKS_PER_CALL / perCheckpoint)));
  }
}

/** Where the chain will be once a batch is applied. */
function batchEnd(batch: Batch, from: ChainPosition): ChainPosition {
  if (batch.kind === 'blocks')
    return { block: Math.max(from.block, batch.items.at(-1)?.number ?? 0), checkpoint: from.checkpoint };
  const last = batch.items.at(-1);
  const lastBlock = last?.blocks.at(-1)?.number ?? from.block;
  return { block: Math.max(from.block, lastBlock), checkpoint: last?.number ?? from.checkpoint };
}
