import { configDefaults, defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/until.js';
import { LongestFirstSequencer } from './test/longest-first-sequencer.js';
import { testLane, WAITING_FILES } from './test/waiting-lane.js';

const ALL = ['test/**/*.test.ts', 'test/**/*.test.tsx'];
// `npm test` runs two vitest processes side by side (scripts/test.mjs): the files that mostly wait in one worker
// (test/waiting-lane.ts), every other file in two. Without L2NODE_TEST_LANE, every file in two workers.
const lane = testLane(process.env.L2NODE_TEST_LANE);

// Two cores on the reference machines: run test files in two forked workers. e2e tests spawn the
// real daemon (bin/run.js on the built dist/), so `npm test` builds first.
export default defineConfig({
  // The lanes run at the same time: each keeps its own record of the files' durations (LongestFirstSequencer).
  cacheDir: lane === 'waiting' ? 'node_modules/.vite-waiting-lane' : undefined,
  test: {
    include: lane === 'waiting' ? [...WAITING_FILES] : ALL,
    exclude: lane === 'main' ? [...configDefaults.exclude, ...WAITING_FILES] : configDefaults.exclude,
    // `npm test -- <files>` hands the same filter to both lanes: one of them may have none of the files.
    passWithNoTests: lane !== undefined,
    pool: 'forks',
    maxWorkers: lane === 'waiting' ? 1 : 2,
    // Longest files first, so the two workers end together (a fresh clone has no timings of its own).
    sequence: { sequencer: LongestFirstSequencer },
    // Concurrent cases (each waiting on CLI processes of their own) run three at a time: enough to fill two cores
    // beside the other worker, few enough that each still gets its share on a loaded machine.
    maxConcurrency: 3,
    // L2NODE_TEST_TIMEOUT_SCALE gives a slow or busy machine room (test/helpers/until.ts).
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
