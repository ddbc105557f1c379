import type { BlockProducer } from '../chain/block-producer.js';

/**
 * Why block production is held: nodeAdmin_pauseSync, a rollback in progress, a snapshot being copied, the KZG
 * set-up a sequencer on an L1 commits to blobs with still being built (the first second or two after start).
 */
export type PauseReason = 'operator' | 'rollback' | 'snapshot' | 'kzg';

/**
 * Pauses and resumes the node's block producer (the sequencer, or the follower's block source) on behalf of
 * several holders at once: production stops at the first hold and restarts only when the last is released, so
 * a rollback or a snapshot never resumes a node the operator paused, and the operator's resume waits for them.
 */
export class SyncControl {
  private readonly holds = new Map<PauseReason, number>();

  constructor(
    private readonly producer: BlockProducer,
    private readonly onChange: () => void = () => {},
  ) {}

  /** Holders now, in a stable order. */
  get pausedBy(): PauseReason[] {
    return (['operator', 'rollback', 'snapshot', 'kzg'] as const).filter((r) => this.holds.has(r));
  }

  get paused(): boolean {
    return this.holds.size > 0 || this.producer.paused;
  }

  /** Holds production paused; resolves once no block is in flight. The operator's hold is not counted twice. */
  async hold(reason: PauseReason): Promise<void> {
    const count = this.holds.get(reason) ?? 0;
    this.holds.set(reason, reason === 'operator' ? 1 : count + 1);
    if (count === 0) this.onChange();
    await this.producer.pause();
  }

  /** Releases a hold; production resumes when none is left. Releasing what is not held does nothing. */
  release(reason: PauseReason): void {
    const count = this.holds.get(reason);
    if (count === undefined) return;
    if (count > 1) {
      this.holds.set(reason, count - 1);
      return;
    }
    this.holds.delete(reason);
    if (this.holds.size === 0) this.producer.resume();
    this.onChange();
  }
}
