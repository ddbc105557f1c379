import { defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/until.js';
import { LongestFirstSequencer } from './test/longest-first-sequencer.js';

// Two cores on the reference machines: run test files in two forked workers. e2e tests spawn the
// real daemon (bin/run.js on the built dist/), so `npm test` builds first.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    maxWorkers: 2,
    // Longest files first, so the two workers end together (a fresh clone has no timings of its own).
    sequence: { sequencer: LongestFirstSequencer },
    // Concurrent cases (each waiting on CLI processes of its own) run three at a time: enough to fill two cores
    // beside the other worker, few enough that each still gets its share on a loaded machine.
    maxConcurrency: 3,
    // L2NODE_TEST_TIMEOUT_SCALE gives a slow or busy machine room (test/helpers/until.ts).
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
