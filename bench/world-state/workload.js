/**
 * The inputs both tree implementations receive, generated from a seed so every run (and both sides of one run)
 * see exactly the same values. Field elements are 31 random bytes (always below the BN254 modulus).
 */
// The tests' mulberry32 (test/helpers), loaded as TypeScript: it imports nothing.
import { prng } from '../../test/helpers/prng.ts';

export class Workload {
  constructor(seed) {
    this.rand = prng(seed);
  }

  int(n) {
    return Math.floor(this.rand() * n);
  }

  /** A random field element: 31 random bytes, so below 2^248. */
  field() {
    const b = Buffer.alloc(32);
    for (let i = 1; i < 32; i += 4) {
      const r = (this.rand() * 4294967296) >>> 0;
      b[i] = r & 0xff;
      if (i + 1 < 32) b[i + 1] = (r >>> 8) & 0xff;
      if (i + 2 < 32) b[i + 2] = (r >>> 16) & 0xff;
      if (i + 3 < 32) b[i + 3] = r >>> 24;
    }
    return BigInt(`0x${b.toString('hex')}`) | 1n;
  }

  fields(n) {
    return Array.from({ length: n }, () => this.field());
  }
}

/**
 * Everything the benchmark feeds the trees.
 * - prefill: `prefill` random nullifiers, `prefill` random public data slots with random values;
 * - 160 batches of 64 note hashes, 160 batches of 64 nullifiers;
 * - 160 batches of 64 public data writes, a quarter of them updating prefilled slots;
 * - random leaf indices for sibling path reads.
 */
export function makeWorkload({ seed, prefill, batches }) {
  const w = new Workload(seed);
  const prefillNullifiers = w.fields(prefill);
  const prefillSlots = w.fields(prefill);
  const prefillData = prefillSlots.map((slot) => ({ slot, value: w.field() }));
  const appendBatches = Array.from({ length: batches }, () => w.fields(64));
  const nullifierBatches = Array.from({ length: batches }, () => w.fields(64));
  // Slots are distinct within a batch: Aztec's batchInsert refuses a key twice in one batch.
  const publicDataBatches = Array.from({ length: batches }, () => {
    const used = new Set();
    return Array.from({ length: 64 }, () => {
      let slot = w.field();
      if (w.rand() < 0.25) {
        do slot = prefillSlots[w.int(prefillSlots.length)];
        while (used.has(slot));
      }
      used.add(slot);
      return { slot, value: w.field() };
    });
  });
  const siblingIndices = Array.from({ length: 20000 }, () => w.int(prefill + 128));
  return {
    prefillNullifiers,
    prefillData,
    appendBatches,
    nullifierBatches,
    publicDataBatches,
    siblingIndices,
  };
}

/**
 * Blocks of 1, 16 and 64 txs, each tx with 64 note hashes, 64 nullifiers and 64 public data writes (new slots),
 * each block the first of its checkpoint with 16 L1-to-L2 messages (padded to 1024). Generated and run apart
 * from the million-leaf workload, so its heap does not slow the blocks' garbage collection.
 */
export function makeBlockWorkload({ seed, blockCounts }) {
  const w = new Workload(seed);
  const blocks = {};
  for (const [txs, count] of Object.entries(blockCounts)) {
    blocks[txs] = Array.from({ length: count }, () => ({
      txs: Array.from({ length: Number(txs) }, () => ({
        noteHashes: w.fields(64),
        nullifiers: w.fields(64),
        publicDataWrites: Array.from({ length: 64 }, () => ({ slot: w.field(), value: w.field() })),
      })),
      messages: w.fields(16),
      blockHash: w.field(),
    }));
  }
  return blocks;
}
