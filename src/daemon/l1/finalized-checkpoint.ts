import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import type { PublicClient } from 'viem';

/**
 * The rollup's proven checkpoint as of L1's `finalized` block: the finalized tip (4.1.2's archiver reads it the
 * same way). 0 while that block predates the rollup's deployment. Rejects when the L1 cannot answer for that block
 * (anvil reloaded from its state file keeps no state before the reload: "BlockOutOfRangeError"): callers keep the
 * value they had.
 */
export async function readFinalizedCheckpoint(
  client: PublicClient,
  rollupAddress: `0x${string}`,
  l1BlockAtGenesis: bigint,
): Promise<number> {
  const finalized = await client.getBlock({ blockTag: 'finalized' });
  if (finalized.number < l1BlockAtGenesis) return 0;
  const n = await client.readContract({
    address: rollupAddress,
    abi: RollupAbi,
    functionName: 'getProvenCheckpointNumber',
    blockNumber: finalized.number,
  });
  return Number(n);
}
