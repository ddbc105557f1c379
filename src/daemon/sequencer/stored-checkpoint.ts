import type { L2Block } from '../../core/block/l2-block.js';
import { computeCheckpointOutHash } from '../../core/messaging/out-hash.js';
import type { Chain } from '../chain/chain.js';
import { CheckpointBuilder } from './checkpoint-builder.js';
import type { SlotClock } from './slot-clock.js';

/** Out hashes of the recorded checkpoints of `slot`'s epoch before it (they accumulate into epochOutHash). */
export function previousOutHashes(chain: Chain, slots: SlotClock, slot: number): bigint[] {
  const { store } = chain;
  const epochStart = slots.epochOf(slot) * slots.timing.epochDuration;
  const out: bigint[] = [];
  for (const c of store.checkpoints.inSlotRange(epochStart, slot)) {
    const messages: bigint[][][] = [];
    for (let n = c.firstBlock; n <= c.lastBlock; n++) messages.push(store.getL2ToL1Messages(n) ?? []);
    out.push(computeCheckpointOutHash(messages));
  }
  return out;
}

/**
 * The checkpoint of stored blocks (its first blocks, in order), taken up again: its constants are what its first
 * block carries, its sponge has absorbed the blocks. The sequencer resumes an unpublished checkpoint with it; a
 * validator recomputes a proposed checkpoint's header with it (`complete()`), from the blocks it re-executed.
 */
export function resumeStoredCheckpoint(chain: Chain, slots: SlotClock, blocks: readonly L2Block[]): CheckpointBuilder {
  const first = blocks[0];
  if (!first) throw new Error('a checkpoint has at least one block');
  const g = first.header.globalVariables;
  return CheckpointBuilder.resume(
    {
      number: first.checkpointNumber,
      slot: first.slot,
      timestamp: first.timestamp,
      chainId: g.chainId,
      version: g.version,
      coinbase: g.coinbase,
      feeRecipient: g.feeRecipient,
      gasFees: g.gasFees,
    },
    chain.settlement.inboxMessages(first.checkpointNumber),
    previousOutHashes(chain, slots, first.slot),
    blocks,
    chain.settlement.blobsHash,
  );
}
