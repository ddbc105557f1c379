import type { Chain } from '../chain/chain.js';
import type { L2Tips } from '../chain/l2-tips.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from './logger.js';

export interface NodeLogLinesOptions {
  readonly chain: Chain;
  readonly log: Logger;
  /** Seconds between status lines; 0: none. */
  readonly statusIntervalSeconds: number;
  /** The status line's figures besides the tips (pending txs, sync state). */
  readonly status: () => { readonly pendingTxs: number; readonly sync: string };
  /** A dev node's sequencer logs its own checkpoints ("published checkpoint"); a follower's are logged here. */
  readonly logCheckpoints: boolean;
}

/**
 * The node's log lines that belong to no one service: one line per move of the checkpointed (a follower), proven
 * and finalized tips, and a status line every `statusIntervalSeconds` (where the chain stands, the pool, the
 * sync), so an operator reading the log knows the node is alive even when nothing happens.
 */
export class NodeLogLines implements Service {
  readonly name = 'log lines';
  private last: L2Tips | undefined;
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: NodeLogLinesOptions) {}

  async start(): Promise<void> {
    this.last = this.o.chain.readTips();
    this.unsubscribe = this.o.chain.events.on('tips', (tips) => this.tipsMoved(tips));
    if (this.o.statusIntervalSeconds > 0) {
      this.timer = setInterval(() => this.statusLine(), this.o.statusIntervalSeconds * 1000);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    clearInterval(this.timer);
  }

  private tipsMoved(tips: L2Tips): void {
    const before = this.last;
    this.last = tips;
    if (!before) return;
    const kinds = [...(this.o.logCheckpoints ? (['checkpointed'] as const) : []), 'proven', 'finalized'] as const;
    for (const kind of kinds) {
      const was = before[kind];
      const now = tips[kind];
      if (now.block.number === was.block.number && now.checkpoint.number === was.checkpoint.number) continue;
      this.o.log.info(
        { tip: kind, blockNumber: now.block.number, checkpoint: now.checkpoint.number, from: was.block.number },
        `${kind} tip ${now.block.number < was.block.number ? 'back' : 'moved'} to block ${now.block.number} ` +
          `(checkpoint ${now.checkpoint.number}; was block ${was.block.number})`,
      );
    }
  }

  private statusLine(): void {
    try {
      const t = this.o.chain.readTips();
      const { pendingTxs, sync } = this.o.status();
      this.o.log.info(
        {
          proposed: t.proposed.number,
          checkpointed: t.checkpointed.block.number,
          proven: t.proven.block.number,
          finalized: t.finalized.block.number,
          pendingTxs,
          sync,
        },
        `status: block ${t.proposed.number}, checkpointed ${t.checkpointed.block.number}, proven ` +
          `${t.proven.block.number}, finalized ${t.finalized.block.number}; ${pendingTxs} pending txs; ${sync}`,
      );
    } catch (err) {
      this.o.log.debug({ err }, 'status line skipped');
    }
  }
}
