import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { poseidon2HashBatch } from '../../../src/core/crypto/poseidon2.js';
import type { BatchHasher } from '../../../src/daemon/world-state/batch-hasher.js';
import { ParallelBatchHasher } from '../../../src/daemon/world-state/parallel-batch-hasher.js';

function input(items: number, width: number, seed: number): Buffer {
  const b = Buffer.alloc(items * width * 32);
  for (let i = 0; i < items * width; i++) b.writeUInt32BE((Math.imul(i + 1, 2654435761) ^ seed) >>> 0, i * 32 + 28);
  return b;
}

interface Pool extends BatchHasher {
  readonly readyWorkers: number;
  close(): Promise<void>;
}

async function check(pool: Pool): Promise<void> {
  for (const width of [2, 3, 4]) {
    // 2500 items with rounds of 1000: three parallel rounds, the last one partial.
    const data = input(2500, width, width);
    expect(Buffer.from(pool.hashBatch(data, width))).toEqual(Buffer.from(poseidon2HashBatch(data, width)));
    const small = input(7, width, 99);
    expect(Buffer.from(pool.hashBatch(small, width))).toEqual(Buffer.from(poseidon2HashBatch(small, width)));
  }
}

describe('ParallelBatchHasher', () => {
  it('from the TypeScript sources (no built worker), hashes on the calling thread with the same results', async () => {
    const pool = new ParallelBatchHasher({ workers: 1, minParallelItems: 16, capacityItems: 1000 });
    expect(pool.readyWorkers).toBe(0);
    await check(pool);
    await pool.close();
  });

  // The worker thread runs the built output; `npm test` builds before testing.
  const built = fileURLToPath(new URL('../../../dist/daemon/world-state/parallel-batch-hasher.js', import.meta.url));
  it.skipIf(!existsSync(built))(
    'with built worker threads, splits batches across them with identical results',
    async () => {
      const mod = (await import(built)) as { ParallelBatchHasher: new (o: object) => Pool };
      const pool = new mod.ParallelBatchHasher({ workers: 2, minParallelItems: 16, capacityItems: 1000 });
      const deadline = Date.now() + 20_000;
      while (pool.readyWorkers < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(pool.readyWorkers).toBe(2);
      await check(pool);
      await pool.close();
    },
  );
});
