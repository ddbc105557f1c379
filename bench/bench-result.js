// One machine-readable summary line per benchmark, for `npm run bench` (bench/run-all.js) to collect into
// docs/benchmarks.md: `BENCH_RESULT {"bench":...,"figures":[...]}` on stdout. Each figure names what was
// measured, its value and unit, the baseline measured in the same run and their ratio (higher is better
// unless `lowerIsBetter`), so the report is generated from the run, never written by hand.

/**
 * @typedef {{ name: string, value: number, unit: string, baseline?: { name: string, value: number },
 *   ratio?: number, target?: string, lowerIsBetter?: boolean }} BenchFigure
 */

/** Prints the summary line of benchmark `bench`. @param {string} bench @param {BenchFigure[]} figures @param {Record<string, unknown>} [notes] */
export function benchResult(bench, figures, notes = {}) {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify({ bench, figures, notes })}\n`);
}
