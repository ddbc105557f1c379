import { expect } from 'vitest';
import type { ConformanceCase } from './conformance-cases.js';

/** An official client seen as a bag of methods, so the cases can name them as strings. */
export type Callable = Record<string, (...args: unknown[]) => Promise<unknown>>;

/**
 * Calls every case through an official client at once (so the client sends them as one batch) and fails with
 * the list of answers its schemas rejected, and of errors that do not match a case's `rejects`.
 */
export async function runCases(client: Callable, cases: readonly ConformanceCase[]): Promise<void> {
  const results = await Promise.allSettled(cases.map((c) => client[c.method]?.(...c.args)));
  const failures = results
    .map((r, i) => {
      const c = cases[i] as ConformanceCase;
      if (c.rejects) {
        if (r.status === 'fulfilled') return `${c.method}: expected an error matching ${c.rejects}, got a result`;
        const message = (r.reason as Error).message;
        return c.rejects.test(message) ? undefined : `${c.method}: error "${message}" does not match ${c.rejects}`;
      }
      return r.status === 'rejected' ? `${c.method}: ${(r.reason as Error).message}` : undefined;
    })
    .filter(Boolean);
  expect(failures, 'answers the official client rejected').toEqual([]);
}
