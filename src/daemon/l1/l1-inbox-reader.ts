import { InboxAbi } from '@aztec/l1-artifacts/InboxAbi';
import { concatHex, keccak256, type PublicClient, slice } from 'viem';
import { bigIntToBuffer32 } from '../../core/serialize/field-bytes.js';
import type { Logger } from '../logging/logger.js';
import type { InboxMessageRepository } from '../store/inbox-message-repository.js';
import type { SqliteDatabase } from '../store/node-database.js';

export interface L1InboxReaderOptions {
  readonly client: PublicClient;
  readonly inbox: `0x${string}`;
  /** The L1 block the rollup (and its Inbox) was deployed in: nothing to read before it. */
  readonly fromBlock: bigint;
  readonly db: SqliteDatabase;
  readonly messages: InboxMessageRepository;
  readonly log: Logger;
}

/** L1 blocks asked for in one eth_getLogs call (public RPC providers cap the range). */
const LOG_RANGE = 10_000n;
const ZERO_ROLLING_HASH = `0x${'00'.repeat(16)}` as const;

/**
 * Reads the Inbox's `MessageSent` events into the node's message table, as 4.1.2's archiver does: each message
 * with its leaf index and the checkpoint whose tree takes it (from the event). The Inbox's own state (message
 * count and rolling hash, read at the same L1 block as the logs) says whether the table is complete; when the
 * two disagree (an L1 reorg removed or replaced messages) the table is read again from the deployment block.
 */
export class L1InboxReader {
  /** The L1 block the table is known complete up to; undefined: read it from the start. */
  private syncedTo: bigint | undefined;
  /** The rolling hash over the table's first `count` messages (recomputed only when the table changes). */
  private rolling: { count: number; hash: `0x${string}` } | undefined;

  constructor(private readonly o: L1InboxReaderOptions) {}

  /** Brings the table up to L1 block `toBlock`. */
  async sync(toBlock: bigint): Promise<void> {
    const state = await this.o.client.readContract({
      address: this.o.inbox,
      abi: InboxAbi,
      functionName: 'getState',
      blockNumber: toBlock,
    });
    const total = Number(state.totalMessagesInserted);
    if (this.syncedTo !== undefined && total === this.o.messages.count() && state.rollingHash === this.rollingHash()) {
      this.syncedTo = toBlock;
      return;
    }
    // New messages are read from where the table stopped; a table that cannot be a prefix of the Inbox (it
    // counts as many messages or more, yet the hashes differ: an L1 reorg) is read again from the start, and so
    // is one whose new messages do not add up.
    if (this.syncedTo === undefined || total <= this.o.messages.count()) this.restart();
    if (await this.readUpTo(toBlock, total, state.rollingHash)) return;
    this.restart();
    if (await this.readUpTo(toBlock, total, state.rollingHash)) return;
    this.restart();
    this.o.log.warn(
      { inboxTotal: total },
      'the L1 Inbox changed while its messages were read (an L1 reorg): they are read again at the next poll',
    );
  }

  /** Reads the MessageSent logs after the synced block up to `toBlock`; true when the table then matches L1. */
  private async readUpTo(toBlock: bigint, total: number, rollingHash: `0x${string}`): Promise<boolean> {
    const { client, inbox } = this.o;
    const from = (this.syncedTo ?? this.o.fromBlock - 1n) + 1n;
    const found: { index: bigint; leaf: bigint; checkpoint: number }[] = [];
    for (let start = from; start <= toBlock; start += LOG_RANGE) {
      const end = start + LOG_RANGE - 1n < toBlock ? start + LOG_RANGE - 1n : toBlock;
      const logs = await client.getContractEvents({
        address: inbox,
        abi: InboxAbi,
        eventName: 'MessageSent',
        fromBlock: start,
        toBlock: end,
        strict: true,
      });
      for (const log of logs) {
        found.push({
          index: log.args.index,
          leaf: BigInt(log.args.hash),
          checkpoint: Number(log.args.checkpointNumber),
        });
      }
    }
    this.o.db.transaction(() => {
      for (const m of found) this.o.messages.insert(m);
    })();
    if (this.o.messages.count() !== total || this.rollingHash() !== rollingHash) return false;
    if (found.length > 0) {
      this.o.log.info({ messages: found.length, total }, `read ${found.length} L1-to-L2 message(s) from the L1 Inbox`);
    }
    this.syncedTo = toBlock;
    return true;
  }

  private restart(): void {
    this.o.db.transaction(() => this.o.messages.clear())();
    this.syncedTo = undefined;
    this.rolling = undefined;
  }

  /** The Inbox's rolling hash over the table's messages: bytes16(keccak256(previous ‖ leaf)), from zero. */
  private rollingHash(): `0x${string}` {
    const count = this.o.messages.count();
    if (this.rolling?.count === count) return this.rolling.hash;
    let hash: `0x${string}` = ZERO_ROLLING_HASH;
    for (const m of this.o.messages.all()) {
      const leaf = `0x${bigIntToBuffer32(m.leaf).toString('hex')}` as const;
      hash = slice(keccak256(concatHex([hash, leaf])), 0, 16);
    }
    this.rolling = { count, hash };
    return hash;
  }
}
