import { createHash } from 'node:crypto';
import type { PublicClient } from 'viem';

/** The EIP-4844 point evaluation precompile. */
export const POINT_EVALUATION = '0x000000000000000000000000000000000000000a';

/**
 * A valid point evaluation input that needs no KZG library to build: the zero polynomial's commitment and
 * proof are both the point at infinity (0xc0 then zeros), and it evaluates to 0 at 0.
 */
export function zeroPolynomialOpening(): `0x${string}` {
  const infinity = Buffer.concat([Buffer.from([0xc0]), Buffer.alloc(47)]);
  const versionedHash = createHash('sha256').update(infinity).digest();
  versionedHash[0] = 0x01;
  return `0x${Buffer.concat([versionedHash, Buffer.alloc(32), Buffer.alloc(32), infinity, infinity]).toString('hex')}`;
}

/**
 * Makes the L1 load its KZG trusted setup now: anvil loads it lazily, on the first blob tx or point evaluation
 * (about 2 s, during which that request waits), which otherwise pushes the node's first proposal out of its
 * slot. One eth_call to the precompile; nothing is sent. Resolves to whether the L1 answered.
 */
export async function warmUpPointEvaluation(client: PublicClient): Promise<boolean> {
  try {
    await client.call({ to: POINT_EVALUATION, data: zeroPolynomialOpening() });
    return true;
  } catch {
    return false;
  }
}
