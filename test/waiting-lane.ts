/**
 * The test files that mostly wait: each runs a node or a network on an L1 (anvil) or over P2P, and spends its time
 * waiting for slots, proposals, proofs and epochs to pass, with a core mostly idle. `npm test` (scripts/test.mjs)
 * runs them in a lane of their own (one worker) beside the two workers of every other file, so their waits
 * overlap the other files' work instead of holding one of the two workers. A file joins this list only if its
 * time is mostly waiting: a file that keeps a core busy belongs with the others (CPU-bound files in a third lane
 * would slow the files that watch the clock). `npx vitest run` without the lane variable runs every file together.
 */
export const WAITING_FILES: readonly string[] = [
  'test/e2e/l1-crash-safety.test.ts',
  'test/e2e/l1-settlement.test.ts',
  'test/e2e/l1-messages.test.ts',
  'test/e2e/l1-anvil.test.ts',
  'test/e2e/p2p-l1-consensus.test.ts',
  'test/e2e/l1-deploy-interval-mining.test.ts',
  'test/e2e/l1-cheat-codes.test.ts',
  'test/e2e/l1-follower.test.ts',
  'test/e2e/p2p-network.test.ts',
  'test/e2e/p2p-interop.test.ts',
  'test/e2e/p2p-hostile.test.ts',
  'test/e2e/p2p-consensus-hostile.test.ts',
];

/** L2NODE_TEST_LANE: `waiting` runs only WAITING_FILES (one worker), `main` every other file; unset, all. */
export type TestLane = 'waiting' | 'main' | undefined;

export function testLane(raw: string | undefined): TestLane {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'waiting' || raw === 'main') return raw;
  throw new Error(`L2NODE_TEST_LANE must be waiting or main, not ${JSON.stringify(raw)}`);
}
