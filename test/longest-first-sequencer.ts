import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds the heaviest files took in earlier runs of the suite on the 2-core reference machine (vitest's recorded
 * durations, at the varied loads of a shared machine: only their order matters). A fresh clone has no vitest
 * cache: without these figures vitest orders files by size, and a long but short-written file could start last
 * and keep one worker busy minutes after the other is done (the wallet files: most of their time is the wallet's).
 * A file not listed counts as a few seconds; a new file that takes more than about 10 s belongs here.
 * crash-safety: its two nodes' kills now run side by side (about half its earlier 469 s, a run that failed).
 */
const EXPECTED_SECONDS: Readonly<Record<string, number>> = {
  'test/e2e/crash-safety.test.ts': 240,
  'test/e2e/p2p-consensus.test.ts': 212,
  'test/e2e/l1-crash-safety.test.ts': 206,
  'test/e2e/tracing.test.ts': 183,
  'test/e2e/l1-settlement.test.ts': 166,
  'test/e2e/l1-messages.test.ts': 158,
  'test/unit/core/avm/differential-programs.test.ts': 104,
  'test/cli/examples.test.ts': 100,
  'test/e2e/l1-anvil.test.ts': 94,
  'test/e2e/p2p-l1-consensus.test.ts': 90,
  'test/unit/daemon/l1/blob-kzg.test.ts': 81,
  'test/cli/conventions.test.ts': 80,
  'test/cli/query-commands.test.ts': 79,
  'test/e2e/fork.test.ts': 62,
  'test/e2e/fork-412-upstream.test.ts': 59,
  'test/e2e/l1-deploy-interval-mining.test.ts': 47,
  'test/e2e/cheat-codes.test.ts': 41,
  'test/e2e/p2p-network.test.ts': 39,
  'test/e2e/integrity.test.ts': 39,
  'test/e2e/official-wallet.test.ts': 38,
  'test/e2e/l1-cheat-codes.test.ts': 34,
  'test/e2e/state-cheat-codes.test.ts': 32,
  'test/e2e/l1-follower.test.ts': 30,
  'test/e2e/local-network.test.ts': 29,
  'test/e2e/wallet-doc.test.ts': 28,
  'test/e2e/p2p-interop.test.ts': 26,
  'test/e2e/follower-faults.test.ts': 24,
  'test/e2e/lifecycle.test.ts': 24,
  'test/unit/core/avm/differential-avm-test.test.ts': 23,
  'test/e2e/validators.test.ts': 23,
  'test/cli/admin-commands.test.ts': 21,
  'test/e2e/hardening-datadir.test.ts': 21,
  'test/examples/start-node.test.ts': 20,
  'test/e2e/metrics.test.ts': 20,
  'test/e2e/block-history-pruning.test.ts': 18,
  'test/e2e/operations-admin.test.ts': 17,
  'test/e2e/p2p-hostile.test.ts': 17,
  'test/e2e/p2p-consensus-hostile.test.ts': 16,
  'test/cli/cli-docs.test.ts': 15,
  'test/e2e/hostile-load.test.ts': 15,
  'test/conformance/validators-official-client.test.ts': 14,
  'test/cli/admin-routine.test.ts': 14,
  'test/e2e/dev-instant.test.ts': 13,
  'test/e2e/follower-sync.test.ts': 13,
  'test/unit/daemon/l1/blob-kzg-l1.test.ts': 12,
  'test/e2e/load.test.ts': 12,
  'test/e2e/hardening-budgets.test.ts': 12,
  'test/e2e/snapshot-object-store.test.ts': 11,
  'test/cli/bot-and-start.test.ts': 11,
  'test/unit/architecture.test.ts': 11,
  'test/e2e/admin-auth.test.ts': 10,
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
