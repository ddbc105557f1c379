import { InboxAbi } from '@aztec/l1-artifacts/InboxAbi';
import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { encodeAbiParameters, encodeEventTopics, type Hex, type Log } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  blockIntervals,
  latencyOf,
  proposalsOf,
  stallMessage,
  summary,
  // @ts-expect-error: a plain JavaScript module of the benchmarks, without type declarations
} from '../../../bench/l1-publication/publication-latency.js';

const ROLLUP = '0x4ed7c70f96b99c776995fb64377f0d4ab3b0e1c1';
const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** A raw log as eth_getLogs returns it, of the rollup's CheckpointProposed event. */
function proposed(checkpointNumber: bigint, l1BlockNumber: bigint, archive = hex32(0xa0)): Log {
  return {
    address: ROLLUP,
    topics: encodeEventTopics({ abi: RollupAbi, eventName: 'CheckpointProposed', args: { checkpointNumber, archive } }),
    data: encodeAbiParameters(
      [{ type: 'bytes32[]' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [[hex32(1)], hex32(2), hex32(3)],
    ),
    blockNumber: l1BlockNumber,
    blockHash: hex32(Number(l1BlockNumber)),
    transactionHash: hex32(1000 + Number(l1BlockNumber)),
    transactionIndex: 0,
    logIndex: 0,
    removed: false,
  } as unknown as Log;
}

describe('bench/l1-publication: the rollup logs it reads', () => {
  it('decodes CheckpointProposed into checkpoint number, archive and L1 block, in checkpoint order', () => {
    const logs = [proposed(2n, 41n, hex32(0xb2)), proposed(1n, 37n, hex32(0xb1))];
    expect(proposalsOf(logs)).toEqual([
      { checkpointNumber: 1n, archive: hex32(0xb1), l1BlockNumber: 37n, txHash: hex32(1037) },
      { checkpointNumber: 2n, archive: hex32(0xb2), l1BlockNumber: 41n, txHash: hex32(1041) },
    ]);
  });

  it('keeps the first proposal of a checkpoint number and leaves out other events', () => {
    const other = {
      ...proposed(9n, 50n),
      topics: encodeEventTopics({
        abi: InboxAbi,
        eventName: 'MessageSent',
        args: { checkpointNumber: 3n, hash: hex32(7) },
      }),
    } as Log;
    const found = proposalsOf([proposed(3n, 44n), proposed(3n, 45n), other]);
    expect(
      found.map((p: { checkpointNumber: bigint; l1BlockNumber: bigint }) => [p.checkpointNumber, p.l1BlockNumber]),
    ).toEqual([[3n, 44n]]);
  });
});

describe('bench/l1-publication: latencies', () => {
  it('measures inclusion against the slot end, signed, and against the slot start', () => {
    // Slot 7 of 4 s runs from 1000 to 1004; the proposal's L1 block is stamped 1003 and was seen 250 ms later.
    const inside = latencyOf({
      checkpointNumber: 5n,
      slot: 7n,
      slotStart: 1000n,
      slotEnd: 1004n,
      l1Timestamp: 1003n,
      seenAtMs: 1_003_250,
    });
    expect(inside).toEqual({
      checkpoint: 5,
      slot: 7,
      afterSlotEnd: -1,
      afterSlotStart: 3,
      seenAfterSlotEnd: -0.75,
      seenAfterSlotStart: 3.25,
    });
    const late = latencyOf({
      checkpointNumber: 6n,
      slot: 8n,
      slotStart: 1004n,
      slotEnd: 1008n,
      l1Timestamp: 1010n,
      seenAtMs: 1_010_000,
    });
    expect([late.afterSlotEnd, late.afterSlotStart]).toEqual([2, 6]);
  });

  it("takes anvil's block intervals only between consecutive blocks", () => {
    const blocks = [
      { number: 10n, timestamp: 100n, seenAtMs: 100_020 },
      { number: 11n, timestamp: 101n, seenAtMs: 101_010 },
      { number: 13n, timestamp: 103n, seenAtMs: 103_030 },
      { number: 14n, timestamp: 104n, seenAtMs: 104_000 },
    ];
    expect(blockIntervals(blocks)).toEqual({ byTimestamp: [1, 1], bySeen: [990, 970] });
  });

  it('summarises min, median and max, and nothing for no values', () => {
    expect(summary([3, -1, 2])).toEqual({ min: -1, median: 2, max: 3 });
    expect(summary([4, 1, 2, 3])).toEqual({ min: 1, median: 3, max: 4 });
    expect(summary([])).toBeUndefined();
  });
});

describe('bench/l1-publication: stopping short', () => {
  const base = { wanted: 5, timeoutS: 60, pendingOnL1: 0n };
  it('says no checkpoint reached L1 once the timeout passes without any', () => {
    expect(stallMessage({ ...base, seen: 0, sinceProgressS: 59.9 })).toBeUndefined();
    expect(stallMessage({ ...base, seen: 0, sinceProgressS: 60 })).toMatch(
      /^no checkpoint reached L1 within 60 s \(the rollup's getPendingCheckpointNumber\(\) is 0\)/,
    );
  });

  it('says how many came when they stop coming, and nothing once enough came', () => {
    expect(stallMessage({ ...base, seen: 2, sinceProgressS: 61, pendingOnL1: 2n })).toMatch(
      /^only 2 of 5 checkpoints reached L1: none more within 60 s of the last \(getPendingCheckpointNumber\(\) is 2\)/,
    );
    expect(stallMessage({ ...base, seen: 5, sinceProgressS: 600 })).toBeUndefined();
  });
});
