import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds the heaviest files took in a whole `npm test` run on the 2-core reference machine (two workers). A
 * fresh clone has no vitest cache: without these figures vitest orders files by size, and a long but short-written
 * file (the crash tests) could start last and keep one worker busy minutes after the other is done. Rough
 * figures are enough: they only order the files. A file not listed counts as a few seconds.
 */
const EXPECTED_SECONDS: Readonly<Record<string, number>> = {
  'test/e2e/crash-safety.test.ts': 240,
  'test/e2e/l1-crash-safety.test.ts': 200,
  'test/e2e/l1-settlement.test.ts': 95,
  'test/e2e/p2p-consensus.test.ts': 90,
  'test/cli/examples.test.ts': 88,
  'test/e2e/l1-messages.test.ts': 87,
  'test/e2e/p2p-l1-consensus.test.ts': 85,
  'test/e2e/l1-anvil.test.ts': 67,
  // query-commands and conventions run their CLI cases three at a time: their earlier figures (79 and 59 s) times
  // what that saved when the sequential and concurrent files ran side by side here (330 -> 236 s, 386 -> 294 s).
  'test/cli/query-commands.test.ts': 56,
  'test/e2e/l1-deploy-interval-mining.test.ts': 47,
  'test/cli/conventions.test.ts': 45,
  'test/e2e/l1-cheat-codes.test.ts': 40,
  'test/e2e/cheat-codes.test.ts': 33,
  'test/e2e/state-cheat-codes.test.ts': 32,
  'test/e2e/official-wallet.test.ts': 31,
  'test/e2e/l1-follower.test.ts': 30,
  'test/e2e/fork.test.ts': 30,
  'test/e2e/local-network.test.ts': 29,
  'test/e2e/wallet-doc.test.ts': 28,
  'test/unit/core/avm/differential-programs.test.ts': 24,
  'test/e2e/follower-faults.test.ts': 24,
  'test/e2e/integrity.test.ts': 24,
  'test/e2e/validators.test.ts': 23,
  'test/e2e/lifecycle.test.ts': 22,
  'test/e2e/block-history-pruning.test.ts': 22,
  'test/cli/admin-commands.test.ts': 21,
  'test/e2e/hardening-datadir.test.ts': 20,
  'test/unit/daemon/l1/blob-kzg.test.ts': 20,
  'test/examples/start-node.test.ts': 20,
  'test/e2e/p2p-interop.test.ts': 15,
};
const UNLISTED_SECONDS = 3;

/**
 * Runs the longest files first, so that the two workers finish together: by the duration vitest recorded for a
 * file in an earlier run on this checkout when it has one, else by EXPECTED_SECONDS.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const cached = this.ctx.cache.getTestSpecificationResult(spec);
      if (cached && cached.duration > 0) return cached.duration / 1000;
      return EXPECTED_SECONDS[relative(root, spec.moduleId)] ?? UNLISTED_SECONDS;
    };
    const estimates = new Map(files.map((spec) => [spec, seconds(spec)]));
    return [...files].sort((a, b) => (estimates.get(b) ?? 0) - (estimates.get(a) ?? 0));
  }
}
