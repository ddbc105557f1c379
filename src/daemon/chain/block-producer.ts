/**
 * What feeds new blocks into the chain: the dev sequencer, or in follower mode the upstream block
 * source. nodeAdmin_pauseSync / resumeSync, rollbacks and snapshots stop and restart it through this
 * interface, so the operations code does not care which mode the node runs in.
 */
export interface BlockProducer {
  readonly name: string;
  readonly paused: boolean;
  /** Stops producing; resolves once no block is being built or applied (one in flight completes). Idempotent. */
  pause(): Promise<void>;
  /** Produces again from where the chain is now (which a rollback may have moved). Idempotent. */
  resume(): void;
  /**
   * The block number it is catching up to (a follower: the upstream tip it last saw), or undefined when it
   * makes the blocks itself or does not know yet. GET /status reports "syncing" with the distance to it.
   */
  syncTarget?(): number | undefined;
}
