// The arithmetic of bench/l1-publication, apart from the node and anvil it runs, so it can be unit-tested: decoding
// the rollup's CheckpointProposed logs, a checkpoint's latencies against its slot, anvil's block intervals, and
// min / median / max summaries.
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { parseEventLogs } from 'viem';

/**
 * The checkpoints proposed in raw L1 logs of the rollup (eth_getLogs), first proposal of each checkpoint
 * number, in checkpoint order. Logs of other events or contracts' logs that do not decode are left out.
 * @param {readonly import('viem').Log[]} logs
 * @returns {{ checkpointNumber: bigint, archive: string, l1BlockNumber: bigint, txHash: string }[]}
 */
export function proposalsOf(logs) {
  const byNumber = new Map();
  for (const log of parseEventLogs({ abi: RollupAbi, eventName: 'CheckpointProposed', logs: [...logs] })) {
    const n = log.args.checkpointNumber;
    if (byNumber.has(n)) continue;
    byNumber.set(n, {
      checkpointNumber: n,
      archive: log.args.archive,
      l1BlockNumber: log.blockNumber,
      txHash: log.transactionHash,
    });
  }
  return [...byNumber.values()].sort((a, b) => (a.checkpointNumber < b.checkpointNumber ? -1 : 1));
}

/**
 * One checkpoint's publication latencies, in signed seconds. The slot ends where the next one starts (the
 * rollup's getTimestampForSlot(slot + 1)); a proposal must be mined inside its slot, so "after slot end" is
 * normally negative: how early before the slot's end it landed. `seenAtMs` is the wall time (ms since the
 * epoch) at which the bench first saw the L1 block holding the proposal; L1 timestamps are whole seconds.
 * @param {{ checkpointNumber: bigint, slot: bigint, slotStart: bigint, slotEnd: bigint, l1Timestamp: bigint, seenAtMs: number }} p
 */
export function latencyOf(p) {
  return {
    checkpoint: Number(p.checkpointNumber),
    slot: Number(p.slot),
    afterSlotEnd: Number(p.l1Timestamp - p.slotEnd),
    afterSlotStart: Number(p.l1Timestamp - p.slotStart),
    seenAfterSlotEnd: p.seenAtMs / 1000 - Number(p.slotEnd),
    seenAfterSlotStart: p.seenAtMs / 1000 - Number(p.slotStart),
  };
}

/**
 * Intervals between consecutive L1 blocks, by their timestamps (s) and by when the bench saw them (ms); a gap
 * in the block numbers (a block the bench did not see) is left out, not counted as one long interval.
 * @param {readonly { number: bigint, timestamp: bigint, seenAtMs: number }[]} blocks in the order seen
 */
export function blockIntervals(blocks) {
  const byTimestamp = [];
  const bySeen = [];
  for (let i = 1; i < blocks.length; i++) {
    if (blocks[i].number !== blocks[i - 1].number + 1n) continue;
    byTimestamp.push(Number(blocks[i].timestamp - blocks[i - 1].timestamp));
    bySeen.push(blocks[i].seenAtMs - blocks[i - 1].seenAtMs);
  }
  return { byTimestamp, bySeen };
}

/** Min, median (the upper one of an even count) and max; undefined for no values. @param {readonly number[]} values */
export function summary(values) {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
}

/**
 * Why the bench stops short, or undefined while it can go on: no checkpoint, or not the next one, within
 * `timeoutS` seconds of the start or of the last checkpoint seen.
 * @param {{ seen: number, wanted: number, sinceProgressS: number, timeoutS: number, pendingOnL1: bigint }} s
 */
export function stallMessage(s) {
  if (s.seen >= s.wanted || s.sinceProgressS < s.timeoutS) return undefined;
  return s.seen === 0
    ? `no checkpoint reached L1 within ${s.timeoutS} s (the rollup's getPendingCheckpointNumber() is ${s.pendingOnL1}): ` +
        'the node does not propose checkpoints to the rollup'
    : `only ${s.seen} of ${s.wanted} checkpoints reached L1: none more within ${s.timeoutS} s of the last ` +
        `(getPendingCheckpointNumber() is ${s.pendingOnL1})`;
}
