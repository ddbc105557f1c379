/**
 * How much longer than on a quiet machine tests wait (L2NODE_TEST_TIMEOUT_SCALE, default 1): a busy or slow
 * machine (CI, a laptop on battery) sets e.g. 3. Every wait of the helpers (until, a node's start-up and log
 * lines) and vitest's test and hook timeouts are scaled by it; a test's own timeout goes through `scaled`.
 */
export const TEST_TIMEOUT_SCALE = timeoutScale(process.env.L2NODE_TEST_TIMEOUT_SCALE);

export function timeoutScale(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 1) {
    throw new Error(`L2NODE_TEST_TIMEOUT_SCALE must be a number of at least 1, not ${JSON.stringify(raw)}`);
  }
  return scale;
}

/** `ms` scaled by TEST_TIMEOUT_SCALE. */
export function scaled(ms: number): number {
  return Math.round(ms * TEST_TIMEOUT_SCALE);
}

export interface UntilOptions {
  /** Give up after this long (default 30 s), scaled by TEST_TIMEOUT_SCALE. */
  readonly timeoutMs?: number;
  /** Time between two probes (default 100 ms). */
  readonly intervalMs?: number;
  /** A probe that throws counts as "not yet" (a node still starting); the last error is in the timeout message. */
  readonly retryErrors?: boolean;
}

/**
 * Polls `probe` until it returns a value (not undefined), failing after the timeout with `what`. The third
 * argument is the timeout in ms, or the options.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  options: number | UntilOptions = {},
): Promise<T> {
  const o = typeof options === 'number' ? { timeoutMs: options } : options;
  const ms = scaled(o.timeoutMs ?? 30_000);
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      if (!o.retryErrors) throw err;
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 100));
  }
}

/** Polls `check` until it holds, failing after the timeout with `what`. */
export async function untilTrue(
  what: string,
  check: () => boolean | Promise<boolean>,
  options: number | UntilOptions = {},
): Promise<void> {
  await until(what, async () => ((await check()) ? true : undefined), options);
}
